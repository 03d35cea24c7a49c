// The 19 compiled-in verb tables, each checked against its recorded checksum before first use.
import type { ActionClass } from "../../core/action.ts";
import { MemnoxError } from "../../core/errors.ts";
import type { VerbTable } from "../types.ts";
import { aws } from "./aws.ts";
import { az } from "./az.ts";
import { checksum } from "./checksum.ts";
import { CHECKSUMS } from "./checksums.ts";
import { docker } from "./docker.ts";
import { fly } from "./fly.ts";
import { gcloud } from "./gcloud.ts";
import { gh } from "./gh.ts";
import { git } from "./git.ts";
import { heroku } from "./heroku.ts";
import { kubectl } from "./kubectl.ts";
import { actionPattern } from "./match.ts";
import { netlify } from "./netlify.ts";
import { npm } from "./npm.ts";
import { playwright } from "./playwright.ts";
import { railway } from "./railway.ts";
import { mongosh, mysql, psql } from "./sql.ts";
import { stripe } from "./stripe.ts";
import { terraform } from "./terraform.ts";
import { vercel } from "./vercel.ts";

const TABLES: readonly VerbTable[] = [
  aws,
  gcloud,
  az,
  gh,
  kubectl,
  terraform,
  docker,
  vercel,
  railway,
  fly,
  heroku,
  netlify,
  psql,
  mysql,
  mongosh,
  npm,
  stripe,
  git,
  playwright,
];

const BY_NAME = new Map<string, VerbTable>();
for (const t of TABLES) for (const name of [t.cli, ...(t.aliases ?? [])]) BY_NAME.set(name, t);

/** Tables already checked, by identity: a changed copy is never mistaken for the checked one. */
const verified = new WeakSet<VerbTable>();

export function tableChecksum(table: VerbTable): string {
  return checksum(JSON.stringify(table));
}

export interface ChecksumReport {
  readonly cli: string;
  readonly expected: string | undefined;
  readonly actual: string;
  readonly ok: boolean;
}

/** Every table against its recorded checksum, without throwing: what `explain` and the tests print. */
export function checkVerbTables(): ChecksumReport[] {
  return TABLES.map((t) => {
    const actual = tableChecksum(t);
    const expected = CHECKSUMS[t.cli];
    return { cli: t.cli, expected, actual, ok: expected === actual };
  });
}

/** A table whose data changed without its checksum refuses to load: a class moved needs a review. */
export function verifyTable(table: VerbTable, recorded: Readonly<Record<string, string>> = CHECKSUMS): VerbTable {
  if (recorded === CHECKSUMS && verified.has(table)) return table;
  const actual = tableChecksum(table);
  if (recorded[table.cli] !== actual) {
    throw new MemnoxError(
      "internal",
      `the verb table for \`${table.cli}\` does not match its recorded checksum`,
      `review the change to src/resolve/tables/${table.cli}.ts, then record ${actual} in src/resolve/tables/checksums.ts`,
    );
  }
  if (recorded === CHECKSUMS) verified.add(table);
  return table;
}

export function verbTables(): readonly VerbTable[] {
  return TABLES.map((t) => verifyTable(t));
}

/** The table for a CLI name or one of its aliases (`flyctl`, `mongo`, `tofu`). */
export function verbTable(cli: string): VerbTable | undefined {
  const t = BY_NAME.get(cli);
  return t ? verifyTable(t) : undefined;
}

/** Every action name (a pattern where the table fills in words) the tables give `cls`, sorted: what a baseline names. */
export function actionsOfClass(cls: ActionClass): string[] {
  const names = verbTables().flatMap((t) => t.verbs.filter((e) => e.class === cls).map((e) => actionPattern(e)));
  return [...new Set(names)].sort();
}

/** The class a table gives an action name; undefined when the table has no such action. */
export function classOf(table: VerbTable, action: string): VerbTable["verbs"][number]["class"] | undefined {
  return table.verbs.find((e) => e.action === action)?.class;
}

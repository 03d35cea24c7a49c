// The 19 compiled-in verb tables, each built and checked against its recorded checksum on first use.
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

type Build = () => VerbTable;

/** Every table under the names it answers to; each is built on first use, so a hook that meets git builds git. */
const REGISTRY: readonly (readonly [Build, readonly string[]])[] = [
  [aws, ["aws"]],
  [gcloud, ["gcloud"]],
  [az, ["az"]],
  [gh, ["gh"]],
  [kubectl, ["kubectl"]],
  [terraform, ["terraform", "tofu"]],
  [docker, ["docker"]],
  [vercel, ["vercel"]],
  [railway, ["railway"]],
  [fly, ["fly", "flyctl"]],
  [heroku, ["heroku"]],
  [netlify, ["netlify", "ntl"]],
  [psql, ["psql"]],
  [mysql, ["mysql", "mariadb"]],
  [mongosh, ["mongosh", "mongo"]],
  [npm, ["npm"]],
  [stripe, ["stripe"]],
  [git, ["git"]],
  [playwright, ["playwright"]],
];

const BY_NAME = new Map<string, Build>();
for (const [build, names] of REGISTRY) for (const name of names) BY_NAME.set(name, build);

const built = new Map<Build, VerbTable>();
function load(build: Build): VerbTable {
  let t = built.get(build);
  if (!t) {
    t = build();
    built.set(build, t);
  }
  return t;
}

/** The names the registry answers to, by table: a test holds them equal to each table's own cli and aliases. */
export function registeredNames(): readonly (readonly [VerbTable, readonly string[]])[] {
  return REGISTRY.map(([build, names]) => [load(build), names] as const);
}

declare const MEMNOX_TABLES_CHECKED: boolean | undefined;
/** build.ts refuses to build from a table that fails its checksum, so a compiled binary skips the check at load. */
const CHECKED_AT_BUILD = typeof MEMNOX_TABLES_CHECKED === "boolean" && MEMNOX_TABLES_CHECKED;

/** Tables already checked, by identity: a changed copy is never mistaken for the checked one. */
const verified = new WeakSet<VerbTable>();

function tableChecksum(table: VerbTable): string {
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
  return REGISTRY.map(([build]) => {
    const t = load(build);
    const actual = tableChecksum(t);
    const expected = CHECKSUMS[t.cli];
    return { cli: t.cli, expected, actual, ok: expected === actual };
  });
}

/** A table whose data changed without its checksum refuses to load: a class moved needs a review. */
export function verifyTable(table: VerbTable, recorded: Readonly<Record<string, string>> = CHECKSUMS): VerbTable {
  if (recorded === CHECKSUMS && (CHECKED_AT_BUILD || verified.has(table))) return table;
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
  return REGISTRY.map(([build]) => verifyTable(load(build)));
}

/** The registry's own built and checked copy of a table its reader imports directly (git's). */
export function tableOf(build: Build): VerbTable {
  return verifyTable(load(build));
}

/** The table for a CLI name or one of its aliases (`flyctl`, `mongo`, `tofu`). */
export function verbTable(cli: string): VerbTable | undefined {
  const build = BY_NAME.get(cli);
  return build ? verifyTable(load(build)) : undefined;
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

// Authenticated CLIs: a credential file one of the 19 verb tables' programs reads, and what that table lets it do.
import { verbTable } from "../resolve/index.ts";
import type { VerbTable } from "../resolve/types.ts";
import type { FoundCredential } from "./credentials.ts";
import { verbOutside } from "./outside.ts";
import { onPath } from "./trail.ts";
import type { CliRow, VerbCounts } from "./types.ts";

/** The CLI a credential authenticates: its own, or Heroku's line in `.netrc`. */
export function cliOf(c: Pick<FoundCredential, "cli" | "facts" | "label">): string | undefined {
  if (c.cli) return c.cli;
  return c.label === "netrc logins" && c.facts.heroku === true ? "heroku" : undefined;
}

function verbCounts(table: VerbTable): VerbCounts {
  const n = { read: 0, write: 0, destructive: 0, communication: 0, unknown: 0 };
  for (const v of table.verbs) n[v.class] += 1;
  return n;
}

/** One row per CLI with a usable credential, the first credential that authenticates it named. */
export function cliRows(credentials: readonly FoundCredential[], pathVar: string | undefined): CliRow[] {
  const out = new Map<string, CliRow>();
  for (const c of credentials) {
    const cli = cliOf(c);
    const table = cli ? verbTable(cli) : undefined;
    if (!cli || !table || out.has(cli) || !c.usable) continue;
    const names = [table.cli, ...(table.aliases ?? [])];
    out.set(cli, {
      cli,
      credential: c.path,
      installed: names.some((n) => onPath(n, pathVar) !== undefined),
      verbs: verbCounts(table),
      outside: table.verbs.filter((v) => verbOutside(cli, v)).length,
    });
  }
  return [...out.values()].sort((a, b) => a.cli.localeCompare(b.cli));
}

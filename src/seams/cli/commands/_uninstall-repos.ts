// Which repositories `uninstall --purge` takes memnox's refs out of: every one a milestone was kept in (recorded
// when kept), every one the ledger saw a call in, and the one here.
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { repoRoot } from "../../../io/repo.ts";
import { recordedCwds } from "../../../ledger/read/rows.ts";
import type { Context } from "../../../ports/context.ts";
import { purgeMilestoneRefs, type RepoPurge } from "../../../rewind/purge.ts";
import { milestoneRepos } from "../../../rewind/repos.ts";

function ledgerPlaces(db: string): string[] {
  if (!existsSync(db)) return [];
  try {
    const conn = new Database(db, { readonly: true });
    try {
      return recordedCwds(conn);
    } finally {
      conn.close();
    }
  } catch {
    return [];
  }
}

export async function purgeRepos(ctx: Context): Promise<RepoPurge[]> {
  const places = [...milestoneRepos(ctx.paths.milestoneRepos), ...ledgerPlaces(ctx.paths.db), ctx.cwd];
  const roots = new Set(places.flatMap((p) => (existsSync(p) ? [repoRoot(p) ?? ""] : [])).filter(Boolean));
  const out: RepoPurge[] = [];
  for (const root of roots) {
    try {
      const r = await purgeMilestoneRefs({ git: ctx.git, env: ctx.env }, root);
      if (r) out.push(r);
    } catch (e) {
      out.push({ repo: root, refs: 0, objects: 0, packed: 0, problem: (e as Error).message });
    }
  }
  return out;
}

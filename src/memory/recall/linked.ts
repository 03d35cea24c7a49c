// One hop along the link graph from recall's hits: the pages they name, as short entries, within what budget is left.
import type { Store } from "../pages/store.ts";
import type { Row } from "../search/index-db.ts";
import type { ScopeFilter } from "../search/search.ts";
import { estimateTokens } from "./pack.ts";

/** A hit the expansion starts from: its index row id, slug and namespace. */
export interface Seed {
  readonly id: number;
  readonly slug: string;
  readonly scope: string;
  readonly projectId: string;
}

export interface LinkedEntry {
  readonly slug: string;
  readonly title: string;
  readonly node_type: string;
  readonly file_path: string;
  readonly description: string;
  readonly depth: 1;
  readonly via: string;
  /** The entry's lines as the block shows them. */
  readonly lines: readonly string[];
  readonly tokens: number;
}

interface Expansion {
  readonly entries: readonly LinkedEntry[];
  /** Reachable pages not shown for the budget. */
  readonly omitted: number;
}

export function omittedMarker(count: number): string {
  return `[memex] linked pages omitted (token budget): ${count}`;
}

/** What recall would show: active, inside its validity window, and in a namespace the scope allows. */
function visible(row: Row, scope: ScopeFilter, now: string): boolean {
  if (row.status !== "active") return false;
  if ((row.valid_from && row.valid_from > now) || (row.valid_until && row.valid_until <= now)) return false;
  if (scope.kind === "global") return row.scope === "global";
  if (scope.kind === "project") return row.scope === "project" && row.project_id === scope.projectId;
  if (scope.kind === "projects+global") return row.scope === "global" || scope.projectIds.includes(row.project_id);
  return true;
}

/** A short body snippet for a page with no description, from the index's copy of the text (the file is not read). */
function snippetOf(store: Store, row: Row): string {
  const hit = store.index().db.query("SELECT body FROM pages_fts WHERE rowid = ?").get(row.id) as {
    body: string;
  } | null;
  const text = (hit?.body ?? "").replace(/\s+/g, " ").trim();
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/**
 * The pages the seeds link to (any relation), each once, seeds excluded, alphabetical by slug: a target resolves in
 * the seed's own namespace first, then to a global page; what recall would hide is never listed. Entries are kept
 * until the first that does not fit `budget` with the omitted marker reserved; when all fit, no marker is needed.
 */
export function expandLinks(store: Store, seeds: readonly Seed[], scope: ScopeFilter, now: string, budget: number) {
  if (seeds.length === 0 || !store.hasIndex()) return { entries: [], omitted: 0 } satisfies Expansion;
  const index = store.index();
  const seen = new Set(seeds.map((s) => `${s.scope}\0${s.projectId}\0${s.slug}`));
  const found = new Map<string, { row: Row; via: string }>();
  for (const seed of seeds) {
    for (const { target, rel } of index.linksOf(seed.id)) {
      const row =
        (seed.scope === "project" ? index.get("project", seed.projectId, target) : undefined) ??
        index.get("global", "", target);
      if (!row || !visible(row, scope, now)) continue;
      const key = `${row.scope}\0${row.project_id}\0${row.slug}`;
      if (seen.has(key) || found.has(key)) continue;
      found.set(key, { row, via: `${seed.slug} -${rel}-> ${row.slug}` });
    }
  }
  const all = [...found.values()]
    .sort((a, b) => (a.row.slug < b.row.slug ? -1 : a.row.slug > b.row.slug ? 1 : 0))
    .map(({ row, via }): LinkedEntry => {
      const text = row.description || snippetOf(store, row);
      const lines = [
        `+ ${row.title} (${row.node_type}) | depth: 1 | via: ${via}`,
        `   File: ${row.file_path}`,
        ...(text ? [`   ${text}`] : []),
      ];
      return {
        slug: row.slug,
        title: row.title,
        node_type: row.node_type,
        file_path: row.file_path,
        description: row.description,
        depth: 1,
        via,
        lines,
        tokens: estimateTokens(lines.join("\n")),
      };
    });
  const total = all.reduce((n, e) => n + e.tokens, 0);
  if (total <= budget) return { entries: all, omitted: 0 } satisfies Expansion;
  const kept: LinkedEntry[] = [];
  let used = 0;
  for (const e of all) {
    const marker = estimateTokens(omittedMarker(all.length - kept.length - 1));
    if (used + e.tokens + marker > budget) break;
    kept.push(e);
    used += e.tokens;
  }
  return { entries: kept, omitted: all.length - kept.length } satisfies Expansion;
}

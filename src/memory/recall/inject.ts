// The push layer's block (memex spec §5.4): recall packed to a budget, the one-hop linked pages, or silence.
import { floatText } from "../format/frontmatter.ts";
import { isoSeconds } from "../format/time.ts";
import type { Store } from "../pages/store.ts";
import { QueryError, queryTokens } from "../search/query.ts";
import { coverage, type ScopeFilter } from "../search/search.ts";
import { expandLinks, type LinkedEntry, omittedMarker, type Seed } from "./linked.ts";
import { DEFAULT_MAX_TOKENS } from "./pack.ts";
import { type Hit, recall } from "./recall.ts";

/** The three lines every injected block opens with, memex's words: a harness adapter may look for them. */
export const CONSTITUTION = [
  "Memories below are yours — sessions end, these remain.",
  "Write durable facts; skip ephemera.",
  "Recall before assuming; trust what cites its source.",
] as const;
export const MEMORY_HEADER = "=== memex MEMORY ===";
export const MEMORY_FOOTER = "=== END memex MEMORY ===";
export const DEFAULT_INJECTION_TOP_K = 5;
/** The best hit must hold at least this share of the query's terms: a weak match injects nothing rather than noise. */
const INJECTION_FLOOR = 0.4;

interface InjectionQuery {
  readonly query: string;
  readonly scope: ScopeFilter;
  readonly topK?: number;
  readonly maxTokens?: number;
  readonly floor?: number;
}

interface Injection {
  /** The block, or "" when the hook stays silent. */
  readonly block: string;
  readonly hits: readonly Hit[];
  readonly linked: readonly LinkedEntry[];
  readonly linked_omitted: number;
  /** Estimated tokens of page text (the direct hits) and of the linked entries, len/4+1 each. */
  readonly tokens_used: number;
  /** Why the block is empty, when it is. */
  readonly silent?: "no-terms" | "no-match" | "below-floor";
}

function hitLines(h: Hit): string[] {
  return [
    "---",
    `${h.rank}. ${h.title} (${h.node_type}) | importance: ${floatText(h.importance)} | updated: ${h.updated_at}`,
    `   File: ${h.file_path}`,
    `   ${h.snippet}`,
    `   Tags: ${h.tags.join(", ")}`,
    `   Links: ${h.links.join(", ")}`,
  ];
}

/** The block's text: constitution, header, the search, each hit, then each linked page, then the footer. */
function renderInjection(query: string, hits: readonly Hit[], linked: readonly LinkedEntry[], omitted: number) {
  const lines = [...CONSTITUTION.map((l) => `[memex] ${l}`), MEMORY_HEADER, `[Search: "${query}"]`];
  for (const h of hits) lines.push(...hitLines(h));
  lines.push("---");
  for (const e of linked) lines.push(...e.lines, "---");
  if (omitted > 0) lines.push(omittedMarker(omitted));
  lines.push(MEMORY_FOOTER);
  return lines.join("\n");
}

const silence = (why: Injection["silent"]): Injection => ({
  block: "",
  hits: [],
  linked: [],
  linked_omitted: 0,
  tokens_used: 0,
  ...(why ? { silent: why } : {}),
});

/**
 * Recall for a hook: the same ranking and budget as `recall`, silent when nothing clears the floor, then the pages
 * the hits link to within what budget is left. Only what is injected counts as an access.
 */
export function buildInjection(store: Store, q: InjectionQuery): Injection {
  let terms: string[];
  try {
    terms = queryTokens(q.query);
  } catch (e) {
    if (e instanceof QueryError) return silence("no-terms");
    throw e;
  }
  const budget = q.maxTokens ?? DEFAULT_MAX_TOKENS;
  const r = recall(store, {
    query: q.query,
    scope: q.scope,
    topK: q.topK ?? DEFAULT_INJECTION_TOP_K,
    maxTokens: budget,
    recordAccess: false,
  });
  const top = r.hits[0];
  if (!top) return silence("no-match");
  const ready = store.hasIndex() && store.index().ready();
  const rowOf = (h: Hit) => (ready ? store.index().get(h.scope, h.project_id ?? "", h.slug) : undefined);
  const topRow = rowOf(top);
  const covered = topRow ? (coverage(store.index(), terms, [topRow.id]).get(topRow.id) ?? 0) : terms.length;
  if (covered / terms.length < (q.floor ?? INJECTION_FLOOR)) return silence("below-floor");
  const seeds: Seed[] = r.hits.flatMap((h) => {
    const row = rowOf(h);
    return row ? [{ id: row.id, slug: h.slug, scope: h.scope, projectId: h.project_id ?? "" }] : [];
  });
  const now = isoSeconds(store.now());
  const linked = expandLinks(store, seeds, q.scope, now, Math.max(0, budget - r.tokens_used));
  if (seeds.length > 0) {
    try {
      store.index().recordAccess(
        seeds.map((s) => s.id),
        now,
      );
    } catch {
      // a read-only or busy index must not cost the agent its context
    }
  }
  return {
    block: renderInjection(q.query, r.hits, linked.entries, linked.omitted),
    hits: r.hits,
    linked: linked.entries,
    linked_omitted: linked.omitted,
    tokens_used: r.tokens_used + linked.entries.reduce((n, e) => n + e.tokens, 0),
  };
}

// Recall: safe tokens, strict AND then OR, filters before the limit, budget packing, access bumped for hits only.
import { MemnoxError } from "../../core/errors.ts";
import type { Page } from "../format/page.ts";
import { isoSeconds } from "../format/time.ts";
import { memoryConfig } from "../pages/config.ts";
import { hasPages } from "../pages/navigation.ts";
import type { Store } from "../pages/store.ts";
import type { Row } from "../search/index-db.ts";
import { QueryError, queryTokens } from "../search/query.ts";
import { andThenOr, type Filters, type ScopeFilter } from "../search/search.ts";
import { navigationSearch } from "./nav-search.ts";
import { DEFAULT_MAX_TOKENS, estimateTokens, packToBudget } from "./pack.ts";

export type Engine = "fts5" | "navigation";

interface RecallQuery {
  readonly query: string;
  readonly topK?: number;
  readonly type?: string;
  readonly tags?: readonly string[];
  readonly scope?: ScopeFilter;
  readonly includeExpired?: boolean;
  readonly includeInactive?: boolean;
  readonly maxTokens?: number;
  readonly engine?: Engine;
  /** Telemetry off for dashboards and hooks that only look. */
  readonly recordAccess?: boolean;
}

export interface Hit {
  readonly slug: string;
  readonly status: string;
  readonly file_path: string;
  readonly title: string;
  readonly description: string;
  readonly node_type: string;
  readonly importance: number;
  readonly score: number;
  readonly rank: number;
  readonly snippet: string;
  readonly snippet_source: "body" | "description" | "title";
  readonly tags: readonly string[];
  readonly created: string;
  readonly timestamp: string;
  readonly updated_at: string;
  readonly last_access: string | null;
  /** How many recalls have returned the page: the telemetry recency decay and verify read. */
  readonly access_count: number;
  readonly transcript_ref: string | null;
  readonly links: readonly string[];
  readonly scope: string;
  readonly project_id: string | null;
  readonly project_label: string | null;
}

export interface RecallResult {
  readonly query: string;
  readonly hits: Hit[];
  readonly total_indexed: number;
  readonly search_engine: string;
  readonly search_time_ms: number;
  readonly tokens_used: number;
  readonly omitted_by_budget: number;
}

/** A hit with what packing needs and telemetry needs, before it is shown. */
export interface Candidate {
  readonly hit: Omit<Hit, "rank">;
  readonly id?: number;
  readonly cost: number;
}

function refuseQuery(e: unknown): never {
  if (e instanceof QueryError) throw new MemnoxError("refused", e.message);
  throw e;
}

export function filtersOf(
  store: Store,
  q: Pick<RecallQuery, "scope" | "type" | "tags" | "includeExpired" | "includeInactive">,
): Filters {
  return {
    scope: q.scope ?? { kind: "all" },
    ...(q.type ? { type: q.type } : {}),
    ...(q.tags && q.tags.length > 0 ? { tags: q.tags } : {}),
    ...(q.includeExpired ? {} : { now: isoSeconds(store.now()) }),
    ...(q.includeInactive ? { includeInactive: true } : {}),
  };
}

function checkTopK(topK: number | undefined, fallback: number, max = 100): number {
  const k = topK ?? fallback;
  if (!Number.isInteger(k) || k < 1 || k > max) throw new MemnoxError("refused", `top_k must be between 1 and ${max}`);
  return k;
}

function rowHit(
  row: Row,
  score: number,
  snippet: string,
  source: Hit["snippet_source"],
  links: readonly string[],
): Candidate {
  return {
    id: row.id,
    cost: estimateTokens(snippet),
    hit: {
      slug: row.slug,
      status: row.status,
      file_path: row.file_path,
      title: row.title,
      description: row.description,
      node_type: row.node_type,
      importance: row.importance,
      score,
      snippet,
      snippet_source: source,
      tags: JSON.parse(row.tags) as string[],
      created: row.created,
      timestamp: row.timestamp,
      updated_at: row.updated_at,
      last_access: row.last_access,
      access_count: row.access_count,
      transcript_ref: row.transcript_ref,
      links: [...links],
      scope: row.scope,
      project_id: row.project_id || null,
      project_label: row.project_label,
    },
  };
}

function pageHit(page: Page, score: number, source: Hit["snippet_source"]): Candidate {
  const snippet = source === "description" ? page.description : page.title;
  return {
    cost: estimateTokens(snippet),
    hit: {
      slug: page.slug,
      status: page.status,
      file_path: page.path,
      title: page.title,
      description: page.description,
      node_type: page.type,
      importance: page.importance,
      score,
      snippet,
      snippet_source: source,
      tags: page.tags,
      created: page.created,
      timestamp: page.timestamp,
      updated_at: page.updated_at,
      last_access: page.last_access,
      access_count: page.access_count,
      transcript_ref: page.transcript_ref,
      links: [...new Set(page.links.map((l) => l.target))],
      scope: page.scope,
      project_id: page.project_id,
      project_label: page.project_label,
    },
  };
}

/** The index row of a page the navigation engine found, so its access counter moves like any recall hit's. */
function indexedRow(store: Store, page: Page): Row | undefined {
  try {
    if (!store.hasIndex() || !store.index().ready()) return undefined;
    return store.index().get(page.scope, page.project_id ?? "", page.slug);
  } catch {
    return undefined;
  }
}

/** Candidates by the chosen engine, falling back to navigation when the index is empty but pages exist. */
export function candidates(
  store: Store,
  tokens: readonly string[],
  f: Filters,
  limit: number,
  engine: Engine,
): { found: Candidate[]; engine: string; total: number } {
  if (engine === "fts5") {
    const total = store.hasIndex() ? store.index().count() : 0;
    if (total > 0) {
      const rows = andThenOr(store.index(), tokens, f, limit);
      const targets = store.index().targetsOf(rows.map((r) => r.row.id));
      const found = rows.map((r) => rowHit(r.row, r.score, r.snippet, r.snippetSource, targets.get(r.row.id) ?? []));
      return { found, engine: "semantic-and-fallback-fts5", total };
    }
    if (!hasPages(store, store.layout.docs)) return { found: [], engine: "semantic-and-fallback-fts5", total };
  }
  const nav = navigationSearch(store, tokens, f, limit);
  const found = nav.found.map((n) => {
    const c = pageHit(n.page, -n.score, n.snippetSource);
    const row = indexedRow(store, n.page);
    if (!row) return c;
    const hit = { ...c.hit, access_count: row.access_count, last_access: row.last_access ?? c.hit.last_access };
    return { ...c, id: row.id, hit };
  });
  const name = engine === "navigation" ? "navigation-index-md" : "navigation-index-md-fallback";
  return { found, engine: name, total: nav.rows };
}

export function recall(store: Store, q: RecallQuery): RecallResult {
  const started = performance.now();
  const limit = checkTopK(q.topK, memoryConfig(store).defaultTopK);
  let tokens: string[];
  try {
    tokens = queryTokens(q.query);
  } catch (e) {
    refuseQuery(e);
  }
  const { found, engine, total } = candidates(store, tokens, filtersOf(store, q), limit, q.engine ?? "fts5");
  const packed = packToBudget(found, (c) => c.cost, q.maxTokens ?? DEFAULT_MAX_TOKENS);
  const hits = packed.kept.map((c, i) => ({ ...c.hit, rank: i + 1 }));
  const ids = packed.kept.flatMap((c) => (c.id === undefined ? [] : [c.id]));
  if (q.recordAccess !== false && ids.length > 0) store.index().recordAccess(ids, isoSeconds(store.now()));
  return {
    query: q.query,
    hits,
    total_indexed: total,
    search_engine: engine,
    search_time_ms: Math.round((performance.now() - started) * 1000) / 1000,
    tokens_used: packed.used,
    omitted_by_budget: packed.skipped.length,
  };
}

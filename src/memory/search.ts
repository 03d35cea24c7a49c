// Ranked FTS5 search with the filters applied in SQL before the limit; snippets only for the rows returned.
import type { IndexDb, Row } from "./index-db.ts";
import { matchExpression } from "./query.ts";

export type ScopeFilter =
  | { readonly kind: "all" }
  | { readonly kind: "global" }
  | { readonly kind: "project"; readonly projectId: string }
  | { readonly kind: "projects+global"; readonly projectIds: readonly string[] };

export interface Filters {
  readonly scope: ScopeFilter;
  readonly type?: string;
  readonly tags?: readonly string[];
  /** The clock, as a comparable UTC string; undefined includes expired and not-yet-valid pages. */
  readonly now?: string;
  readonly includeInactive?: boolean;
}

export interface Found {
  readonly row: Row;
  readonly score: number;
  readonly snippet: string;
  readonly snippetSource: "body" | "description" | "title";
}

type Param = string | number;

// Column weights: slug 1, title 1, description 2, body 2, tags 1.
const SCORE = "bm25(pages_fts, 1.0, 1.0, 2.0, 2.0, 1.0)";
const SNIPPET_TOKENS = 12;

function where(f: Filters): { sql: string; params: Param[] } {
  const clauses: string[] = [];
  const params: Param[] = [];
  const s = f.scope;
  if (s.kind === "global") clauses.push("p.scope = 'global'");
  if (s.kind === "project") {
    clauses.push("p.scope = 'project' AND p.project_id = ?");
    params.push(s.projectId);
  }
  if (s.kind === "projects+global") {
    clauses.push(
      `(p.scope = 'global' OR (p.scope = 'project' AND p.project_id IN (${s.projectIds.map(() => "?").join(",") || "''"})))`,
    );
    params.push(...s.projectIds);
  }
  if (f.type) {
    clauses.push("p.node_type = ?");
    params.push(f.type);
  }
  for (const tag of f.tags ?? []) {
    clauses.push("EXISTS (SELECT 1 FROM page_tags t WHERE t.tag = ? AND t.page = p.id)");
    params.push(tag);
  }
  if (f.now !== undefined) {
    clauses.push("(p.valid_from IS NULL OR p.valid_from <= ?) AND (p.valid_until IS NULL OR p.valid_until > ?)");
    params.push(f.now, f.now);
  }
  if (!f.includeInactive) clauses.push("p.status = 'active'");
  return { sql: clauses.map((c) => ` AND ${c}`).join(""), params };
}

/** The best `limit` rows for the tokens joined by `op`, ordered by score then slug. */
export function ranked(db: IndexDb, tokens: readonly string[], op: "AND" | "OR", f: Filters, limit: number): Found[] {
  if (tokens.length === 0 || !db.ready()) return [];
  const match = matchExpression(tokens, op);
  const w = where(f);
  const top = db.db
    .query(
      `SELECT p.id AS id, ${SCORE} AS score FROM pages_fts JOIN pages p ON p.id = pages_fts.rowid
       WHERE pages_fts MATCH ?${w.sql} ORDER BY score, p.slug LIMIT ?`,
    )
    .all(match, ...w.params, limit) as { id: number; score: number }[];
  if (top.length === 0) return [];
  const ids = top.map((t) => t.id);
  const detail = db.db
    .query(
      `SELECT p.*, snippet(pages_fts, 3, '<mark>', '</mark>', '...', ${SNIPPET_TOKENS}) AS s_body,
       snippet(pages_fts, 2, '<mark>', '</mark>', '...', ${SNIPPET_TOKENS}) AS s_desc,
       snippet(pages_fts, 1, '<mark>', '</mark>', '...', ${SNIPPET_TOKENS}) AS s_title
       FROM pages_fts JOIN pages p ON p.id = pages_fts.rowid
       WHERE pages_fts MATCH ? AND pages_fts.rowid IN (${ids.map(() => "?").join(",")})`,
    )
    .all(match, ...ids) as (Row & { s_body: string; s_desc: string; s_title: string })[];
  const byId = new Map(detail.map((d) => [d.id, d]));
  const out: Found[] = [];
  for (const t of top) {
    const d = byId.get(t.id);
    if (!d) continue;
    const { s_body, s_desc, s_title, ...row } = d;
    // snippet() returns text even where a column did not match, so the <mark> says where the match was.
    const [snippet, snippetSource] = s_body.includes("<mark>")
      ? ([s_body, "body"] as const)
      : s_desc.includes("<mark>")
        ? ([s_desc, "description"] as const)
        : ([s_title, "title"] as const);
    out.push({ row, score: t.score, snippet, snippetSource });
  }
  return out;
}

/** Strict AND first; OR only when AND finds nothing. */
export function andThenOr(db: IndexDb, tokens: readonly string[], f: Filters, limit: number): Found[] {
  const strict = ranked(db, tokens, "AND", f, limit);
  return strict.length > 0 || tokens.length < 2 ? strict : ranked(db, tokens, "OR", f, limit);
}

/** How many of the tokens each row matches on its own, by the same tokenizer that ranked it. */
export function coverage(db: IndexDb, tokens: readonly string[], ids: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return counts;
  const q = db.db.query(
    `SELECT rowid AS id FROM pages_fts WHERE pages_fts MATCH ? AND rowid IN (${ids.map(() => "?").join(",")})`,
  );
  for (const t of tokens) {
    for (const r of q.all(matchExpression([t], "AND"), ...ids) as { id: number }[])
      counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
  }
  return counts;
}

// Ranked FTS5 search with the filters applied in SQL before the limit; snippets only for the rows returned.
import { type IndexDb, ROWS, type Row } from "./index-db.ts";
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

type Scored = { id: number; score: number; slug: string };

const bySlug = (a: Scored, b: Scored) => a.score - b.score || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

/**
 * Rows of equal score go most-recalled first, ascending slug still the last word: use ranks a page only among its
 * equals, so a match never loses to a less relevant page. The counters are read only when a tie exists.
 */
function byUse(db: IndexDb, rows: Scored[]): Scored[] {
  if (!rows.some((r, i) => i > 0 && r.score === rows[i - 1]?.score)) return rows;
  const counts = new Map(
    (
      db.db
        .query(`SELECT page, count FROM access WHERE page IN (${rows.map(() => "?").join(",")})`)
        .all(...rows.map((r) => r.id)) as { page: number; count: number }[]
    ).map((r) => [r.page, r.count]),
  );
  const used = (r: Scored) => counts.get(r.id) ?? 0;
  return [...rows].sort((a, b) => a.score - b.score || used(b) - used(a) || bySlug(a, b));
}

/**
 * The best `limit` eligible rows, ordered by score then slug. FTS5 ranks alone first (its own sorter, no join);
 * the filters then apply to that head. When the head cannot prove it holds the answer (too few eligible rows, or a
 * tie at its edge), the full query with every filter in SQL decides.
 */
function top(db: IndexDb, match: string, f: Filters, limit: number): Scored[] {
  const w = where(f);
  const head = limit * 4 + 16;
  const pre = db.db
    .query("SELECT rowid AS id, rank AS score, slug FROM pages_fts WHERE pages_fts MATCH ? ORDER BY rank LIMIT ?")
    .all(match, head) as Scored[];
  if (pre.length === 0) return [];
  const eligible = new Set(
    (
      db.db
        .query(`SELECT p.id AS id FROM pages p WHERE p.id IN (${pre.map(() => "?").join(",")})${w.sql}`)
        .all(...pre.map((r) => r.id), ...w.params) as { id: number }[]
    ).map((r) => r.id),
  );
  const kept = byUse(db, pre.filter((r) => eligible.has(r.id)).sort(bySlug));
  const edge = pre.at(-1)?.score ?? 0;
  const complete = pre.length < head || (kept.length >= limit && (kept[limit - 1]?.score ?? edge) < edge);
  if (complete) return kept.slice(0, limit);
  return db.db
    .query(
      `SELECT p.id AS id, ${SCORE} AS score, p.slug AS slug FROM pages_fts JOIN pages p ON p.id = pages_fts.rowid
       WHERE pages_fts MATCH ?${w.sql}
       ORDER BY score, coalesce((SELECT a.count FROM access a WHERE a.page = p.id), 0) DESC, p.slug LIMIT ?`,
    )
    .all(match, ...w.params, limit) as Scored[];
}

/** The best `limit` rows for the tokens joined by `op`, ordered by score then slug. */
export function ranked(db: IndexDb, tokens: readonly string[], op: "AND" | "OR", f: Filters, limit: number): Found[] {
  if (tokens.length === 0 || !db.ready()) return [];
  const match = matchExpression(tokens, op);
  const best = top(db, match, f, limit);
  if (best.length === 0) return [];
  const ids = best.map((t) => t.id);
  const snip = (col: number) => `snippet(pages_fts, ${col}, '<mark>', '</mark>', '...', ${SNIPPET_TOKENS})`;
  const marks = (cols: string, rows: readonly number[]) =>
    db.db
      .query(
        `SELECT rowid AS id, ${cols} FROM pages_fts WHERE pages_fts MATCH ? AND rowid IN (${rows.map(() => "?").join(",")})`,
      )
      .all(match, ...rows) as { id: number; b?: string; d?: string; t?: string }[];
  // snippet() returns text even where a column did not match, so the <mark> says where the match was; the body is
  // asked first, and the description and title (in one pass) only for rows whose body did not match.
  const body = new Map(marks(`${snip(3)} AS b`, ids).map((r) => [r.id, r.b ?? ""]));
  const rest = ids.filter((id) => !body.get(id)?.includes("<mark>"));
  const others = rest.length ? marks(`${snip(2)} AS d, ${snip(1)} AS t`, rest) : [];
  const desc = new Map(others.map((r) => [r.id, r.d ?? ""]));
  const title = new Map(others.map((r) => [r.id, r.t ?? ""]));
  const rows = new Map(
    (db.db.query(`${ROWS} WHERE p.id IN (${ids.map(() => "?").join(",")})`).all(...ids) as Row[]).map((r) => [r.id, r]),
  );
  const out: Found[] = [];
  for (const t of best) {
    const row = rows.get(t.id);
    if (!row) continue;
    const b = body.get(t.id) ?? "";
    const d = desc.get(t.id) ?? "";
    const [snippet, snippetSource] = b.includes("<mark>")
      ? ([b, "body"] as const)
      : d.includes("<mark>")
        ? ([d, "description"] as const)
        : ([title.get(t.id) ?? row.title, "title"] as const);
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

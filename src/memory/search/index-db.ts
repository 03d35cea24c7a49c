// The disposable FTS5 index: a mirror of the pages for ranked search, links both ways and access telemetry.
import { Database } from "bun:sqlite";
import { mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import { hashBody, type Page } from "../format/page.ts";
import { wikiLinks } from "../format/slug.ts";
import { normalizeTimestamp } from "../format/time.ts";

const SCHEMA_VERSION = "3";

// Plain SQL that SQLite 3.39 (the oldest Bun on macOS) understands: no RETURNING-dependent logic, no JSON operators.
const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  `CREATE TABLE IF NOT EXISTS pages(
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL, project_id TEXT NOT NULL, slug TEXT NOT NULL,
    node_type TEXT NOT NULL, title TEXT NOT NULL, description TEXT NOT NULL, tags TEXT NOT NULL,
    file_path TEXT NOT NULL, importance REAL NOT NULL, created TEXT NOT NULL, timestamp TEXT NOT NULL,
    updated_at TEXT NOT NULL, valid_from TEXT, valid_until TEXT, stale_after TEXT, status TEXT NOT NULL,
    project_label TEXT, transcript_ref TEXT, content_hash TEXT NOT NULL, file_mtime REAL NOT NULL,
    file_size INTEGER NOT NULL, body_chars INTEGER NOT NULL,
    UNIQUE(scope, project_id, slug))`,
  // Telemetry apart from the wide rows: a recall's update touches a few narrow pages, so the WAL stays small.
  "CREATE TABLE IF NOT EXISTS access(page INTEGER PRIMARY KEY, count INTEGER NOT NULL, last TEXT)",
  "CREATE TABLE IF NOT EXISTS page_tags(tag TEXT NOT NULL, page INTEGER NOT NULL, PRIMARY KEY(tag, page)) WITHOUT ROWID",
  "CREATE TABLE IF NOT EXISTS links(page INTEGER NOT NULL, target TEXT NOT NULL, rel TEXT NOT NULL, PRIMARY KEY(page, target, rel)) WITHOUT ROWID",
  "CREATE INDEX IF NOT EXISTS links_target ON links(target)",
  "CREATE INDEX IF NOT EXISTS pages_path ON pages(file_path)",
  "CREATE VIRTUAL TABLE IF NOT EXISTS pages_fts USING fts5(slug, title, description, body, tags, tokenize='porter unicode61')",
  // The column weights (slug 1, title 1, description 2, body 2, tags 1) as FTS5's own rank, so ORDER BY rank uses them.
  "INSERT INTO pages_fts(pages_fts, rank) VALUES('rank', 'bm25(1.0, 1.0, 2.0, 2.0, 1.0)')",
];

export interface Row {
  readonly id: number;
  readonly scope: string;
  readonly project_id: string;
  readonly slug: string;
  readonly node_type: string;
  readonly title: string;
  readonly description: string;
  readonly tags: string;
  readonly file_path: string;
  readonly importance: number;
  readonly created: string;
  readonly timestamp: string;
  readonly updated_at: string;
  readonly valid_from: string | null;
  readonly valid_until: string | null;
  readonly stale_after: string | null;
  readonly status: string;
  readonly project_label: string | null;
  readonly transcript_ref: string | null;
  readonly content_hash: string;
  readonly file_mtime: number;
  readonly file_size: number;
  readonly body_chars: number;
  readonly access_count: number;
  readonly last_access: string | null;
}

/** A page row with its telemetry, as every reader wants it. */
export const ROWS =
  "SELECT p.*, coalesce(a.count, 0) AS access_count, a.last AS last_access FROM pages p LEFT JOIN access a ON a.page = p.id";

interface FileStamp {
  readonly mtime: number;
  readonly size: number;
}

/** Whether this SQLite has FTS5: compiled in by option, or else found by creating a throwaway table in `temp`. */
export function hasFts5(db: Database): boolean {
  const row = db.query("SELECT sqlite_compileoption_used('ENABLE_FTS5') AS on_").get() as { on_: number } | null;
  if (row?.on_ === 1) return true;
  try {
    db.exec("CREATE VIRTUAL TABLE temp.memnox_fts5_probe USING fts5(x)");
    db.exec("DROP TABLE temp.memnox_fts5_probe");
    return true;
  } catch {
    return false;
  }
}

/** Recall cannot work without FTS5: say so plainly, with the way out. */
export function requireFts5(db: Database): void {
  if (!hasFts5(db))
    throw new MemnoxError(
      "refused",
      "the SQLite in use was built without FTS5, which memory recall needs",
      "use the memnox binary (its SQLite has FTS5), or recall with --engine navigation",
    );
}

function connect(path: string, readonly: boolean): Database {
  try {
    return new Database(path, readonly ? { readonly: true } : { create: true, readwrite: true });
  } catch (e) {
    throw new MemnoxError("io", `could not open the memory index \`${path}\`: ${(e as Error).message}`);
  }
}

/** False only when the file is not an SQLite database or is corrupt (found at the first read); a busy one waits. */
function readable(db: Database): boolean {
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.query("SELECT count(*) FROM sqlite_master").get();
    return true;
  } catch (e) {
    if (/not a database|malformed/i.test(e instanceof Error ? e.message : String(e))) return false;
    throw e;
  }
}

export class IndexDb {
  readonly db: Database;

  constructor(path: string, opts: { readonly?: boolean } = {}) {
    if (!opts.readonly) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.db = connect(path, opts.readonly === true);
    if (!readable(this.db)) {
      this.db.close();
      if (opts.readonly)
        throw new MemnoxError("io", `the memory index \`${path}\` is damaged`, "memnox memory rebuild-index --force");
      // The index is disposable and ours alone: a damaged one is replaced by an empty one, rebuilt from the pages.
      for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
      this.db = connect(path, false);
    }
    requireFts5(this.db);
    this.db.exec("PRAGMA busy_timeout = 5000");
    if (!opts.readonly) {
      this.db.exec("PRAGMA journal_mode = WAL");
      this.db.exec("PRAGMA synchronous = NORMAL");
      this.migrate();
    }
  }

  private migrate(): void {
    const version = this.tableExists("meta") ? this.meta("schema_version") : undefined;
    // Opening an index of this version writes nothing; another version is dropped, to be rebuilt from the pages.
    if (version !== SCHEMA_VERSION) this.reset();
  }

  private tableExists(name: string): boolean {
    return this.db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== null;
  }

  /** True once the schema exists (a read-only open of a never-built store has none). */
  ready(): boolean {
    return this.tableExists("pages") && this.tableExists("pages_fts");
  }

  /** Drops and recreates every table: the index is disposable, the pages are the truth. */
  reset(): void {
    this.db.transaction(() => {
      this.dropAll();
      for (const sql of SCHEMA) this.db.exec(sql);
      this.setMeta("schema_version", SCHEMA_VERSION);
      this.setMeta("page_count", "0");
    })();
  }

  dropAll(): void {
    for (const t of ["pages_fts", "links", "page_tags", "access", "pages", "meta"])
      this.db.exec(`DROP TABLE IF EXISTS ${t}`);
  }

  meta(key: string): string | undefined {
    const row = this.db.query("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | null;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.db.query("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)").run(key, value);
  }

  /** Rows in the index, kept in meta so recall does not count 100,000 rows per query. */
  count(): number {
    if (!this.ready()) return 0;
    const kept = this.meta("page_count");
    if (kept !== undefined) return Number(kept);
    const n = (this.db.query("SELECT count(*) AS n FROM pages").get() as { n: number }).n;
    this.setMeta("page_count", String(n));
    return n;
  }

  private bumpCount(delta: number): void {
    this.db.query("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'page_count'").run(delta);
  }

  get(scope: string, projectId: string, slug: string): Row | undefined {
    return (
      (this.db
        .query(`${ROWS} WHERE p.scope = ? AND p.project_id = ? AND p.slug = ?`)
        .get(scope, projectId, slug) as Row | null) ?? undefined
    );
  }

  all(): Row[] {
    if (!this.ready()) return [];
    return this.db.query(`${ROWS} ORDER BY p.scope, p.project_id, p.slug`).all() as Row[];
  }

  /** Inserts or replaces one page's row, text, tags and links; access telemetry survives. */
  upsert(page: Page, stamp: FileStamp): void {
    const key = page.project_id ?? "";
    const tags = JSON.stringify(page.tags);
    const values = [
      page.type,
      page.title,
      page.description,
      tags,
      page.path,
      page.importance,
      page.created,
      page.timestamp,
      page.updated_at,
      page.valid_from && normalizeTimestamp(page.valid_from),
      page.valid_until && normalizeTimestamp(page.valid_until),
      page.stale_after && normalizeTimestamp(page.stale_after),
      page.status,
      page.project_label,
      page.transcript_ref,
      hashBody(page.body),
      stamp.mtime,
      stamp.size,
      page.body.length,
    ] as const;
    const existing = this.get(page.scope, key, page.slug);
    let id: number;
    if (existing) {
      id = existing.id;
      this.db
        .query(
          `UPDATE pages SET node_type=?, title=?, description=?, tags=?, file_path=?, importance=?, created=?,
           timestamp=?, updated_at=?, valid_from=?, valid_until=?, stale_after=?, status=?, project_label=?,
           transcript_ref=?, content_hash=?, file_mtime=?, file_size=?, body_chars=? WHERE id=?`,
        )
        .run(...values, id);
      this.db.query("DELETE FROM pages_fts WHERE rowid = ?").run(id);
      this.db.query("DELETE FROM page_tags WHERE page = ?").run(id);
      this.db.query("DELETE FROM links WHERE page = ?").run(id);
    } else {
      const r = this.db
        .query(
          `INSERT INTO pages(node_type, title, description, tags, file_path, importance, created, timestamp,
           updated_at, valid_from, valid_until, stale_after, status, project_label, transcript_ref, content_hash,
           file_mtime, file_size, body_chars, scope, project_id, slug)
           VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
        )
        .run(...values, page.scope, key, page.slug);
      id = Number(r.lastInsertRowid);
      this.db
        .query("INSERT OR REPLACE INTO access(page, count, last) VALUES (?, ?, ?)")
        .run(id, page.access_count, page.last_access);
      this.bumpCount(1);
    }
    this.db
      .query("INSERT INTO pages_fts(rowid, slug, title, description, body, tags) VALUES (?,?,?,?,?,?)")
      .run(id, page.slug, page.title, page.description, page.body, page.tags.join(" "));
    const tag = this.db.query("INSERT OR IGNORE INTO page_tags(tag, page) VALUES (?, ?)");
    for (const t of page.tags) tag.run(t, id);
    const link = this.db.query("INSERT OR IGNORE INTO links(page, target, rel) VALUES (?, ?, ?)");
    for (const [target, rel] of edges(page)) link.run(id, target, rel);
  }

  remove(scope: string, projectId: string, slug: string): boolean {
    const row = this.get(scope, projectId, slug);
    if (!row) return false;
    this.db.query("DELETE FROM pages_fts WHERE rowid = ?").run(row.id);
    this.db.query("DELETE FROM page_tags WHERE page = ?").run(row.id);
    this.db.query("DELETE FROM links WHERE page = ?").run(row.id);
    this.db.query("DELETE FROM pages WHERE id = ?").run(row.id);
    this.db.query("DELETE FROM access WHERE page = ?").run(row.id);
    this.bumpCount(-1);
    return true;
  }

  /** Merges the full-text index into one segment: after a bulk load, each query then reads one b-tree, not dozens. */
  optimize(): void {
    this.db.exec("INSERT INTO pages_fts(pages_fts) VALUES('optimize')");
  }

  /** Recall's side effect: only the hits returned get their counter and last access moved. */
  recordAccess(ids: readonly number[], at: string): void {
    if (ids.length === 0) return;
    this.db
      .query(`UPDATE access SET count = count + 1, last = ? WHERE page IN (${ids.map(() => "?").join(",")})`)
      .run(at, ...ids);
  }

  /** Pages pointing at `target` (backlinks), with the relation. */
  backlinks(target: string): { row: Row; rel: string }[] {
    return (
      this.db
        .query(
          `SELECT p.*, coalesce(a.count, 0) AS access_count, a.last AS last_access, l.rel AS rel FROM links l
           JOIN pages p ON p.id = l.page LEFT JOIN access a ON a.page = p.id WHERE l.target = ? ORDER BY p.slug, l.rel`,
        )
        .all(target) as (Row & { rel: string })[]
    ).map((r) => ({ row: r, rel: r.rel }));
  }

  /** Each page's distinct link targets, in one query for a set of pages (a recall's hits). */
  targetsOf(ids: readonly number[]): Map<number, string[]> {
    const out = new Map<number, string[]>();
    if (ids.length === 0) return out;
    const rows = this.db
      .query(
        `SELECT DISTINCT page, target FROM links WHERE page IN (${ids.map(() => "?").join(",")}) ORDER BY page, target`,
      )
      .all(...ids) as { page: number; target: string }[];
    for (const r of rows) out.set(r.page, [...(out.get(r.page) ?? []), r.target]);
    return out;
  }

  /** Outgoing edges of one page. */
  linksOf(id: number): { target: string; rel: string }[] {
    return this.db.query("SELECT target, rel FROM links WHERE page = ? ORDER BY target, rel").all(id) as {
      target: string;
      rel: string;
    }[];
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    this.db.close();
  }
}

/** Every graph edge a page declares: [[slug]] mentions, relations, typed links. */
export function edges(page: Page): [string, string][] {
  const out = new Map<string, [string, string]>();
  const add = (target: string, rel: string) => out.set(`${target}\0${rel}`, [target, rel]);
  for (const slug of wikiLinks(page.body)) add(slug, "mentions");
  if (page.parent) add(page.parent, "parent");
  for (const s of page.supersedes) add(s, "supersedes");
  for (const s of page.implements) add(s, "implements");
  for (const s of page.depends_on) add(s, "depends_on");
  for (const l of page.links) add(l.target, l.rel);
  return [...out.values()];
}

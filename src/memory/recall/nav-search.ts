// Recall without the SQLite index: rank the generated index.md rows (titles and descriptions only).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { builtinForDir } from "../format/kinds.ts";
import { subdirs } from "../format/layout.ts";
import type { Page } from "../format/page.ts";
import { normalizeTimestamp } from "../format/time.ts";
import { existingLocator, readPageHead, type Store } from "../pages/store.ts";
import { rawTokens } from "../search/query.ts";
import type { Filters } from "../search/search.ts";

interface NavRow {
  readonly title: string;
  readonly description: string;
  readonly path: string;
  readonly type: string;
}

interface NavFound {
  readonly page: Page;
  readonly matched: number;
  /** Title matches count twice, description matches once: a title names what a page is. */
  readonly score: number;
  readonly snippetSource: "description" | "title";
  /** The body's size, never its text: the budget counts it without reading it. */
  readonly bodyBytes: number;
}

interface NavResult {
  readonly found: NavFound[];
  /** Navigation rows read: what this engine searched, in place of the index's row count. */
  readonly rows: number;
}

const ROW = /^- \[((?:\\.|[^\]\\])*)\]\(([a-z0-9][a-z0-9-]*)\.md\)(?: — (.*))?$/;

function unescapeText(s: string): string {
  return s.replace(/\\(.)/g, "$1");
}

/** A light suffix stripper, so `deploys` meets `deploy` without an index's Porter stemmer. */
function stem(t: string): string {
  if (t.length <= 4) return t;
  for (const suffix of ["ing", "ed", "es", "s", "ly"]) if (t.endsWith(suffix)) return t.slice(0, -suffix.length);
  return t;
}

function rowsIn(dir: string): NavRow[] {
  const file = join(dir, "index.md");
  if (!existsSync(file)) return [];
  const out: NavRow[] = [];
  let type = "";
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("## ")) {
      const section = line.slice(3).toLowerCase();
      type = builtinForDir(section) ?? section;
      continue;
    }
    const m = ROW.exec(line);
    if (!m?.[1] || !m[2] || type === "subdirectories") continue;
    out.push({
      title: unescapeText(m[1]),
      description: unescapeText(m[3] ?? ""),
      path: join(dir, `${m[2]}.md`),
      type,
    });
  }
  return out;
}

function walk(dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  out.push(dir);
  for (const c of subdirs(dir)) walk(join(dir, c), out);
}

function roots(store: Store, f: Filters): string[] {
  const { global, projects, docs } = store.layout;
  const s = f.scope;
  const project = (id: string) => {
    const loc = existingLocator(store, id);
    return loc ? [join(projects, loc)] : [];
  };
  if (s.kind === "global") return [global];
  if (s.kind === "project") return project(s.projectId);
  if (s.kind === "projects+global") return [global, ...s.projectIds.flatMap(project)];
  return [docs];
}

function visible(page: Page, f: Filters): boolean {
  if (!f.includeInactive && page.status !== "active") return false;
  if (f.type && page.type !== f.type) return false;
  if (f.tags?.some((t) => !page.tags.includes(t))) return false;
  const s = f.scope;
  if (s.kind === "global" && page.scope !== "global") return false;
  if (s.kind === "project" && page.project_id !== s.projectId) return false;
  if (s.kind === "projects+global" && page.scope !== "global" && !s.projectIds.includes(page.project_id ?? ""))
    return false;
  if (f.now !== undefined) {
    if (page.valid_from && normalizeTimestamp(page.valid_from) > f.now) return false;
    if (page.valid_until && normalizeTimestamp(page.valid_until) <= f.now) return false;
  }
  return true;
}

/**
 * AND over titles and descriptions first, OR when nothing matches all; a title match outranks a description match;
 * ties by slug. Only the front matter of the pages returned is read, never a body.
 */
export function navigationSearch(store: Store, tokens: readonly string[], f: Filters, limit: number): NavResult {
  const dirs: string[] = [];
  for (const r of roots(store, f)) walk(r, dirs);
  const wanted = tokens.map(stem);
  const rows = dirs.flatMap(rowsIn);
  const scored = rows
    .filter((r) => !f.type || r.type === f.type)
    .map((row) => {
      const inTitle = new Set(rawTokens(row.title).map(stem));
      const inDesc = new Set(rawTokens(row.description).map(stem));
      const titled = wanted.filter((t) => inTitle.has(t)).length;
      const described = wanted.filter((t) => inDesc.has(t) && !inTitle.has(t)).length;
      return { row, matched: titled + described, score: 2 * titled + described, fromDesc: described > 0 && !titled };
    });
  const all = scored.filter((s) => s.matched === wanted.length && wanted.length > 0);
  const pool = all.length > 0 ? all : scored.filter((s) => s.matched > 0);
  pool.sort(
    (a, b) =>
      b.matched - a.matched || b.score - a.score || cmp(slugOf(a.row), slugOf(b.row)) || cmp(a.row.path, b.row.path),
  );
  const out: NavFound[] = [];
  for (const s of pool) {
    if (out.length >= limit) break;
    let head: ReturnType<typeof readPageHead>;
    try {
      head = readPageHead(store, s.row.path);
    } catch {
      continue;
    }
    if (visible(head.page, f))
      out.push({
        page: head.page,
        matched: s.matched,
        score: s.score,
        snippetSource: s.fromDesc ? "description" : "title",
        bodyBytes: head.bodyBytes,
      });
  }
  return { found: out, rows: rows.length };
}

function slugOf(r: NavRow): string {
  return r.path.slice(dirname(r.path).length + 1, -3);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

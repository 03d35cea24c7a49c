// Rebuilding the disposable index from the pages (incrementally by file stamp, or from scratch), and navigation with it.
import { existsSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { writeFileAtomic } from "../../io/files.ts";
import { pageFiles } from "../format/layout.ts";
import { hashBody, type Page, renderPage } from "../format/page.ts";
import { isoSeconds } from "../format/time.ts";
import type { Row } from "../search/index-db.ts";
import { refreshDecisions } from "./decisions.ts";
import { diagnose, type NavChange, type NavPage, regenerate } from "./navigation.ts";
import { logOp } from "./oplog.ts";
import { readPage, rel, type Store, typeDirs } from "./store.ts";

interface RebuildReport {
  readonly nodes_indexed: number;
  readonly nodes_skipped: number;
  readonly nodes_errored: number;
  readonly nodes_removed: number;
  readonly duration_ms: number;
  /** Bounded: at most ten, each a store-relative path and the reason, never content. */
  readonly errors: readonly string[];
  /** What regeneration could not do, as memex lists it: `navigation collision: <path>`, `navigation write_failed: …`. */
  readonly navigation_defects: readonly string[];
  /** Index files written or removed by the regeneration, by category. */
  readonly navigation: Readonly<Record<string, number>>;
  /** What was wrong with navigation before it was regenerated: missing, stale, orphan, collision. */
  readonly navigation_repaired: Readonly<Record<string, number>>;
  /** Pages whose body no longer matched their front matter's content_hash (a hand edit): the hash rewritten. */
  readonly content_hashes_refreshed: number;
  readonly refreshed: readonly string[];
  /** Pages per folder under docs/ (`global/entities`, `projects/git-shop/decision`). */
  readonly folders: Readonly<Record<string, number>>;
}

/** How many pages indexed in one rebuild make merging the full-text index worth its seconds. */
const OPTIMIZE_AFTER = 1000;

const key = (scope: string, projectId: string | null, slug: string) => `${scope}\0${projectId ?? ""}\0${slug}`;

function navOf(row: Row): NavPage {
  return { slug: row.slug, type: row.node_type, title: row.title, description: row.description, path: row.file_path };
}

export function rebuildIndex(store: Store, opts: { force?: boolean; navigation?: boolean } = {}): RebuildReport {
  const started = performance.now();
  const index = store.index();
  const errors: string[] = [];
  const carried = new Map<string, { count: number; last: string | null }>();
  if (opts.force) {
    for (const r of index.all())
      carried.set(key(r.scope, r.project_id, r.slug), { count: r.access_count, last: r.last_access });
    index.reset();
  }
  const rows = new Map(index.all().map((r) => [r.file_path, r]));
  const seen = new Set<string>();
  const keys = new Set<string>();
  let indexed = 0;
  let skipped = 0;
  const nav: NavPage[] = [];
  const refreshed: string[] = [];
  const folders: Record<string, number> = {};
  index.transaction(() => {
    for (const dir of typeDirs(store)) {
      const files = pageFiles(dir.path);
      if (files.length > 0) folders[relative(store.layout.docs, dir.path).split(sep).join("/")] = files.length;
      for (const file of files) {
        const path = join(dir.path, file);
        const stat = statSync(path);
        const known = rows.get(path);
        if (known && known.file_mtime === stat.mtimeMs && known.file_size === stat.size) {
          seen.add(path);
          keys.add(key(known.scope, known.project_id, known.slug));
          nav.push(navOf(known));
          skipped++;
          continue;
        }
        let page: Page;
        try {
          page = readPage(store, path);
        } catch (e) {
          errors.push(`${rel(store, path)}: ${(e as Error).message}`);
          continue;
        }
        const k = key(page.scope, page.project_id, page.slug);
        // A hand-edited body no longer matches its front matter's hash: the page is written again with a fresh one,
        // as memex does (timestamp and updated_at move with it, since the body did change).
        const hash = hashBody(page.body);
        if (page.content_hash !== hash && !keys.has(k)) {
          const now = isoSeconds(store.now());
          const { slug, path: at, body, ...meta } = page;
          page = { ...page, content_hash: hash, updated_at: now, timestamp: now };
          writeFileAtomic(
            at,
            renderPage({ ...meta, content_hash: hash, updated_at: now, timestamp: now }, body),
            0o644,
          );
          refreshed.push(slug);
        }
        if (keys.has(k)) {
          errors.push(`${rel(store, path)}: another page in this scope already uses slug \`${page.slug}\``);
          continue;
        }
        keys.add(k);
        const old = carried.get(k);
        const withCounts = old
          ? { ...page, access_count: Math.max(page.access_count, old.count), last_access: old.last ?? page.last_access }
          : page;
        if (
          known &&
          (known.scope !== page.scope || known.project_id !== (page.project_id ?? "") || known.slug !== page.slug)
        )
          index.remove(known.scope, known.project_id, known.slug);
        const fresh = refreshed.at(-1) === page.slug ? statSync(path) : stat;
        index.upsert(withCounts, { mtime: fresh.mtimeMs, size: fresh.size });
        seen.add(path);
        nav.push(page);
        indexed++;
      }
    }
    for (const [path, row] of rows) {
      if (seen.has(path) && existsSync(path)) continue;
      // The key may have been re-pointed at a page's new path above; only a row still naming the lost file goes.
      if (index.get(row.scope, row.project_id, row.slug)?.file_path === path)
        index.remove(row.scope, row.project_id, row.slug);
    }
    index.setMeta("last_rebuild", isoSeconds(store.now()));
  });
  // A bulk load leaves the full-text index in many segments; merging them makes every later recall read fewer.
  if (indexed >= OPTIMIZE_AFTER) index.optimize();
  const removed = [...rows.keys()].filter((p) => !seen.has(p)).length;
  const defects: Record<string, number> = {};
  if (opts.navigation !== false)
    for (const d of diagnose(store, nav)) defects[d.category] = (defects[d.category] ?? 0) + 1;
  const changes: NavChange[] = opts.navigation === false ? [] : regenerate(store, nav);
  const counts: Record<string, number> = {};
  for (const c of changes) counts[c.category] = (counts[c.category] ?? 0) + 1;
  const unfixed = changes
    .filter((c) => c.category === "collision" || c.category === "write_failed")
    .sort((a, b) => (a.category === b.category ? 0 : a.category === "collision" ? -1 : 1))
    .map((c) => `navigation ${c.category}: ${c.path}`);
  // A hand edit of a decision page reaches the gate here, as it reaches the index.
  refreshDecisions(store);
  logOp(store, { op: opts.force ? "rebuild-force" : "rebuild", count: indexed });
  return {
    nodes_indexed: indexed,
    nodes_skipped: skipped,
    nodes_errored: errors.length,
    nodes_removed: removed,
    duration_ms: Math.round(performance.now() - started),
    errors: errors.slice(0, 10),
    navigation_defects: unfixed,
    navigation: counts,
    navigation_repaired: defects,
    content_hashes_refreshed: refreshed.length,
    refreshed: refreshed.slice(0, 10),
    folders,
  };
}

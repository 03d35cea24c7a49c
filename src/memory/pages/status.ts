// Where a store stands (status) and what it holds (info): counts and freshness, never contents.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_TYPES } from "../format/kinds.ts";
import { pageFiles } from "../format/layout.ts";
import { memoryConfig } from "./config.ts";
import { dirType, readPage, type Store, typeDirs } from "./store.ts";
import { zeroYieldStreak } from "./verify.ts";

interface Freshness {
  readonly rows: number;
  readonly pages_on_disk: number;
  readonly changed: number;
  readonly missing: number;
  readonly orphaned: number;
  readonly fresh: boolean;
  readonly last_rebuild: string | null;
}

/** Compares file stamps with the index rows, without parsing a page. */
export function freshness(store: Store): Freshness {
  const rows = store.hasIndex() ? store.index().all() : [];
  const byPath = new Map(rows.map((r) => [r.file_path, r]));
  let onDisk = 0;
  let changed = 0;
  let missing = 0;
  for (const dir of typeDirs(store)) {
    for (const file of pageFiles(dir.path)) {
      const path = join(dir.path, file);
      onDisk++;
      const row = byPath.get(path);
      if (!row) missing++;
      else {
        const s = statSync(path);
        if (s.mtimeMs !== row.file_mtime || s.size !== row.file_size) changed++;
      }
    }
  }
  const orphaned = rows.filter((r) => !existsSync(r.file_path)).length;
  return {
    rows: rows.length,
    pages_on_disk: onDisk,
    changed,
    missing,
    orphaned,
    fresh: changed === 0 && missing === 0 && orphaned === 0,
    last_rebuild: store.hasIndex() ? (store.index().meta("last_rebuild") ?? null) : null,
  };
}

interface StatusReport {
  /** memex's keys first: stale or missing rows, rows, last capture per harness, status counts, zero-yield streak. */
  readonly index_stale_rows: number;
  readonly index_total: number;
  readonly pending: number;
  readonly archived: number;
  readonly superseded: number;
  readonly zero_yield_streak: number;
  readonly dir: string;
  readonly index: Freshness;
  readonly statuses: Readonly<Record<string, number>>;
  readonly last_capture: Readonly<Record<string, string>>;
  readonly zero_yield_consolidations: number;
}

export function status(store: Store): StatusReport {
  const statuses: Record<string, number> = { active: 0, pending: 0, superseded: 0, archived: 0 };
  for (const r of store.hasIndex() ? store.index().all() : []) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const lastCapture: Record<string, string> = {};
  for (const dir of typeDirs(store)) {
    if (dirType(dir.name) !== "episode") continue;
    for (const file of pageFiles(dir.path)) {
      try {
        const page = readPage(store, join(dir.path, file));
        const harness = page.harness ?? "manual";
        if ((lastCapture[harness] ?? "") < page.created) lastCapture[harness] = page.created;
      } catch {
        // verify names malformed pages
      }
    }
  }
  const index = freshness(store);
  const streak = zeroYieldStreak(store);
  return {
    index_stale_rows: index.changed + index.missing + index.orphaned,
    index_total: index.rows,
    last_capture: lastCapture,
    pending: statuses.pending ?? 0,
    archived: statuses.archived ?? 0,
    superseded: statuses.superseded ?? 0,
    zero_yield_streak: streak,
    dir: store.layout.root,
    index,
    statuses,
    zero_yield_consolidations: streak,
  };
}

interface InfoReport {
  /** memex's keys first. */
  readonly version: string;
  readonly data_dir: string;
  readonly wiki_file_counts: Readonly<Record<string, number>>;
  readonly index_total: number;
  readonly schema_version: string | null;
  readonly last_index_rebuild: string | null;
  readonly llm_provider: string;
  readonly dir: string;
  readonly pages: number;
  readonly by_type: Readonly<Record<string, number>>;
  readonly by_scope: Readonly<Record<string, number>>;
  readonly projects: readonly { locator: string; pages: number }[];
  readonly transcripts: number;
  readonly index: {
    readonly path: string;
    readonly exists: boolean;
    readonly rows: number;
    readonly size_bytes: number;
    readonly last_rebuild: string | null;
  };
}

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) n += countFiles(join(dir, e.name));
    else if (e.isFile() && e.name.endsWith(".jsonl")) n++;
  }
  return n;
}

export function info(store: Store, version = "0.0.0"): InfoReport {
  const byType: Record<string, number> = {};
  const byScope: Record<string, number> = { global: 0, project: 0 };
  const projects = new Map<string, number>();
  let total = 0;
  for (const dir of typeDirs(store)) {
    const n = pageFiles(dir.path).length;
    if (n === 0) continue;
    total += n;
    const type = dirType(dir.name);
    byType[type] = (byType[type] ?? 0) + n;
    byScope[dir.scope] = (byScope[dir.scope] ?? 0) + n;
    if (dir.locator) projects.set(dir.locator, (projects.get(dir.locator) ?? 0) + n);
  }
  const exists = store.hasIndex();
  const rows = exists ? store.index().count() : 0;
  const lastRebuild = exists ? (store.index().meta("last_rebuild") ?? null) : null;
  const llm = memoryConfig(store).llm;
  return {
    version,
    data_dir: store.layout.root,
    wiki_file_counts: Object.fromEntries(BUILTIN_TYPES.map((t) => [t, byType[t] ?? 0])),
    index_total: rows,
    schema_version: exists ? (store.index().meta("schema_version") ?? null) : null,
    last_index_rebuild: lastRebuild,
    llm_provider: llm.provider,
    dir: store.layout.root,
    pages: total,
    by_type: byType,
    by_scope: byScope,
    projects: [...projects].map(([locator, pages]) => ({ locator, pages })),
    transcripts: countFiles(store.layout.transcripts),
    index: {
      path: store.layout.db,
      exists,
      rows,
      size_bytes: exists ? statSync(store.layout.db).size : 0,
      last_rebuild: lastRebuild,
    },
  };
}

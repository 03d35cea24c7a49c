// Backup to one tar.gz; restore only after every member is checked, moving current data aside, never deleting it.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import { writeFileAtomic } from "../../io/files.ts";
import { isoSeconds } from "../format/time.ts";
import { logOp } from "../pages/oplog.ts";
import { rebuildIndex } from "../pages/rebuild.ts";
import type { Store } from "../pages/store.ts";
import { readTarGz, type TarEntry, tarGz } from "./tar.ts";

export interface BackupReport {
  readonly archive_path: string;
  readonly size_bytes: number;
  readonly file_counts: Readonly<Record<string, number>>;
  readonly duration_ms: number;
}

/** What a backup holds and a restore accepts, relative to the store root. */
const TOP = new Set(["docs", "transcripts"]);
const FILES = new Set(["memnox-index.db", "mem.db", "memex.toml"]);
const MAX_TOTAL = 2 * 1024 * 1024 * 1024;

function walk(root: string, dir: string, out: TarEntry[]): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, e.name);
    if (e.isSymbolicLink())
      throw new MemnoxError("refused", `\`${relative(root, path)}\` is a symlink`, "memory refuses symlinked paths");
    if (e.isDirectory()) walk(root, path, out);
    else if (e.isFile() && !/\.tmp-\d+-\d+$/.test(e.name))
      out.push({
        path: relative(root, path).split(sep).join("/"),
        data: readFileSync(path),
        mode: statSync(path).mode & 0o777,
      });
  }
}

function counts(paths: readonly string[]): Record<string, number> {
  const c: Record<string, number> = { pages: 0, transcripts: 0, other: 0 };
  for (const p of paths) {
    if (p.startsWith("docs/") && p.endsWith(".md") && !/\/(index|log)\.md$/.test(p)) c.pages = (c.pages ?? 0) + 1;
    else if (p.startsWith("transcripts/")) c.transcripts = (c.transcripts ?? 0) + 1;
    else c.other = (c.other ?? 0) + 1;
  }
  return c;
}

export function backup(store: Store, output: string): BackupReport {
  const started = performance.now();
  const root = store.layout.root;
  const entries: TarEntry[] = [];
  walk(root, store.layout.docs, entries);
  walk(root, store.layout.transcripts, entries);
  if (existsSync(store.layout.memexToml))
    entries.push({ path: "memex.toml", data: readFileSync(store.layout.memexToml) });
  if (store.hasIndex()) {
    // A consistent snapshot of a live WAL database, never a torn copy of its files.
    const snap = `${output}.snapshot-${process.pid}.db`;
    rmSync(snap, { force: true });
    store.index().db.exec(`VACUUM INTO '${snap.replaceAll("'", "''")}'`);
    entries.push({ path: "memnox-index.db", data: readFileSync(snap), mode: 0o600 });
    rmSync(snap, { force: true });
  }
  const bytes = tarGz(entries, store.now());
  writeFileAtomic(output, bytes, 0o600);
  logOp(store, { op: "backup", count: entries.length });
  return {
    archive_path: output,
    size_bytes: bytes.length,
    file_counts: counts(entries.map((e) => e.path)),
    duration_ms: Math.round(performance.now() - started),
  };
}

/** A member path that stays inside the store and names something a backup may hold. */
export function memberProblem(path: string, kind: string): string | undefined {
  if (kind !== "file" && kind !== "dir") return `\`${path}\` is a ${kind}, not a file`;
  const clean = path.replace(/\/$/, "");
  if (!clean || clean.startsWith("/") || clean.includes("\\") || clean.includes("\0"))
    return `\`${path}\` is not a relative path`;
  const parts = clean.split("/");
  if (parts.some((p) => p === ".." || p === "." || p === "")) return `\`${path}\` leaves the store`;
  const top = parts[0] ?? "";
  if (parts.length === 1 && kind === "file" ? !FILES.has(top) : !TOP.has(top))
    return `\`${path}\` is not part of a memory backup`;
  return undefined;
}

export interface RestoreReport {
  readonly restored: boolean;
  readonly file_counts: Readonly<Record<string, number>>;
  readonly index_rebuilt: boolean;
  readonly warnings: readonly string[];
  readonly previous_backup_dir: string | null;
}

export function restore(store: Store, input: string): RestoreReport {
  if (!existsSync(input)) throw new MemnoxError("not_found", `no backup at \`${input}\``);
  let members: ReturnType<typeof readTarGz>;
  try {
    members = readTarGz(readFileSync(input));
  } catch (e) {
    throw new MemnoxError("refused", `\`${input}\` is not a memory backup: ${(e as Error).message}`);
  }
  const seen = new Set<string>();
  let total = 0;
  for (const m of members) {
    const problem = memberProblem(m.path, m.kind);
    if (problem) throw new MemnoxError("refused", `backup refused, nothing was changed: ${problem}`);
    if (seen.has(m.path))
      throw new MemnoxError("refused", `backup refused, nothing was changed: \`${m.path}\` appears twice`);
    seen.add(m.path);
    total += m.data.length;
  }
  if (total > MAX_TOTAL) throw new MemnoxError("refused", "backup refused: it unpacks to more than 2 GiB");
  const files = members.filter((m) => m.kind === "file");
  if (!files.some((m) => m.path.startsWith("docs/")))
    throw new MemnoxError("refused", "backup refused, nothing was changed: it holds no pages");

  const root = store.layout.root;
  const stamp = isoSeconds(store.now()).replace(/[-:]/g, "");
  let aside: string | null = join(root, `pre-restore-${stamp}`);
  for (let n = 2; existsSync(aside); n++) aside = join(root, `pre-restore-${stamp}-${n}`);
  store.close();
  const current = [
    "docs",
    "transcripts",
    "memex.toml",
    "mem.db",
    "memnox-index.db",
    "memnox-index.db-wal",
    "memnox-index.db-shm",
  ];
  const moving = current.filter((name) => existsSync(join(root, name)));
  if (moving.length > 0) {
    mkdirSync(aside, { recursive: true, mode: 0o700 });
    for (const name of moving) renameSync(join(root, name), join(aside, name));
  } else aside = null;
  for (const m of files) {
    const target = join(root, ...m.path.split("/"));
    mkdirSync(dirname(target), { recursive: true });
    writeFileAtomic(target, m.data, m.path.startsWith("transcripts/") ? 0o600 : 0o644);
  }
  const warnings: string[] = [];
  let rebuilt = false;
  try {
    // A full rebuild from the restored pages; the snapshot only lends its access counts.
    let r: ReturnType<typeof rebuildIndex>;
    try {
      r = rebuildIndex(store, { force: true });
    } catch {
      store.close();
      rmSync(store.layout.db, { force: true });
      r = rebuildIndex(store, { force: true });
    }
    rebuilt = true;
    if (r.nodes_errored > 0)
      warnings.push(`${r.nodes_errored} restored pages did not parse; memnox memory verify names them`);
  } catch (e) {
    warnings.push(`the index was not rebuilt: ${(e as Error).message}`);
  }
  logOp(store, { op: "restore", count: files.length });
  return {
    restored: true,
    file_counts: counts(files.map((f) => f.path)),
    index_rebuilt: rebuilt,
    warnings,
    previous_backup_dir: aside,
  };
}

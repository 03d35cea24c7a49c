// Backup to one tar.gz; restore only after every member is checked, moving current data aside, never deleting it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import { writeFileAtomic } from "../../io/files.ts";
import { sha256Hex } from "../../io/hash.ts";
import { isoSeconds } from "../format/time.ts";
import { logOp } from "../pages/oplog.ts";
import { rebuildIndex } from "../pages/rebuild.ts";
import type { Store } from "../pages/store.ts";
import { readTarGz, type TarEntry, type TarMember, tarGz } from "./tar.ts";

interface BackupReport {
  readonly archive_path: string;
  readonly size_bytes: number;
  readonly file_counts: Readonly<Record<string, number>>;
  readonly duration_ms: number;
}

/** memex's archive version: its restore accepts ours and ours accepts its. */
const ARCHIVE_VERSION = "1.0";
const MANIFEST = "manifest.json";

/** What a backup holds and a restore accepts, relative to the store root. */
const TOP = new Set(["docs", "transcripts"]);
const FILES = new Set(["memnox-index.db", "mem.db", "memex.toml", MANIFEST]);
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

/** Pages, transcripts and index snapshots by kind; `wiki` and `mem_db` are memex's names for the same counts. */
function counts(paths: readonly string[]): Record<string, number> {
  const c = { pages: 0, transcripts: 0, index: 0, other: 0 };
  for (const p of paths) {
    if (p === MANIFEST) continue;
    if (p.startsWith("docs/") && p.endsWith(".md") && !/(^|\/)(index|log)\.md$/.test(p)) c.pages++;
    else if (p.startsWith("transcripts/")) c.transcripts++;
    else if (p === "memnox-index.db") c.index++;
    else c.other++;
  }
  return { ...c, wiki: c.pages, mem_db: c.index };
}

interface ManifestFile {
  readonly path: string;
  readonly size: number;
  readonly sha256: string;
}

interface Manifest {
  readonly version: string;
  readonly format: string;
  readonly backed_up_at: string;
  readonly memnox_version?: string;
  readonly file_counts: Readonly<Record<string, number>>;
  readonly files: readonly ManifestFile[];
}

function manifestOf(entries: readonly TarEntry[], at: string, version: string | undefined): Manifest {
  return {
    version: ARCHIVE_VERSION,
    format: "memnox-memory-backup",
    backed_up_at: at,
    ...(version ? { memnox_version: version } : {}),
    file_counts: counts(entries.map((e) => e.path)),
    files: entries.map((e) => ({ path: e.path, size: e.data.length, sha256: sha256Hex(e.data) })),
  };
}

interface BackupOptions {
  /** Leave the index snapshot out (memex's --no-mem-db): a restore rebuilds it from the pages anyway. */
  readonly index?: boolean;
  readonly version?: string;
}

/** The folder an archive goes in, made as memex makes it; a path that cannot be one is a plain refusal, not a crash. */
function outputFolder(output: string): void {
  try {
    mkdirSync(dirname(output), { recursive: true });
    if (existsSync(output) && statSync(output).isDirectory()) throw Object.assign(new Error(), { code: "EISDIR" });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "an error";
    const why =
      code === "ENOTDIR" || code === "EEXIST"
        ? "a part of its path is a file, not a folder"
        : code === "EISDIR"
          ? "it is a folder"
          : code === "EACCES"
            ? "its folder cannot be written"
            : code;
    throw new MemnoxError(
      "io",
      `backup failed: cannot write \`${output}\`: ${why}`,
      "give --output a file in a folder you can write",
    );
  }
}

export function backup(store: Store, output: string, opts: BackupOptions = {}): BackupReport {
  const started = performance.now();
  outputFolder(output);
  const root = store.layout.root;
  const entries: TarEntry[] = [];
  walk(root, store.layout.docs, entries);
  walk(root, store.layout.transcripts, entries);
  if (existsSync(store.layout.memexToml))
    entries.push({ path: "memex.toml", data: readFileSync(store.layout.memexToml) });
  if (opts.index !== false && store.hasIndex()) {
    // A consistent snapshot of a live WAL database, never a torn copy of its files; made in a private temp folder.
    const tmp = mkdtempSync(join(tmpdir(), "memnox-backup-"));
    try {
      const snap = join(tmp, "index.db");
      store.index().db.exec(`VACUUM INTO '${snap.replaceAll("'", "''")}'`);
      entries.push({ path: "memnox-index.db", data: readFileSync(snap), mode: 0o600 });
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const manifest = manifestOf(entries, isoSeconds(store.now()), opts.version);
  const withManifest = [
    ...entries,
    { path: MANIFEST, data: new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`) },
  ];
  const bytes = tarGz(withManifest, store.now());
  try {
    writeFileAtomic(output, bytes, 0o600);
  } catch (e) {
    throw new MemnoxError("io", `backup failed: cannot write \`${output}\`: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  logOp(store, { op: "backup", count: entries.length });
  return {
    archive_path: output,
    size_bytes: bytes.length,
    file_counts: manifest.file_counts,
    duration_ms: Math.round(performance.now() - started),
  };
}

/** A member path that stays inside the store and names something a backup may hold. */
function memberProblem(path: string, kind: string): string | undefined {
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

interface RestoreReport {
  readonly restored: boolean;
  readonly file_counts: Readonly<Record<string, number>>;
  readonly index_rebuilt: boolean;
  readonly warnings: readonly string[];
  readonly previous_backup_dir: string | null;
}

interface ArchiveCheck {
  readonly check: string;
  readonly ok: boolean;
  readonly detail: string;
}

interface ArchiveReport {
  readonly ok: boolean;
  readonly archive: string;
  readonly version: string | null;
  readonly backed_up_at: string | null;
  readonly file_counts: Readonly<Record<string, number>>;
  readonly checks: readonly ArchiveCheck[];
}

interface Checked {
  readonly members: TarMember[];
  readonly manifest: Manifest | undefined;
  readonly checks: ArchiveCheck[];
}

function readManifest(members: readonly TarMember[]): Manifest | undefined {
  const m = members.find((x) => x.path === MANIFEST && x.kind === "file");
  if (!m) return undefined;
  try {
    const doc = JSON.parse(new TextDecoder().decode(m.data)) as Partial<Manifest> | null;
    return doc && typeof doc === "object" ? ({ files: [], file_counts: {}, ...doc } as Manifest) : undefined;
  } catch {
    return undefined;
  }
}

/** Every check a restore makes, without touching the store: members, the manifest, and each file against it. */
function checkArchive(input: string): Checked {
  if (!existsSync(input)) throw new MemnoxError("not_found", `archive not found: ${input}`);
  let members: TarMember[];
  try {
    members = readTarGz(readFileSync(input));
  } catch (e) {
    throw new MemnoxError("refused", `\`${input}\` is not a memory backup: ${(e as Error).message}`);
  }
  const checks: ArchiveCheck[] = [];
  const seen = new Set<string>();
  let total = 0;
  const bad: string[] = [];
  for (const m of members) {
    const problem = memberProblem(m.path, m.kind) ?? (seen.has(m.path) ? `\`${m.path}\` appears twice` : undefined);
    if (problem) bad.push(problem);
    seen.add(m.path);
    total += m.data.length;
  }
  if (total > MAX_TOTAL) bad.push("it unpacks to more than 2 GiB");
  checks.push({ check: "members-safe", ok: bad.length === 0, detail: bad[0] ?? `${members.length} members` });
  const manifest = readManifest(members);
  const versionOk = manifest?.version === ARCHIVE_VERSION;
  checks.push({
    check: "manifest",
    ok: versionOk,
    detail: !manifest
      ? "no manifest.json: not an archive memory backup wrote"
      : versionOk
        ? `version ${manifest.version}, backed up ${manifest.backed_up_at ?? "at an unknown time"}`
        : `unsupported archive version \`${String(manifest.version)}\``,
  });
  const files = members.filter((m) => m.kind === "file" && m.path !== MANIFEST);
  const listed = manifest?.files ?? [];
  if (listed.length > 0) {
    const byPath = new Map(files.map((f) => [f.path, f]));
    const wrong = listed.filter((f) => {
      const m = byPath.get(f.path);
      return !m || m.data.length !== f.size || sha256Hex(m.data) !== f.sha256;
    });
    const unlisted = files.filter((f) => !listed.some((l) => l.path === f.path));
    checks.push({
      check: "files-match-manifest",
      ok: wrong.length === 0 && unlisted.length === 0,
      detail:
        wrong.length > 0
          ? `\`${wrong[0]?.path}\` is missing or differs from the manifest`
          : unlisted.length > 0
            ? `\`${unlisted[0]?.path}\` is not in the manifest`
            : `${listed.length} files match`,
    });
  }
  const pages = files.some((m) => m.path.startsWith("docs/"));
  checks.push({ check: "holds-pages", ok: pages, detail: pages ? "pages present" : "it holds no pages" });
  return { members, manifest, checks };
}

/** `memnox memory verify <archive>`: what restore would check, reported without restoring. */
export function verifyArchive(input: string): ArchiveReport {
  const { members, manifest, checks } = checkArchive(input);
  return {
    ok: checks.every((c) => c.ok),
    archive: input,
    version: manifest?.version ?? null,
    backed_up_at: manifest?.backed_up_at ?? null,
    file_counts: counts(members.filter((m) => m.kind === "file").map((m) => m.path)),
    checks,
  };
}

export function restore(store: Store, input: string): RestoreReport {
  const { members, checks } = checkArchive(input);
  const failed = checks.find((c) => !c.ok);
  if (failed?.check === "members-safe")
    throw new MemnoxError("refused", `backup refused, nothing was changed: ${failed.detail}`);
  if (failed?.check === "manifest")
    throw new MemnoxError(
      "refused",
      `archive failed verification (missing manifest or bad version), nothing was changed: ${failed.detail}`,
      "memnox memory verify <archive> reports every check",
    );
  if (failed) throw new MemnoxError("refused", `backup refused, nothing was changed: ${failed.detail}`);
  const files = members.filter((m) => m.kind === "file" && m.path !== MANIFEST);

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
  // memex's words for where the old data went, or that there was none.
  const warnings: string[] = [aside ? `previous data moved to ${aside}` : "no previous data found to preserve"];
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

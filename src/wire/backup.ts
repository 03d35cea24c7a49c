// Backups of every config memnox rewrites, taken before its first change, and the two honest ways back:
// byte for byte while the file is still exactly what memnox wrote, else removing only memnox's own entries.
import { readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import { readJsonIfExists, withLock, writeFileAtomic, writeJsonAtomic } from "../io/files.ts";
import { type ConfigBytes, putConfigFile, readConfigFile, replaceConfigFile, sha256 } from "./files.ts";

interface BackupEntry {
  /** The path as the client names it. */
  readonly path: string;
  /** The file memnox writes (the symlink's target); the manifest's key. */
  readonly target: string;
  /** The copy of the original, or null when memnox created the file. */
  readonly copy: string | null;
  readonly original: string | null;
  /** What memnox last wrote, or null before its first change completed. */
  readonly written: string | null;
  /** Someone else changed the file between memnox's writes: only removal can undo it now. */
  readonly diverged: boolean;
  /** Which parts of memnox have entries in the file, each with a note it wants back (e.g. the client). */
  readonly owners: Readonly<Record<string, string>>;
  readonly at: string;
}

interface Manifest {
  readonly version: 1;
  readonly files: Readonly<Record<string, BackupEntry>>;
}

export type Transform = (text: string | undefined) => string | undefined;

interface RewriteRequest {
  readonly backupDir: string;
  readonly path: string;
  readonly owner: string;
  readonly note: string;
  readonly nowMs: number;
  /** The new text from the current one (undefined: the file does not exist); undefined means no change. */
  readonly transform: Transform;
}

interface RewriteResult {
  readonly changed: boolean;
  readonly backup: string | null;
}

const ATTEMPTS = 3;

function manifestFile(backupDir: string): string {
  return join(backupDir, "manifest.json");
}

export function readBackups(backupDir: string): BackupEntry[] {
  return Object.values(readManifest(backupDir).files);
}

/** Rewrites `path` with `transform`, backing it up first; retried when something else writes it meanwhile. */
export function rewriteWithBackup(req: RewriteRequest): RewriteResult {
  for (let attempt = 1; ; attempt++) {
    try {
      return withLock(manifestFile(req.backupDir), () => rewriteOnce(req));
    } catch (e) {
      if (!(e instanceof MemnoxError && e.code === "conflict" && attempt < ATTEMPTS)) throw e;
    }
  }
}

function rewriteOnce(req: RewriteRequest): RewriteResult {
  const current = readConfigFile(req.path);
  if (current && current.text === undefined) throw notText(req.path);
  const next = req.transform(current?.text);
  if (next === undefined || next === current?.text) {
    return { changed: false, backup: readManifest(req.backupDir).files[current?.target ?? req.path]?.copy ?? null };
  }
  const entry = recordBefore(req, current);
  if (current) replaceConfigFile(current, next);
  else putConfigFile(req.path, new TextEncoder().encode(next), 0o600);
  saveEntry(req.backupDir, { ...entry, written: sha256(next) });
  return { changed: true, backup: entry.copy };
}

/** The manifest entry, written before the config is touched so an interruption leaves a known undo. */
function recordBefore(req: RewriteRequest, current: ConfigBytes | undefined): BackupEntry {
  const target = current?.target ?? req.path;
  const old = readManifest(req.backupDir).files[target];
  const owners = { ...old?.owners, [req.owner]: req.note };
  if (old && old.written !== null) {
    const diverged = old.diverged || old.written !== (current?.hash ?? null);
    const entry = { ...old, path: req.path, owners, diverged };
    saveEntry(req.backupDir, entry);
    return entry;
  }
  // Nothing memnox wrote is in the file yet, so what is there now is the original.
  const copy = current ? join(req.backupDir, `${basename(target)}.${sha256(target).slice(7, 19)}.orig`) : null;
  if (current && copy) writeFileAtomic(copy, current.bytes, 0o600);
  const entry: BackupEntry = {
    path: req.path,
    target,
    copy,
    original: current?.hash ?? null,
    written: null,
    diverged: false,
    owners,
    at: new Date(req.nowMs).toISOString(),
  };
  saveEntry(req.backupDir, entry);
  return entry;
}

type RestoreOutcome = "restored" | "removed" | "unchanged" | "missing";

interface RestoreResult {
  readonly path: string;
  readonly outcome: RestoreOutcome;
  /** The copy from before memnox, when one is kept. */
  readonly backup: string | null;
  /** On "removed" of a file nobody else touched: the other parts of memnox still in it, whose going restores the bytes. */
  readonly sharedWith?: readonly string[];
}

/** The current text without some parts' entries (undefined: nothing of theirs is there); `original` is the backup. */
export type Strip = (text: string, original: string | undefined) => string | undefined;

interface RestoreRequest {
  readonly backupDir: string;
  readonly path: string;
  /** The parts of memnox whose entries go; byte-for-byte only when no other part has entries in the file. */
  readonly owners: readonly string[];
  readonly strip: Strip;
  /** Whether going back to the original bytes is a way out at all (not when the original held the entry too). */
  readonly bytesOk?: (original: string | undefined) => boolean;
}

/** Takes memnox's entries back out of one file and says which of the two ways it did. */
export function restoreFromBackup(req: RestoreRequest): RestoreResult {
  for (let attempt = 1; ; attempt++) {
    try {
      return withLock(manifestFile(req.backupDir), () => restoreOnce(req));
    } catch (e) {
      if (!(e instanceof MemnoxError && e.code === "conflict" && attempt < ATTEMPTS)) throw e;
    }
  }
}

function restoreOnce(req: RestoreRequest): RestoreResult {
  const current = readConfigFile(req.path);
  const entry = findEntry(req.backupDir, req.path, current);
  if (!current) {
    if (entry) release(req.backupDir, entry, req.owners);
    return { path: req.path, outcome: "missing", backup: entry?.copy ?? null };
  }
  const sole = entry && Object.keys(entry.owners).every((o) => req.owners.includes(o));
  if (entry && sole && isPristine(entry, current) && (req.bytesOk?.(originalText(entry)) ?? true)) {
    return restoreBytes(req, entry, current);
  }
  if (current.text === undefined) throw notText(req.path);
  const next = req.strip(current.text, originalText(entry));
  if (next === undefined || next === current.text) {
    if (entry) release(req.backupDir, entry, req.owners);
    return { path: req.path, outcome: "unchanged", backup: entry?.copy ?? null };
  }
  replaceConfigFile(current, next);
  if (!entry) return { path: req.path, outcome: "removed", backup: null };
  const stillOurs = isPristine(entry, current);
  release(req.backupDir, { ...entry, written: sha256(next), diverged: !stillOurs }, req.owners);
  const others = Object.keys(entry.owners).filter((o) => !req.owners.includes(o));
  return {
    path: req.path,
    outcome: "removed",
    backup: entry.copy,
    ...(stillOurs && others.length > 0 ? { sharedWith: others } : {}),
  };
}

function originalText(entry: BackupEntry | undefined): string | undefined {
  if (!entry?.copy) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(readFileSync(entry.copy));
  } catch {
    return undefined;
  }
}

function isPristine(entry: BackupEntry, current: ConfigBytes): boolean {
  return !entry.diverged && entry.written === current.hash;
}

function restoreBytes(req: RestoreRequest, entry: BackupEntry, current: ConfigBytes): RestoreResult {
  if (entry.copy === null) {
    rmSync(current.target, { force: true });
  } else {
    const original = new Uint8Array(readFileSync(entry.copy));
    if (sha256(original) !== entry.original) {
      throw new MemnoxError("io", `the backup \`${entry.copy}\` no longer matches what it copied`, "restore by hand");
    }
    replaceConfigFile(current, original);
    rmSync(entry.copy, { force: true });
  }
  dropEntry(req.backupDir, entry.target);
  return { path: req.path, outcome: "restored", backup: null };
}

/** Takes `owners` off the entry; with nobody left the entry goes (its copy stays on disk as a record). */
function release(backupDir: string, entry: BackupEntry, owners: readonly string[]): void {
  const left = Object.fromEntries(Object.entries(entry.owners).filter(([o]) => !owners.includes(o)));
  if (Object.keys(left).length === 0) dropEntry(backupDir, entry.target);
  else saveEntry(backupDir, { ...entry, owners: left });
}

function findEntry(backupDir: string, path: string, current: ConfigBytes | undefined): BackupEntry | undefined {
  const files = readManifest(backupDir).files;
  return files[current?.target ?? path] ?? Object.values(files).find((e) => e.path === path);
}

function readManifest(backupDir: string): Manifest {
  const raw = readJsonIfExists(manifestFile(backupDir));
  if (raw === undefined) return { version: 1, files: {} };
  if (typeof raw !== "object" || raw === null || (raw as { version?: unknown }).version !== 1) {
    throw new MemnoxError(
      "config_invalid",
      `\`${manifestFile(backupDir)}\` is not a memnox backup manifest`,
      "move it aside; the copies beside it are the originals",
    );
  }
  const files = (raw as { files?: unknown }).files;
  return { version: 1, files: typeof files === "object" && files !== null ? (files as Manifest["files"]) : {} };
}

function saveEntry(backupDir: string, entry: BackupEntry): void {
  const m = readManifest(backupDir);
  writeJsonAtomic(manifestFile(backupDir), { version: 1, files: { ...m.files, [entry.target]: entry } });
}

function dropEntry(backupDir: string, target: string): void {
  const m = readManifest(backupDir);
  const files = Object.fromEntries(Object.entries(m.files).filter(([t]) => t !== target));
  writeJsonAtomic(manifestFile(backupDir), { version: 1, files });
}

function notText(path: string): MemnoxError {
  return new MemnoxError("config_invalid", `\`${path}\` is not UTF-8 text, so memnox leaves it alone`);
}

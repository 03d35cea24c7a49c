// Reading and rewriting config files memnox does not own: through symlinks to their target, keeping mode and
// owner, atomically (temporary name in the target's directory, then rename), and never over a file that moved.

import { chmodSync, chownSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import { sha256Hex } from "../io/hash.ts";
import { realOr } from "../io/real.ts";

export interface ConfigBytes {
  /** The path as the client names it. */
  readonly path: string;
  /** The file actually read and written: the symlink's target. */
  readonly target: string;
  readonly bytes: Uint8Array;
  /** The text, or undefined when the bytes are not UTF-8 (such a file is never rewritten). */
  readonly text: string | undefined;
  readonly hash: string;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

export function sha256(data: string | Uint8Array): string {
  return `sha256:${sha256Hex(data)}`;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The file and what it links to, or undefined when it (or its link's target) does not exist. */
export function readConfigFile(path: string): ConfigBytes | undefined {
  let target: string;
  try {
    target = realpathSync(path);
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw ioError("read", path, e);
  }
  try {
    const st = statSync(target);
    if (!st.isFile()) return undefined;
    const bytes = new Uint8Array(readFileSync(target));
    let text: string | undefined;
    try {
      text = UTF8.decode(bytes);
    } catch {
      text = undefined;
    }
    return { path, target, bytes, text, hash: sha256(bytes), mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw ioError("read", path, e);
  }
}

let counter = 0;

/**
 * Replaces `file.target` with `data` unless it changed since `file` was read (then a `conflict`, so the caller
 * can read again); the new file keeps the old one's mode and, where allowed, its owner.
 */
export function replaceConfigFile(file: ConfigBytes, data: string | Uint8Array): void {
  counter += 1;
  const tmp = join(dirname(file.target), `.${basename(file.target)}.memnox-${process.pid}-${counter}.tmp`);
  try {
    writeFileSync(tmp, data, { mode: 0o600, flag: "wx" });
    chmodSync(tmp, file.mode);
    keepOwner(tmp, file);
    const now = readFileSync(file.target);
    if (sha256(now) !== file.hash) {
      throw new MemnoxError("conflict", `\`${file.path}\` changed while memnox was editing it`, "run it again");
    }
    renameSync(tmp, file.target);
  } catch (e) {
    rmSync(tmp, { force: true });
    if (e instanceof MemnoxError) throw e;
    throw ioError("write", file.path, e);
  }
}

/** Creates or replaces a file at `path` (through a symlink) with `data`, for undoing a rewrite byte for byte. */
export function putConfigFile(path: string, data: Uint8Array, mode: number): void {
  // A missing file is written at its own path.
  const target = realOr(path);
  counter += 1;
  const tmp = join(dirname(target), `.${basename(target)}.memnox-${process.pid}-${counter}.tmp`);
  try {
    writeFileSync(tmp, data, { mode: 0o600, flag: "wx" });
    chmodSync(tmp, mode);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw ioError("write", path, e);
  }
}

function keepOwner(tmp: string, file: ConfigBytes): void {
  const st = statSync(tmp);
  if (st.uid === file.uid && st.gid === file.gid) return;
  try {
    chownSync(tmp, file.uid, file.gid);
  } catch {
    // Only root may give a file away; anyone else writes their own files, which already match.
  }
}

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function ioError(verb: string, path: string, e: unknown): MemnoxError {
  return new MemnoxError("io", `could not ${verb} \`${path}\`: ${(e as Error).message}`);
}

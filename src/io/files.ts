// Files memnox owns: written to a temporary name and renamed, so a reader never sees half a file.
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { MemnoxError } from "../core/errors.ts";

let counter = 0;

export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  counter += 1;
  const tmp = `${path}.tmp-${process.pid}-${counter}`;
  try {
    writeFileSync(tmp, data, { mode });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new MemnoxError("io", `could not write \`${path}\`: ${(e as Error).message}`);
  }
}

/** Larger than any file memnox reads on a decision path: a bigger one is refused rather than read. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

/**
 * The bytes of a regular file, opened without blocking: a FIFO, a device or a directory in its place is an error at
 * once, never a read that waits (a hook must answer before the agent's timeout). ENOENT is thrown as the OS gives it.
 */
export function readRegularFile(path: string, maxBytes = MAX_READ_BYTES): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new MemnoxError("io", `\`${path}\` is not a regular file`, "memnox reads only regular files there");
    if (st.size > maxBytes) throw new MemnoxError("io", `\`${path}\` is larger than ${maxBytes} bytes`);
    const buf = Buffer.alloc(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === buf.length ? buf : buf.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/** The file's text, or undefined when it does not exist; anything but a regular file is an error naming it. */
export function readTextIfExists(path: string): string | undefined {
  try {
    return readRegularFile(path).toString("utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    if (e instanceof MemnoxError) throw e;
    throw new MemnoxError("io", `could not read \`${path}\`: ${(e as Error).message}`);
  }
}

/** Parsed JSON, or undefined when absent; a file that is not JSON is an error naming it. */
export function readJsonIfExists(path: string): unknown {
  const text = readTextIfExists(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new MemnoxError("io", `\`${path}\` is not valid JSON: ${(e as Error).message}`, "move it aside and retry");
  }
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

const STALE_LOCK_MS = 10_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Run `fn` holding an exclusive lock file beside `path`; a lock older than 10 s is taken as abandoned. */
export function withLock<T>(path: string, fn: () => T, timeoutMs = 5_000): T {
  const lock = `${path}.lock`;
  mkdirSync(dirname(lock), { recursive: true, mode: 0o700 });
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      if (lockAge(lock) > STALE_LOCK_MS) rmSync(lock, { force: true });
      else if (performance.now() - started > timeoutMs) {
        throw new MemnoxError(
          "conflict",
          `\`${path}\` is locked by another memnox process`,
          `remove \`${lock}\` if none runs`,
        );
      } else sleepSync(Math.min(2 + attempt, 25));
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * `withLock` for work that awaits: the lock file `lock` itself, abandoned after `staleMs`, given up after `timeoutMs`
 * (with the conflict `busy` names), polled without blocking the event loop.
 */
export async function withLockAsync<T>(
  lock: string,
  o: { readonly staleMs: number; readonly timeoutMs: number; readonly busy: string },
  fn: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  for (;;) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      if (lockAge(lock) > o.staleMs) rmSync(lock, { force: true });
      else if (performance.now() - started > o.timeoutMs) throw new MemnoxError("conflict", o.busy);
      else await Bun.sleep(25);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

function lockAge(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0;
  }
}

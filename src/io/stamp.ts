// A file read once and kept until it changes on disk: checked by one stat per use, so a freeze written a
// moment ago is seen by the very next read, exactly as reading the file itself would see it.
import { statSync } from "node:fs";

/** Inode, size and both times: memnox writes by rename, so every write is a new inode as well. */
export function stamp(path: string): string {
  try {
    // An absent file is the common case (no stop, no freeze): answered without the cost of an exception.
    const s = statSync(path, { bigint: true, throwIfNoEntry: false });
    return s ? `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : "absent";
  } catch (e) {
    return `error:${(e as Error).message}`;
  }
}

type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/** `read` again only when the file's stamp moved; a read that threw throws again until the file changes. */
export function cachedFile<T>(path: string, read: () => T): () => T {
  return cachedFiles([path], read);
}

/** As cachedFile, for a value read from several files (config.toml and the seal beside it). */
export function cachedFiles<T>(paths: readonly string[], read: () => T): () => T {
  let seen: string | undefined;
  let kept: Outcome<T> | undefined;
  return () => {
    const now = paths.map(stamp).join("|");
    if (now !== seen || !kept) {
      try {
        kept = { ok: true, value: read() };
      } catch (error) {
        kept = { ok: false, error };
      }
      seen = now;
    }
    if (!kept.ok) throw kept.error;
    return kept.value;
  };
}

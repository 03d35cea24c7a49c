// What a session printed, kept only under `memnox run --transcript`: its tail for trace, its age for purge.
import { closeSync, openSync, readdirSync, readSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Paths } from "../ports/paths.ts";

const SAFE_SESSION = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const TAIL_BYTES = 4096;

export function transcriptPath(paths: Pick<Paths, "transcripts">, session: string): string | undefined {
  return SAFE_SESSION.test(session) ? join(paths.transcripts, `${session}.log`) : undefined;
}

/** The last `lines` lines (within the last 4 KiB) of the session's transcript, or undefined when none was kept. */
export function transcriptTail(paths: Pick<Paths, "transcripts">, session: string, lines = 20): string[] | undefined {
  const file = transcriptPath(paths, session);
  if (!file) return undefined;
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const size = statSync(file).size;
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    const text = buf.toString("utf8").replace(/\r/g, "");
    const all = text.split("\n");
    if (size > length) all.shift();
    if (all.at(-1) === "") all.pop();
    return all.slice(-lines);
  } finally {
    closeSync(fd);
  }
}

interface ExpiredTranscript {
  readonly file: string;
  readonly modifiedAt: string;
}

/** Transcripts last written before `cutoffMs`: bound by the same retention as the ledger. */
export function expiredTranscripts(paths: Pick<Paths, "transcripts">, cutoffMs: number): ExpiredTranscript[] {
  let names: string[];
  try {
    names = readdirSync(paths.transcripts);
  } catch {
    return [];
  }
  const out: ExpiredTranscript[] = [];
  for (const name of names.filter((n) => n.endsWith(".log")).sort()) {
    const file = join(paths.transcripts, name);
    const st = statSync(file, { throwIfNoEntry: false });
    if (st?.isFile() && st.mtimeMs < cutoffMs) out.push({ file, modifiedAt: new Date(st.mtimeMs).toISOString() });
  }
  return out;
}

export function removeTranscripts(list: readonly ExpiredTranscript[]): void {
  for (const t of list) rmSync(t.file, { force: true });
}

// What a session tool says lands in a model's context: every answer is masked, each line clipped, the whole capped.
import { maskSecrets } from "../../core/secrets.ts";

export const MAX_LINE_CHARS = 240;
export const MAX_LINES = 60;
export const MAX_ANSWER_CHARS = 6_000;

/** What a tool hands back: text for the model, and whether it is a refusal or failure. */
export interface ToolAnswer {
  readonly text: string;
  readonly isError?: boolean;
}

/** Anything shaped like a credential, replaced, and any value the caller knows to be one. */
export function maskCredentials(text: string, known?: readonly string[]): string {
  return maskSecrets(text, known ? { known } : {});
}

function clipLine(line: string): string {
  return line.length <= MAX_LINE_CHARS ? line : `${line.slice(0, MAX_LINE_CHARS - 1)}…`;
}

interface ClipOptions {
  /** Which end survives when there are too many lines: the head (a list) or the tail (a replay, newest last). */
  readonly keep?: "head" | "tail";
  /** Lines kept at the top whatever is cut (a header). */
  readonly pinned?: number;
  /** Credentials found in what the tool was handed (a command line), masked wherever the answer repeats them. */
  readonly known?: readonly string[];
}

/** Lines as one answer: masked, each line clipped, at most MAX_LINES lines and MAX_ANSWER_CHARS characters. */
export function clipped(lines: readonly string[], opts: ClipOptions = {}): string {
  const masked = lines.map((l) => clipLine(maskCredentials(l, opts.known)));
  const pinned = masked.slice(0, opts.pinned ?? 0);
  const body = masked.slice(pinned.length);
  const lineRoom = MAX_LINES - pinned.length;
  const charRoom = MAX_ANSWER_CHARS - size(pinned);
  if (body.length <= lineRoom && size(body) <= charRoom) return [...pinned, ...body].join("\n");
  const tail = opts.keep === "tail";
  const kept: string[] = [];
  let used = NOTE_ROOM;
  for (const line of tail ? [...body].reverse() : body) {
    if (kept.length >= lineRoom - 1 || used + line.length + 1 > charRoom) break;
    kept.push(line);
    used += line.length + 1;
  }
  const cut = body.length - kept.length;
  const shown = tail
    ? [`… ${cut} earlier line(s) not shown`, ...kept.reverse()]
    : [...kept, `… ${cut} more line(s) not shown`];
  return [...pinned, ...shown].join("\n").slice(0, MAX_ANSWER_CHARS);
}

const NOTE_ROOM = 40;

function size(lines: readonly string[]): number {
  return lines.reduce((n, l) => n + l.length + 1, 0);
}

export function said(lines: readonly string[], opts?: ClipOptions): ToolAnswer {
  return { text: clipped(lines, opts) };
}

export function refused(lines: readonly string[]): ToolAnswer {
  return { text: clipped(lines), isError: true };
}

// What a session tool says lands in a model's context: every answer is masked, each line clipped, the whole capped.
import { scrub } from "../../memory/format/scrub.ts";
import { redact } from "../../resolve/shell/render.ts";

export const MAX_LINE_CHARS = 240;
export const MAX_LINES = 60;
export const MAX_ANSWER_CHARS = 6_000;

/** What a tool hands back: text for the model, and whether it is a refusal or failure. */
export interface ToolAnswer {
  readonly text: string;
  readonly isError?: boolean;
}

// `"password": "…"` and `token: …`, which the command-line redactions (written for `KEY=value`) do not cover.
const KEYED_SECRET =
  /((?:^|[\s{,"'])[A-Za-z_-]*(?:passw(?:or)?d|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)["']?\s*:\s*["']?)[^\s"',}]{4,}/gi;

/** Anything shaped like a credential, replaced. */
export function maskCredentials(text: string): string {
  return scrub(redact(text).replace(KEYED_SECRET, "$1***")).text;
}

function clipLine(line: string): string {
  return line.length <= MAX_LINE_CHARS ? line : `${line.slice(0, MAX_LINE_CHARS - 1)}…`;
}

export interface ClipOptions {
  /** Which end survives when there are too many lines: the head (a list) or the tail (a replay, newest last). */
  readonly keep?: "head" | "tail";
  /** Lines kept at the top whatever is cut (a header). */
  readonly pinned?: number;
}

/** Lines as one answer: masked, each line clipped, at most MAX_LINES lines and MAX_ANSWER_CHARS characters. */
export function clipped(lines: readonly string[], opts: ClipOptions = {}): string {
  const masked = lines.map((l) => clipLine(maskCredentials(l)));
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

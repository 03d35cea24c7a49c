// A sed script read as commands: `e` (and the `e` flag of `s`) runs a shell command, `w FILE` writes a file.
import type { Call } from "../call.ts";
import { emitRead, emitWrite, paths } from "./fs-emit.ts";

interface SedEffects {
  exec: boolean;
  writes: string[];
  reads: string[];
}

/** Skips an address (`12`, `$`, `/re/`, `\cREc`, `first~step`, ranges and `!`); returns the command's index. */
function skipAddress(s: string, i: number): number {
  for (;;) {
    const c = s[i] ?? "";
    if (/[\s0-9$,!~+]/.test(c) && c !== "\n") i++;
    else if (c === "/" || c === "\\") {
      const d = c === "\\" ? (s[i + 1] ?? "") : "/";
      i = closing(s, i + (c === "\\" ? 2 : 1), d) + 1;
      while (s[i] === "I" || s[i] === "M") i++;
    } else return i;
  }
}

/** Index of the next unescaped `d` from `i` (or the end). */
function closing(s: string, i: number, d: string): number {
  while (i < s.length && s[i] !== d) i += s[i] === "\\" ? 2 : 1;
  return i;
}

function toLineEnd(s: string, i: number): [string, number] {
  const nl = s.indexOf("\n", i);
  const end = nl < 0 ? s.length : nl;
  return [s.slice(i, end).trim(), end];
}

/** One linear pass over the script; unusual syntax errs towards finding more, never less. */
function scanSed(s: string): SedEffects {
  const out: SedEffects = { exec: false, writes: [], reads: [] };
  let i = 0;
  while (i < s.length) {
    i = skipAddress(s, i);
    const c = s[i] ?? "";
    if (c === "s" || c === "y") {
      const d = s[i + 1] ?? "/";
      i = closing(s, closing(s, i + 2, d) + 1, d) + 1;
      const flags = /^[a-zA-Z0-9]*/.exec(s.slice(i))?.[0] ?? "";
      i += flags.length;
      if (c === "s" && flags.includes("e")) out.exec = true;
      if (c === "s" && flags.includes("w")) {
        const [file, end] = toLineEnd(s, i);
        out.writes.push(file);
        i = end;
      }
    } else if (c === "e") {
      out.exec = true;
      i = toLineEnd(s, i)[1];
    } else if (c === "w" || c === "W" || c === "r" || c === "R") {
      const [file, end] = toLineEnd(s, i + 1);
      (c === "w" || c === "W" ? out.writes : out.reads).push(file);
      i = end;
    } else if (c === "a" || c === "i" || c === "c") {
      i = toLineEnd(s, i)[1];
    } else i++;
  }
  return out;
}

export function sedEffects(call: Call, script: string | undefined): void {
  if (script === undefined) return;
  const e = scanSed(script);
  if (e.exec) {
    call.emit({ name: "sed.eval", class: "unknown", targets: [] });
    call.unknown("sed running a command");
  }
  const file = (text: string) => ({ text, static: true, glob: false });
  emitWrite(call, paths(call, e.writes.filter((w) => w !== "/dev/stdout").map(file)));
  emitRead(call, paths(call, e.reads.map(file)));
}

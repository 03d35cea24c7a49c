// The process's own stdin/stdout/stderr.
import type { Stdio } from "../ports/index.ts";

export function processStdio(): Stdio {
  return {
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    out: (text) => {
      process.stdout.write(text);
    },
    err: (text) => {
      process.stderr.write(text);
    },
    readAll: () => Bun.stdin.text(),
  };
}

/** An in-memory Stdio for tests and for faces that capture another face's output. */
export function bufferStdio(input = "", tty = false): Stdio & { stdout(): string; stderr(): string } {
  let out = "";
  let err = "";
  return {
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    readAll: async () => input,
    stdout: () => out,
    stderr: () => err,
  };
}

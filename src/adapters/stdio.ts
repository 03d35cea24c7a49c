// The process's own stdin/stdout/stderr, without Node's stream machinery (3 ms of a hook's start-up).
import { writeSync } from "node:fs";
import type { Stdio } from "../ports/index.ts";

type IsTTY = (fd: number) => boolean;

/** Bun's own tty binding: loading node:tty costs a hook 5-10 ms, because it pulls in Node's streams. */
function ttyCheck(): IsTTY {
  try {
    const binding = (process as unknown as { binding(name: string): { isTTY?: unknown } }).binding("tty_wrap");
    if (typeof binding.isTTY === "function") return binding.isTTY as IsTTY;
  } catch {
    // An older or newer runtime without the binding: the Node module answers the same question.
  }
  return (require("node:tty") as { isatty: IsTTY }).isatty;
}

/** Whole writes to a descriptor; a full pipe (EAGAIN) is waited out, never truncated. */
function writeAll(fd: number, text: string): void {
  let buf = Buffer.from(text);
  while (buf.length > 0) {
    try {
      buf = buf.subarray(writeSync(fd, buf));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

export function processStdio(): Stdio {
  const isatty = ttyCheck();
  return {
    stdinIsTTY: isatty(0),
    stdoutIsTTY: isatty(1),
    stderrIsTTY: isatty(2),
    out: (text) => writeAll(1, text),
    err: (text) => writeAll(2, text),
    readAll: () => Bun.stdin.text(),
    // Asked only by the CLI's human output, so the hot path never loads the stream behind it.
    columns: () => (isatty(1) ? process.stdout.columns || undefined : undefined),
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

// Asking the person at this terminal: `[a] allow once  [s] allow for this session  [e] edit it  [d] deny`.
import { closeSync, openSync, readSync, writeSync } from "node:fs";

export type TerminalReply =
  | { readonly kind: "once" }
  | { readonly kind: "session" }
  | { readonly kind: "edit"; readonly text: string }
  | { readonly kind: "deny" };

export interface Terminal {
  ask(lines: readonly string[], current: string): TerminalReply;
}

/** The controlling terminal, or undefined when there is none (nobody to ask). */
export function openTerminal(): Terminal | undefined {
  let fd: number;
  try {
    fd = openSync("/dev/tty", "r+");
  } catch {
    return undefined;
  }
  return {
    ask(lines, current) {
      try {
        write(fd, `${lines.join("\n")}\n[a] allow once  [s] allow for this session  [e] edit it  [d] deny > `);
        for (;;) {
          const choice = readLine(fd).trim().toLowerCase();
          if (choice === "a") return { kind: "once" };
          if (choice === "s") return { kind: "session" };
          if (choice === "d" || choice === "") return { kind: "deny" };
          if (choice === "e") {
            write(fd, `edit (the edited command goes back through the rules):\n${current}\n> `);
            const text = readLine(fd).trim();
            return text ? { kind: "edit", text } : { kind: "deny" };
          }
          write(fd, "a, s, e or d > ");
        }
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** A yes/no question at the controlling terminal (no by default); undefined when there is no terminal. */
export function confirm(question: string): boolean | undefined {
  let fd: number;
  try {
    fd = openSync("/dev/tty", "r+");
  } catch {
    return undefined;
  }
  try {
    write(fd, `${question} [y/N] `);
    return /^(y|yes)$/i.test(readLine(fd).trim());
  } finally {
    closeSync(fd);
  }
}

function write(fd: number, text: string): void {
  writeSync(fd, text);
}

function readLine(fd: number): string {
  const buf = Buffer.alloc(1);
  let line = "";
  for (;;) {
    const n = readSync(fd, buf, 0, 1, null);
    if (n <= 0) return line;
    const ch = buf.toString("utf8", 0, 1);
    if (ch === "\n") return line;
    line += ch;
  }
}

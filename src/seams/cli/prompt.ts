// One question at the terminal, read as a line: Ctrl-C is a cancel and end of input is no answer, never a yes.
// Read from stdin with the terminal's own line editing, so nothing is drawn that a pipe or a screen reader trips on.

export type Reply =
  | { readonly kind: "line"; readonly text: string }
  /** Ctrl-C (SIGINT) while waiting. */
  | { readonly kind: "cancel" }
  /** Ctrl-D or a closed stdin: nobody answered. */
  | { readonly kind: "eof" };

export interface Asker {
  /** Writes `question` and waits for one line. */
  ask(question: string): Promise<Reply>;
}

/** The exit codes a cancelled or unanswered question ends a command with (a shell's own for SIGINT). */
export const CANCEL_EXIT = 130;
export const NO_ANSWER_EXIT = 1;

/** stdin read as lines until one ends, with SIGINT turned into a cancel while waiting. */
export function terminalAsker(write: (text: string) => void): Asker {
  return {
    async ask(question) {
      write(question);
      const reader = Bun.stdin.stream().getReader();
      let onSigint: (() => void) | undefined;
      const cancelled = new Promise<Reply>((resolve) => {
        onSigint = () => resolve({ kind: "cancel" });
        process.once("SIGINT", onSigint);
      });
      try {
        const reply = await Promise.race([readLine(reader), cancelled]);
        if (reply.kind !== "line") write("\n");
        return reply;
      } finally {
        if (onSigint) process.removeListener("SIGINT", onSigint);
        await reader.cancel().catch(() => undefined);
      }
    },
  };
}

async function readLine(reader: {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
}): Promise<Reply> {
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text === "" ? { kind: "eof" } : { kind: "line", text };
    text += decoder.decode(value, { stream: true });
    const nl = text.indexOf("\n");
    if (nl !== -1) return { kind: "line", text: text.slice(0, nl).replace(/\r$/, "") };
  }
}

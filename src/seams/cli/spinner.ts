// A one-line spinner on stderr while something slow runs, only where stderr is a terminal: a blank screen for seconds
// reads as a hang. Redrawn in place; stop() clears the line, so what is printed after starts clean.
import type { Stdio } from "../../ports/index.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 80;

interface Spinner {
  /** What is happening now (redrawn on the next frame). */
  say(text: string): void;
  stop(): void;
}

const SILENT: Spinner = { say: () => undefined, stop: () => undefined };

/** A spinner on `io.err`, or one that says nothing when stderr is not a terminal. */
export function spinner(io: Pick<Stdio, "err" | "stderrIsTTY">, width: number): Spinner {
  if (!io.stderrIsTTY) return SILENT;
  let text = "";
  let frame = 0;
  const draw = () => {
    const line = `${FRAMES[frame++ % FRAMES.length]} ${text}`;
    io.err(`\r\x1b[2K${line.length > width - 1 ? `${line.slice(0, width - 2)}…` : line}`);
  };
  const timer = setInterval(draw, FRAME_MS);
  return {
    say(t) {
      text = t;
      draw();
    },
    stop() {
      clearInterval(timer);
      io.err("\r\x1b[2K");
    },
  };
}

// Where every rewind sends its `memnox.rewind` row, done or refused: the ledger, which fails open (a row that cannot
// be written is reported and counted, and never stops the rewind).
import { createRecorder } from "../ledger/recorder.ts";
import type { Context } from "../ports/context.ts";
import type { Recorder } from "./types.ts";

export function rewindRecorder(ctx: Pick<Context, "paths" | "io">): Recorder {
  return (event) => {
    using recorder = createRecorder(ctx.paths, (t) => ctx.io.err(t));
    recorder.record(event);
  };
}

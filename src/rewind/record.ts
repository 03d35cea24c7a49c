// Where `memnox rewind` sends its `memnox.rewind` rows: the ledger, through the never-throwing recorder.
import { createRecorder } from "../ledger/recorder.ts";
import type { Context } from "../ports/context.ts";
import type { Recorder } from "./types.ts";

export function rewindRecorder(ctx: Context): Recorder {
  return (event) => {
    using recorder = createRecorder(ctx.paths, (t) => ctx.io.err(t));
    recorder.record(event);
  };
}

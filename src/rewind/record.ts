// Where `memnox rewind` sends its `memnox.rewind` rows. The ledger lands on another branch: until the lead points this
// at its append, the recorder writes nothing (the rows are built and handed over, and dropped here).
import type { Context } from "../ports/context.ts";
import type { Recorder } from "./types.ts";

export function rewindRecorder(_ctx: Context): Recorder {
  return () => {};
}

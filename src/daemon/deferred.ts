// Decision rows written right after their answer leaves, in the same turn: off the answer's path, yet before the
// daemon reads anything else or touches the ledger again, so every decision still has exactly one row, in order.
// The WAL checkpoint (an fsync, milliseconds) is moved off the path too: run once the socket has gone quiet.
import type { EventInput } from "../core/event.ts";
import type { Recorder } from "../ledger/index.ts";
import { newEventId } from "../ledger/normalize.ts";

export interface DeferringRecorder extends Recorder {
  /** Takes a row and names its id now; settle() writes it, or whatever next uses the ledger does first. */
  later(input: EventInput): string;
  /** Writes every row later() took, in the order it took them. */
  settle(): void;
  /** Rows taken and not yet written. */
  readonly waiting: number;
}

interface CheckpointPolicy {
  /** Rows written since the last checkpoint before a quiet-time one is due. */
  readonly afterRows: number;
  /** How long nothing must be written before it runs. */
  readonly quietMs: number;
  /** Rows after which it runs right after the row that reached it, quiet or not, so the WAL stays bounded. */
  readonly atMostRows: number;
}

/** About SQLite's own 1000-page default at seven pages a row, and a bound four times that under constant load. */
export const CHECKPOINT: CheckpointPolicy = { afterRows: 128, quietMs: 20, atMostRows: 512 };

/** `recorder` must be opened with `walAutoCheckpoint: 0` for its commits to leave checkpoints to this. */
export function deferringRecorder(recorder: Recorder, policy: CheckpointPolicy = CHECKPOINT): DeferringRecorder {
  let waiting: EventInput[] = [];
  let scheduled = false;
  let sinceCheckpoint = 0;
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const checkpoint = () => {
    if (quiet) clearTimeout(quiet);
    quiet = undefined;
    sinceCheckpoint = 0;
    recorder.checkpoint();
  };
  const wrote = () => {
    sinceCheckpoint += 1;
    if (sinceCheckpoint >= policy.atMostRows) return checkpoint();
    if (sinceCheckpoint < policy.afterRows) return;
    if (quiet) clearTimeout(quiet);
    quiet = setTimeout(checkpoint, policy.quietMs);
    quiet.unref();
  };
  const write = (input: EventInput) => {
    const done = recorder.record(input);
    wrote();
    return done;
  };
  const settle = () => {
    scheduled = false;
    const rows = waiting;
    waiting = [];
    // A row that cannot be written is counted by the recorder, as any other: the ledger fails open.
    for (const row of rows) write(row);
  };
  const close = () => {
    settle();
    if (quiet) clearTimeout(quiet);
    quiet = undefined;
    if (sinceCheckpoint > 0) recorder.checkpoint();
    recorder.close();
  };
  return {
    later(input) {
      const id = input.id ?? newEventId();
      waiting.push({ ...input, id });
      // A caller that never settles (the egress proxy) still gets its row written before the next I/O turn.
      if (!scheduled) {
        scheduled = true;
        setImmediate(settle);
      }
      return id;
    },
    settle,
    get waiting() {
      return waiting.length;
    },
    record(input) {
      settle();
      return write(input);
    },
    keepRuleSet(hash, sources) {
      recorder.keepRuleSet(hash, sources);
    },
    find(id) {
      settle();
      return recorder.find(id);
    },
    proceeded(q) {
      // Rows of answers already sent count: a burst of calls is limited by what went before it.
      settle();
      return recorder.proceeded(q);
    },
    read(fn, otherwise) {
      // History includes the rows of answers already sent.
      settle();
      return recorder.read(fn, otherwise);
    },
    checkpoint() {
      settle();
      checkpoint();
    },
    get failures() {
      return recorder.failures;
    },
    close,
    [Symbol.dispose]: close,
  };
}

// Decision rows written right after their answer leaves, in the same turn: off the answer's path, yet before the
// daemon reads anything else or touches the ledger again, so every decision still has exactly one row, in order.
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

export function deferringRecorder(recorder: Recorder): DeferringRecorder {
  let waiting: EventInput[] = [];
  let scheduled = false;
  const settle = () => {
    scheduled = false;
    const rows = waiting;
    waiting = [];
    // A row that cannot be written is counted by the recorder, as any other: the ledger fails open.
    for (const row of rows) recorder.record(row);
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
      return recorder.record(input);
    },
    keepRuleSet(hash, sources) {
      recorder.keepRuleSet(hash, sources);
    },
    find(id) {
      settle();
      return recorder.find(id);
    },
    get failures() {
      return recorder.failures;
    },
    close() {
      settle();
      recorder.close();
    },
    [Symbol.dispose]() {
      settle();
      recorder.close();
    },
  };
}

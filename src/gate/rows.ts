// Where a seam's ledger rows go: through the daemon's one open connection when it answers, else straight into
// the ledger. The writer picks each row's id up front, so a decision links to its outcome whichever way it went.
import type { EventInput } from "../core/event.ts";
import { newEventId } from "../ledger/normalize.ts";
import { createRecorder, type ProceededRows } from "../ledger/recorder.ts";
import type { LedgerRow } from "../ledger/row.ts";
import type { Ledger, RuleSource } from "../ledger/store.ts";
import type { Paths } from "../ports/paths.ts";
import { CALL_TIMEOUT_MS, type DaemonClient } from "./remote/client.ts";

interface RecordOptions {
  /** Take surface, operation, session and agent from the row `event.parent` names (an outcome decided elsewhere). */
  readonly inherit?: boolean;
}

interface RowSink {
  /** Queues one row and returns its id at once; `flush` makes sure it is written. */
  record(event: EventInput, opts?: RecordOptions): string;
  keepRuleSet(hash: string, sources: readonly RuleSource[]): void;
  /** What a rate-limited rule has spent, read from this machine's ledger. */
  proceeded(q: ProceededRows): readonly string[];
  /** A read of this machine's ledger (the notice layer's history); `otherwise` when it cannot be read. */
  read<T>(fn: (ledger: Ledger) => T, otherwise: T): T;
  /** Every queued row written: by the daemon, or here when it did not take one. */
  flush(): Promise<void>;
}

/** What a row says about who and what, from the decision it belongs to. */
export function inheritParent(event: EventInput, parent: LedgerRow | undefined): EventInput {
  if (!parent) return event;
  return {
    ...event,
    surface: parent.surface,
    operation: parent.operation,
    ...(parent.agentSessionId ? { session: parent.agentSessionId } : {}),
    ...(parent.agent ? { agent: parent.agent } : {}),
  };
}

export function rowSink(
  paths: Pick<Paths, "db" | "ledgerUnwritten">,
  err: (text: string) => void,
  daemon: DaemonClient | undefined,
  walled = false,
): RowSink {
  // Inside a kernel wall the ledger is read-only: rows go through the daemon or not at all (the hook outside the
  // wall recorded the line that started this), and nothing is said on every call the agent makes.
  const recorder = createRecorder(paths, walled ? () => {} : err);
  const writeHere = (event: EventInput, opts: RecordOptions) => {
    if (walled) return;
    const parent = opts.inherit && event.parent ? recorder.find(event.parent) : undefined;
    recorder.record(inheritParent(event, parent));
  };
  let queued: Promise<void>[] = [];
  return {
    record(input, opts = {}) {
      const id = input.id ?? newEventId();
      const event = { ...input, id };
      if (!daemon?.reachable) {
        writeHere(event, opts);
        return id;
      }
      const sent = daemon.call(
        { method: "record", event, ...(opts.inherit ? { inherit: true } : {}) },
        { timeoutMs: CALL_TIMEOUT_MS },
      );
      queued.push(sent.then((reply) => (reply?.eventId === id ? undefined : writeHere(event, opts))));
      return id;
    },
    keepRuleSet: (hash, sources) => {
      if (!walled) recorder.keepRuleSet(hash, sources);
    },
    proceeded: (q) => recorder.proceeded(q),
    read: (fn, otherwise) => recorder.read(fn, otherwise),
    async flush() {
      while (queued.length > 0) {
        const now = queued;
        queued = [];
        await Promise.all(now);
      }
    },
  };
}

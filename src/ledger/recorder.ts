// The one place memnox fails open: a row that cannot be written is reported on stderr and counted, never thrown.
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { describeError } from "../core/errors.ts";
import type { EventInput } from "../core/event.ts";
import { rateLimitKey } from "../core/verdict.ts";
import type { Paths } from "../ports/paths.ts";
import { rowById } from "./read/rows.ts";
import type { LedgerRow } from "./row.ts";
import { type Appended, type Ledger, type OpenOptions, openLedger, type RuleSource } from "./store.ts";

interface FailureSink {
  /** Where the person sees it: the face's stderr. */
  err(text: string): void;
  /** Where it is counted across processes: `paths.ledgerUnwritten`. */
  readonly unwrittenPath: string;
}

/** Appends, or reports and counts the failure and returns undefined. */
export function tryAppend(ledger: Ledger | (() => Ledger), input: EventInput, sink: FailureSink): Appended | undefined {
  try {
    return (typeof ledger === "function" ? ledger() : ledger).append(input);
  } catch (e) {
    noteUnwritten(input, e, sink);
    return undefined;
  }
}

function noteUnwritten(input: EventInput, e: unknown, sink: FailureSink): void {
  const why = describeError(e);
  sink.err(
    `memnox: could not record \`${input.operation}\` in the ledger (${why}); the action was not stopped for it\n`,
  );
  const line = {
    occurredAt: input.occurredAt,
    kind: input.kind,
    surface: input.surface,
    operation: input.operation,
    ...(input.session ? { agentSessionId: input.session } : {}),
    ...(input.agent ? { agent: input.agent } : {}),
    ...(input.effect ? { effect: input.effect } : {}),
    error: why,
  };
  try {
    mkdirSync(dirname(sink.unwrittenPath), { recursive: true, mode: 0o700 });
    // O_APPEND of one short line: concurrent writers never interleave inside a line.
    appendFileSync(sink.unwrittenPath, `${JSON.stringify(line)}\n`, { mode: 0o600 });
  } catch {
    sink.err("memnox: the failure could not be counted either\n");
  }
}

/** How many rows could not be written, ever, on this machine. */
export function unwrittenCount(paths: Pick<Paths, "ledgerUnwritten">): number {
  try {
    return readFileSync(paths.ledgerUnwritten, "utf8").split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** Which rate-limited rule and agent, since when, how many at most. */
export interface ProceededRows {
  readonly rule: { readonly name: string; readonly file: string };
  readonly agent: string | undefined;
  readonly sinceIso: string;
  readonly limit: number;
}

export interface Recorder extends Disposable {
  /** What GateDeps.record needs: the new row, or undefined when it could not be written. */
  record(input: EventInput): Appended | undefined;
  /** Keeps a rule set for replay; a failure is reported, never thrown. */
  keepRuleSet(hash: string, sources: readonly RuleSource[]): void;
  /** One row by id (an outcome written by another process names its decision this way); never throws. */
  find(id: string): LedgerRow | undefined;
  /** Copies the WAL back into the database now (passive: waits for nobody); a failure is reported, never thrown. */
  checkpoint(): void;
  /** Instants of `rule`'s decisions for `agent` that proceeded since `sinceIso`, newest first; [] if unreadable. */
  proceeded(q: ProceededRows): readonly string[];
  /** A read of the open ledger (the notice layer's index); `otherwise` when it cannot be read. Never throws. */
  read<T>(fn: (ledger: Ledger) => T, otherwise: T): T;
  /** Rows this process could not write. */
  readonly failures: number;
  close(): void;
}

/** A never-throwing writer on `paths.db`, opened on first use and kept open. */
export function createRecorder(
  paths: Pick<Paths, "db" | "ledgerUnwritten">,
  err: (text: string) => void,
  opts: OpenOptions = {},
): Recorder {
  let ledger: Ledger | undefined;
  let failures = 0;
  const sink: FailureSink = { err, unwrittenPath: paths.ledgerUnwritten };
  const open = () => {
    ledger ??= openLedger(paths, opts);
    return ledger;
  };
  const close = () => {
    ledger?.close();
    ledger = undefined;
  };
  return {
    record(input) {
      const done = tryAppend(open, input, sink);
      if (!done) failures += 1;
      return done;
    },
    keepRuleSet(hash, sources) {
      try {
        open().putRuleSet(hash, sources);
      } catch (e) {
        err(`memnox: could not keep rule set ${hash.slice(0, 12)} in the ledger (${describeError(e)})\n`);
      }
    },
    find(id) {
      try {
        return rowById(open(), id);
      } catch {
        return undefined;
      }
    },
    proceeded(q) {
      try {
        return open()
          .db.query<{ at: string }, [string, string, string, string | null, string, number]>(
            "SELECT occurred_at AS at FROM events WHERE kind = 'decision' AND effect = 'allow' AND ((rule_id = ? AND rule_file = ?) OR instr(json_extract(detail, '$.rateLimited'), ?) > 0) AND agent IS ? AND occurred_at >= ? ORDER BY occurred_at DESC LIMIT ?",
          )
          .all(q.rule.name, q.rule.file, `|${rateLimitKey(q.rule)}|`, q.agent ?? null, q.sinceIso, q.limit)
          .map((r) => r.at);
      } catch (e) {
        err(`memnox: could not count a rate limit in the ledger (${describeError(e)})\n`);
        return [];
      }
    },
    read(fn, otherwise) {
      try {
        return fn(open());
      } catch (e) {
        err(`memnox: could not read the ledger's history (${describeError(e)})\n`);
        return otherwise;
      }
    },
    checkpoint() {
      try {
        ledger?.db.run("PRAGMA wal_checkpoint(PASSIVE)");
      } catch (e) {
        err(`memnox: could not checkpoint the ledger (${describeError(e)})\n`);
      }
    },
    get failures() {
      return failures;
    },
    close,
    [Symbol.dispose]: close,
  };
}

// The daemon's retention sweep: every hour (and once at start) history past `retentionDays` is dropped, as
// `memnox purge` drops it (a signed anchor first, so the chain still verifies), with the transcripts as old.
// It runs through the daemon's one ledger connection, after the rows it owes are written.
import { describeError } from "../core/errors.ts";
import type { Ledger } from "../ledger/index.ts";
import { purge } from "../ledger/purge.ts";
import { machineSigner } from "../ledger/sign.ts";
import { expiredTranscripts, removeTranscripts } from "../ledger/transcripts.ts";
import type { Context } from "../ports/context.ts";
import { readConfig } from "../state/config.ts";
import type { DeferringRecorder } from "./deferred.ts";

const SWEEP_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

interface SweepLog {
  write(kind: string, words: string): void;
}

/** One sweep: what it dropped, in rows and transcripts. Never throws: a sweep that fails is logged and tried again. */
function sweepOnce(ctx: Context, recorder: DeferringRecorder, log: SweepLog): { rows: number; transcripts: number } {
  try {
    const now = ctx.clock.now();
    const { retentionDays } = readConfig(ctx.paths.config);
    const cutoff = new Date(now - retentionDays * DAY_MS).toISOString();
    recorder.settle();
    const rows = recorder.read(
      (ledger: Ledger) =>
        purge(ledger, machineSigner(ctx.paths), cutoff, { now: new Date(now).toISOString(), retentionDays }).rows,
      0,
    );
    const old = expiredTranscripts(ctx.paths, Date.parse(cutoff));
    removeTranscripts(old);
    if (rows > 0 || old.length > 0)
      log.write(
        "retention",
        `dropped ${rows} row(s) and ${old.length} transcript(s) older than ${retentionDays} day(s)`,
      );
    return { rows, transcripts: old.length };
  } catch (e) {
    log.write("retention", `the sweep failed: ${describeError(e)}`);
    return { rows: 0, transcripts: 0 };
  }
}

/** Sweeps at start and every `everyMs`; the returned function stops it. */
export function startRetentionSweep(
  ctx: Context,
  recorder: DeferringRecorder,
  log: SweepLog,
  everyMs = SWEEP_MS,
): () => void {
  sweepOnce(ctx, recorder, log);
  const timer = setInterval(() => sweepOnce(ctx, recorder, log), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

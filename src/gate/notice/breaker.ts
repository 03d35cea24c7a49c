// The circuit breaker: a session failing the same way (the same call, the same exit code or the same refusal) as
// often as the table says within its window is paused. The count is read from the ledger's notice index after the
// failing row is written, so every seam and the daemon count the same rows; the trip is a `paused` fact every seam
// refuses that session on, and a `memnox.paused` row that names the threshold it crossed.
import type { Database } from "bun:sqlite";
import type { EventInput, Surface } from "../../core/event.ts";
import { failureNoticeOf, readFailures } from "../../ledger/notices.ts";
import type { Ledger } from "../../ledger/store.ts";
import { addFact, overlaysInForce, readOverlays } from "../../state/overlays.ts";
import { BREAKER, PAUSE_DAYS, type Threshold } from "./table.ts";

interface Trip {
  readonly session: string;
  readonly agent: string | undefined;
  readonly threshold: Threshold;
  /** What failed, in words: `exit 1 of shell.execute`, `refusal of http.request`. */
  readonly what: string;
  readonly failures: number;
}

/** The trip the failure row `eventId` completes, if it completes one. */
function tripOf(db: Database, eventId: string, nowMs: number): Trip | undefined {
  const row = failureNoticeOf(db, eventId);
  if (!row?.session) return undefined;
  const way = row.key.startsWith("refused ") ? "refused" : "exit";
  const threshold = BREAKER.find((t) => t.way === way);
  if (!threshold) return undefined;
  const since = new Date(nowMs - threshold.windowMinutes * 60_000).toISOString();
  const seen = readFailures(db, row.session, row.key, since, threshold.count);
  if (seen.length < threshold.count) return undefined;
  const words = row.key.split(" ");
  // `refused <operation> <digest> <cwd>` or `exit <code> <operation> <digest> <cwd>`: the digest is never said.
  const what = way === "refused" ? `the refusal of ${words[1]}` : `exit ${words[1]} of ${words[2]}`;
  return { session: row.session, agent: row.agent ?? undefined, threshold, what, failures: seen.length };
}

function tripReason(t: Trip): string {
  const times = `${t.threshold.count} times within ${t.threshold.windowMinutes} minutes`;
  return `the circuit breaker: the same call failed the same way (${t.what}) ${times}, so the session is paused rather than left to loop unwatched`;
}

export const PAUSE_MS = PAUSE_DAYS * 86_400_000;

/** The `memnox.paused` row: the trip with the whole table of thresholds it was measured against. */
function tripRow(t: Trip, surface: Surface, nowMs: number): EventInput {
  return {
    kind: "state",
    occurredAt: new Date(nowMs).toISOString(),
    surface,
    operation: "memnox.paused",
    session: t.session,
    ...(t.agent ? { agent: t.agent } : {}),
    reason: tripReason(t),
    detail: {
      by: "circuit breaker",
      way: t.threshold.way,
      count: t.threshold.count,
      windowMinutes: t.threshold.windowMinutes,
      failures: t.failures,
      thresholds: BREAKER.map((b) => `${b.way} ${b.count} in ${b.windowMinutes}m`).join("; "),
    },
  };
}

interface BreakerIo {
  readonly overlays: string;
  read<T>(fn: (ledger: Ledger) => T, otherwise: T): T;
  record(e: EventInput): unknown;
}

/**
 * After a failure row is written: pause its session if that failure completes a trip (and it is not paused already).
 * Never throws; a pause that cannot be written leaves the session running, as an unreadable history does.
 */
export function tripBreaker(io: BreakerIo, eventId: string, surface: Surface, nowMs: number): Trip | undefined {
  try {
    const t = io.read((l) => tripOf(l.db, eventId, nowMs), undefined);
    if (!t) return undefined;
    const live = overlaysInForce(readOverlays(io.overlays), nowMs);
    if (live.some((f) => f.kind === "paused" && f.subject === t.session)) return undefined;
    const reason = tripReason(t);
    addFact(io.overlays, {
      kind: "paused",
      subject: t.session,
      reason,
      by: "memnox circuit breaker",
      nowMs,
      forMs: PAUSE_MS,
    });
    io.record(tripRow(t, surface, nowMs));
    return t;
  } catch {
    return undefined;
  }
}

// Sessions memnox is holding: wary after an instruction-shaped tool result, or with calls waiting for a person.
import { formatDuration } from "../core/duration.ts";
import { type OverlayFact, overlaysInForce, readOverlays } from "./overlays.ts";
import { effectiveStatus, type Hold, listHolds } from "./pending.ts";

/** The overlay kinds that hold a whole session back, and that `memnox resume` lifts. */
export const SESSION_HOLDS = ["wary", "paused"] as const;

export interface PausedSession {
  /** The session id, or null for calls held with no session known. */
  readonly session: string | null;
  /** Wariness or a pause in force on the session. */
  readonly facts: readonly OverlayFact[];
  /** Calls of this session waiting for `memnox approve`. */
  readonly held: readonly Hold[];
}

export function pausedSessions(paths: { overlays: string; pending: string }, nowMs: number): PausedSession[] {
  const bySession = new Map<string | null, { facts: OverlayFact[]; held: Hold[] }>();
  const slot = (s: string | null) => {
    let v = bySession.get(s);
    if (!v) {
      v = { facts: [], held: [] };
      bySession.set(s, v);
    }
    return v;
  };
  for (const f of overlaysInForce(readOverlays(paths.overlays), nowMs)) {
    if ((SESSION_HOLDS as readonly string[]).includes(f.kind)) slot(f.subject).facts.push(f);
  }
  for (const h of listHolds(paths.pending)) {
    if (effectiveStatus(h, nowMs) === "waiting") slot(h.session ?? null).held.push(h);
  }
  return [...bySession.entries()].map(([session, v]) => ({ session, ...v }));
}

/**
 * One line per reason a session is held, for a person or a model; only a person's own terminal is told the command
 * that answers a held call (an agent never reads how to approve itself).
 */
export function pausedLines(p: PausedSession, nowMs: number, forPerson = false): string[] {
  const left = (iso: string) => formatDuration(Math.max(0, Date.parse(iso) - nowMs));
  return [
    ...p.facts.map(
      (f) => `${f.kind} for ${left(f.expiresAt)} more${f.reason ? `: ${f.reason}` : ""}${f.by ? ` (${f.by})` : ""}`,
    ),
    ...p.held.map(
      (h) =>
        `held ${h.action}${h.target ? ` ${h.target}` : ""} for a person (${left(h.expiresAt)} left): ${h.reason}; ${forPerson ? `memnox approve ${h.id}` : `a person answers hold ${h.id} from their own terminal`}`,
    ),
  ];
}

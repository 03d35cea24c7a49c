// What a replay shows beside the session's ledger rows: held calls still waiting, pauses and who lifted them, and the
// milestones kept for it. Plain data, gathered by the face from `pending/`, `overlays.json` and the repositories.
import { formatDuration } from "../../core/duration.ts";
import { cell, clock } from "./format.ts";

export interface WaitingHold {
  readonly id: string;
  /** When the call was held. */
  readonly at: string;
  readonly action: string;
  readonly target: string | null;
  readonly reason: string;
  readonly waitedMs: number;
  readonly expiresAt: string;
  /** The decision row it holds, when the gate recorded one. */
  readonly decisionEventId: string | null;
  readonly approve: string;
}

export interface PauseRecord {
  readonly id: string;
  /** `wary` or `paused`. */
  readonly kind: string;
  readonly at: string;
  readonly reason: string | null;
  readonly expiresAt: string;
  readonly inForce: boolean;
  readonly liftedAt: string | null;
  readonly liftedBy: string | null;
}

export interface KeptMilestone {
  readonly id: string;
  readonly at: string;
  readonly repo: string;
  readonly kind: string;
  readonly reason: string;
  readonly files: number;
  readonly rewind: string;
}

export interface ReplayAsides {
  readonly waiting: readonly WaitingHold[];
  readonly pauses: readonly PauseRecord[];
  readonly milestones: readonly KeptMilestone[];
}

export const NO_ASIDES: ReplayAsides = { waiting: [], pauses: [], milestones: [] };

interface AsideLine {
  readonly at: string;
  readonly text: string;
}

/** One line per aside, in the shape of an entry line so they read in the same column; oldest first. */
export function asideLines(a: ReplayAsides): AsideLine[] {
  const line = (at: string, kind: string, words: string) => ({ at, text: `${clock(at)}  ${cell(kind, 8)} ${words}` });
  return [
    ...a.waiting.map((h) =>
      line(
        h.at,
        "waiting",
        `${cell(h.action, 24)} ${h.target ? `${h.target} · ` : ""}${formatDuration(h.waitedMs)} for a person: ${h.reason}; ${h.approve}`,
      ),
    ),
    ...a.pauses.map((p) => line(p.at, p.kind, `${p.reason ?? "no reason given"} · ${pauseState(p)}`)),
    ...a.milestones.map((m) =>
      line(m.at, "kept", `${cell(m.id, 24)} ${m.files} file(s) of ${m.repo}: ${m.reason}; ${m.rewind}`),
    ),
  ].sort((x, y) => x.at.localeCompare(y.at));
}

function pauseState(p: PauseRecord): string {
  if (p.liftedAt) return `resumed by ${p.liftedBy ?? "someone"} at ${clock(p.liftedAt)}`;
  if (p.inForce) return `in force until ${clock(p.expiresAt)}; a person lifts it from their own terminal`;
  return `lapsed at ${clock(p.expiresAt)}`;
}

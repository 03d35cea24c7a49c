// The row an outcome is recorded as: one shape whether this process decided the call or another did.
import type { EventInput, Surface } from "../core/event.ts";
import type { Outcome } from "./types.ts";

/** Who and what, from the decision when this process made it; otherwise the ledger takes them from the parent row. */
export interface DecidedHere {
  readonly surface: Surface;
  readonly operation: string;
  readonly session?: string;
  readonly agent?: string;
}

export function outcomeRow(id: string, outcome: Outcome, occurredAt: string, p?: DecidedHere): EventInput {
  return {
    kind: "outcome",
    occurredAt,
    surface: p?.surface ?? "hook",
    operation: p?.operation ?? "outcome",
    parent: id,
    ...(p?.session ? { session: p.session } : {}),
    ...(p?.agent ? { agent: p.agent } : {}),
    ...(outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {}),
    ...(outcome.durationMs !== undefined ? { durationMs: Math.round(outcome.durationMs) } : {}),
    ...(outcome.note ? { detail: { note: outcome.note } } : {}),
  };
}

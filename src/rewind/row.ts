// The `memnox.rewind` ledger row, done or refused, for every surface that rewinds (the CLI and the session tool).
import type { EventInput, Surface } from "../core/event.ts";
import type { Milestone } from "./types.ts";

export interface RowFacts {
  readonly dir: string;
  readonly surface: Surface;
  readonly agent?: string | undefined;
  readonly session?: string | undefined;
  readonly repo?: string;
  readonly target?: string;
}

type RowOutcome =
  | {
      readonly outcome: "done";
      readonly result: {
        readonly target: Milestone;
        readonly undo?: Milestone;
        readonly written: number;
        readonly removed: number;
      };
    }
  | { readonly outcome: "refused"; readonly reason: string };

export function rewindRow(nowMs: number, facts: RowFacts & RowOutcome): EventInput {
  const done = facts.outcome === "done" ? facts.result : undefined;
  const reason =
    facts.outcome === "refused"
      ? facts.reason
      : done?.undo
        ? `working tree back to ${done.target.id}; memnox rewind --to ${done.undo.id} undoes it`
        : `working tree already matched ${done?.target.id ?? "the milestone"}`;
  return {
    kind: "state",
    occurredAt: new Date(nowMs).toISOString(),
    surface: facts.surface,
    operation: "memnox.rewind",
    classes: ["write"],
    ...(facts.session ? { session: facts.session } : {}),
    ...(facts.agent ? { agent: facts.agent } : {}),
    resourceRef: facts.repo ?? facts.dir,
    cwd: facts.dir,
    reason,
    detail: {
      outcome: facts.outcome,
      milestone: facts.target ?? null,
      undo: done?.undo?.id ?? null,
      written: done?.written ?? 0,
      removed: done?.removed ?? 0,
    },
  };
}

// One ledger row as writers hand it over; the ledger adds id, sequence and the hash chain.
import type { ActionClass } from "./action.ts";
import type { Effect, Mode } from "./effect.ts";
import type { StateFact } from "./request.ts";
import type { Alternative, ArgumentMatch } from "./verdict.ts";

export const EVENT_SCHEMA_VERSION = 1;

export const SURFACES = ["hook", "shell", "interceptor", "mcp", "git", "egress", "config", "cli", "run"] as const;
export type Surface = (typeof SURFACES)[number];

/** decision: written before the action runs; outcome: its exit code, linked by parent; answer: a person's reply. */
export const EVENT_KINDS = ["decision", "outcome", "answer", "config", "state", "session", "anchor"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** The full non-secret request the engine saw, so a verdict can be replayed. */
export interface RecordedRequest {
  readonly action: string;
  readonly class: ActionClass;
  readonly targets: readonly string[];
  readonly cwd: string;
  readonly agent?: string;
  readonly role?: string;
  /** The person the agent acted for, its model and provider: recorded only when a rule in force named them. */
  readonly principal?: string;
  readonly model?: string;
  readonly provider?: string;
  /** The size the call stated, recorded only when a rule in force had a ceiling (`aboveAmount`). */
  readonly amount?: number;
  /** The environment the rules were asked about; with several declared, the one whose verdict decided. */
  readonly environment?: string;
  /** Every environment declared, when there were several: each was ruled on and the strictest applied. */
  readonly environments?: readonly string[];
  readonly branch?: string;
  readonly scope: "in_scope" | "out_of_scope" | "undeclared";
  readonly facts: readonly StateFact[];
  readonly argumentMatches: readonly ArgumentMatch[];
  /**
   * Present when the targets were the call's own arguments (a command line, an unknown program's argv): those are
   * left out (`targets` is empty) and this names the rules whose targets matched, so a replay still reproduces.
   */
  readonly targetMatches?: readonly string[];
  /** Rule files in force, by path, so `why` can name where a rule came from. */
  readonly ruleFiles?: readonly string[];
  /** The project boundary the call was checked against, so a replay checks the same one. */
  readonly boundary?: { readonly roots: readonly string[]; readonly exempt: readonly string[] };
}

export interface EventInput {
  /** Chosen by a writer that must link an outcome from another process (`evt_` + 6-60 of [0-9a-z_-]); else generated. */
  readonly id?: string;
  readonly kind: EventKind;
  readonly occurredAt: string;
  readonly surface: Surface;
  readonly operation: string;
  readonly classes?: readonly ActionClass[];
  readonly session?: string;
  readonly agent?: string;
  readonly resourceRef?: string;
  /** Effect applied (what actually happened to the call). */
  readonly effect?: Effect;
  /** What enforce would have applied; differs from effect in observe/advise. */
  readonly enforceEffect?: Effect;
  readonly mode?: Mode;
  readonly governed?: boolean;
  readonly reason?: string;
  readonly ruleId?: string;
  readonly ruleFile?: string;
  readonly ruleLine?: number;
  readonly alternative?: Alternative;
  readonly argsDigest?: string;
  readonly policyHash?: string;
  readonly exitCode?: number;
  readonly durationMs?: number;
  readonly startedAt?: string;
  readonly cwd?: string;
  readonly parent?: string;
  readonly request?: RecordedRequest;
  /** Decided on a workspace bundle the workspace has not confirmed lately (unreachable): the verdict stands, marked. */
  readonly stale?: boolean;
  /** Free-form non-secret detail (config change in words, who answered, etc.). */
  readonly detail?: Readonly<Record<string, string | number | boolean | null>>;
}

// The non-secret facts a rule matches on, handed to the engine; nothing here is read from the environment.
import type { Action, ScopeFit } from "./action.ts";
import type { ArgumentMatch } from "./verdict.ts";

export interface PolicyRequest {
  readonly action: Action;
  /** Real working directory of the call. */
  readonly cwd: string;
  readonly agent?: string;
  readonly role?: string;
  readonly principal?: string;
  readonly model?: string;
  readonly provider?: string;
  readonly environment?: string;
  /** Checked-out branch; a push's own destination (action.branch) takes precedence. */
  readonly branch?: string;
  readonly scope: ScopeFit;
  readonly dataClassifications?: readonly string[];
  readonly jurisdictions?: readonly string[];
  readonly amount?: number;
  /**
   * Replay only: the call's raw arguments were never stored, so a rule's arguments match exactly where the
   * recorded row says they matched.
   */
  readonly recordedArgumentMatches?: readonly ArgumentMatch[];
  /** Replay only: the targets were the call's own arguments and were not stored; these rules' targets matched. */
  readonly recordedTargetMatches?: readonly string[];
}

/** The freeze subject that covers the whole machine (`memnox freeze --for …`, `/memnox freeze` for every machine). */
export const MACHINE_FREEZE = "machine";

/** A state fact such as `freeze:payments`; every fact carries a mandatory expiry. */
export interface StateFact {
  readonly kind: string;
  readonly subject: string;
  /** ISO-8601 instant after which the fact no longer holds. */
  readonly expiresAt: string;
  readonly reason?: string;
  readonly by?: string;
  readonly setAt?: string;
  /** The action patterns the fact is about (a grant's scope, a budget's actions), as a person wrote them. */
  readonly actions?: readonly string[];
  /** The one environment a grant is for; a grant without one is for a call that declares none. */
  readonly environment?: string;
}

export function factKey(f: Pick<StateFact, "kind" | "subject">): string {
  return `${f.kind}:${f.subject}`;
}

/** Facts still in force at `nowMs`. */
export function factsInForce(facts: readonly StateFact[], nowMs: number): StateFact[] {
  return facts.filter((f) => Date.parse(f.expiresAt) > nowMs);
}

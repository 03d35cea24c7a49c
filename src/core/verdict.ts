// What the engine answers: the effect, the deciding rule, and what it permits instead.
import type { Effect } from "./effect.ts";

export interface RuleRef {
  readonly name: string;
  readonly file: string;
  readonly line: number;
}

export interface Alternative {
  readonly action: string;
  readonly resource?: string;
  readonly note: string;
}

/** Which argument pattern of which rule matched; never the argument itself. */
export interface ArgumentMatch {
  readonly rule: string;
  readonly argument: string;
  readonly pattern: string;
}

export interface Verdict {
  /** What the rules decide, before the mode is applied. */
  readonly effect: Effect;
  /** False when no rule matched: the effect is the configured default, not an endorsement. */
  readonly governed: boolean;
  readonly rule?: RuleRef;
  readonly reason: string;
  readonly alternative?: Alternative;
  /** Every rule that matched, deciding rule first. */
  readonly matched: readonly RuleRef[];
  /** The deciding rule carries `mode = "observe"`: recorded, never applied. */
  readonly observeOnly: boolean;
  readonly argumentMatches: readonly ArgumentMatch[];
  /** The state facts (`freeze:payments`) the deciding rule applied because of. */
  readonly states?: readonly string[];
  readonly approvers?: readonly string[];
  readonly minApprovals?: number;
  /** The deciding rule's `rateLimit`: at most `max` of its actions proceed per agent in any `windowSeconds`. */
  readonly rateLimit?: { readonly max: number; readonly windowSeconds: number };
  /**
   * Every enforcing rule that matched with a `rateLimit`, the decider's among them: a broader allow deciding beside a
   * rate-limited rule does not lift its limit.
   */
  readonly rateLimits?: readonly RateLimited[];
  /** A stricter `mode = "observe"` rule that matched beside an enforcing `ask`: recorded, never applied. */
  readonly observed?: ObservedRule;
}

export interface RateLimited {
  readonly rule: RuleRef;
  readonly max: number;
  readonly windowSeconds: number;
}

/** How a row names a rate-limited rule it spends a slot of: `name@file`. */
export function rateLimitKey(rule: Pick<RuleRef, "name" | "file">): string {
  return `${rule.name}@${rule.file}`;
}

interface ObservedRule {
  readonly effect: Effect;
  readonly rule: RuleRef;
  readonly reason: string;
}

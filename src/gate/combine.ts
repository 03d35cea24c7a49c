// One answer from many: every action's verdict plus memnox's own asks, most restrictive wins. Pure.
import type { Action } from "../core/action.ts";
import type { Decision } from "../core/decisions.ts";
import { type Effect, effectRank } from "../core/effect.ts";
import type { StateFact } from "../core/request.ts";
import {
  type Alternative,
  type ArgumentMatch,
  type RateLimited,
  type RuleRef,
  rateLimitKey,
  type Verdict,
} from "../core/verdict.ts";

/** Where a verdict came from: a rule, no rule, or one of memnox's own checks. */
type Source =
  | "rule"
  | "ungoverned"
  | "boundary"
  | "probation"
  | "wary"
  | "untrusted"
  | "decision"
  | "grant"
  | "budget"
  | "lease"
  | "unparsable"
  | "rules-unreadable"
  | "rate-limit"
  | "agent-stopped"
  /** A write to a path that decides whether agents are governed. */
  | "protected"
  /** A memnox command that loosens governance, run from an agent's seat. */
  | "memnox-self"
  /** A target the line leaves open, which could be a path a rule or protection covers. */
  | "could-match"
  /** The notice layer: never done before, a chain in one session, a session paused. */
  | "novel"
  | "chain"
  | "paused"
  /** A call to memnox's own session server, never asked about. */
  | "session-tool"
  /** A freeze in force (`memnox freeze`): outward and destructive actions wait. */
  | "freeze"
  /** The kernel wall around the agent's shell refuses it, whatever the rules ask. */
  | "wall";

export interface Finding {
  readonly action: Action;
  readonly effect: Effect;
  readonly source: Source;
  readonly reason: string;
  readonly verdict?: Verdict;
  /** The declared environment the rules were asked about; memnox's own checks do not depend on one. */
  readonly environment?: string;
  /** What decided when no rule did: a recorded decision's page, named like a rule so rows and `why` show it. */
  readonly ref?: RuleRef;
  /** The recorded decision behind a `decision` finding, kept on the row so a replay reproduces it. */
  readonly decision?: Decision;
  /** The state fact this finding came from (a grant, a budget, a lease), named in the row it decides. */
  readonly fact?: StateFact;
}

export interface Combined {
  /** What enforce applies: observe-only rules excluded. */
  readonly effect: Effect;
  /** The strictest of everything, observe-only rules included: what is recorded as "would have". */
  readonly wouldEffect: Effect;
  readonly deciding: Finding;
  readonly governed: boolean;
  readonly reason: string;
  readonly rule?: RuleRef;
  readonly alternative?: Alternative;
  readonly argumentMatches: readonly ArgumentMatch[];
  readonly approvers: readonly string[];
  readonly minApprovals: number;
  readonly rateLimit?: { readonly max: number; readonly windowSeconds: number };
  /** Every rate-limited rule any applied finding matched, once each: each is counted, whichever rule speaks. */
  readonly rateLimits: readonly RateLimited[];
}

/** A verdict as a finding, with the effect enforce applies (allow when only an observe-mode rule decided). */
export function ruleFinding(action: Action, verdict: Verdict, environment?: string): Finding {
  return {
    action,
    effect: verdict.effect,
    source: verdict.governed ? "rule" : "ungoverned",
    reason: verdict.reason,
    verdict,
    ...(environment !== undefined ? { environment } : {}),
  };
}

function applied(f: Finding): Effect {
  return f.verdict?.observeOnly ? "allow" : f.effect;
}

/** On a tie in effect: a grant that let a rule's ask through speaks first (so its row names it), then a rule. */
const SPEAKS: Partial<Record<Source, number>> = { grant: 2, rule: 1 };

function approvalNeed(f: Finding): number {
  const v = f.verdict;
  return (v?.minApprovals ?? 1) * 2 + (v?.approvers && v.approvers.length > 0 ? 1 : 0);
}

/** Stricter first; on a tie a rule beats memnox's own checks, and a specific action beats `shell.execute`. */
function better(a: Finding, b: Finding, effectOf: (f: Finding) => Effect): boolean {
  const d = effectRank(effectOf(a)) - effectRank(effectOf(b));
  if (d !== 0) return d > 0;
  // Between asks, the strictest approval requirement speaks: its quorum and approvers are what the hold needs.
  const n = approvalNeed(a) - approvalNeed(b);
  if (effectOf(a) === "ask" && n !== 0) return n > 0;
  const ra = SPEAKS[a.source] ?? 0;
  const rb = SPEAKS[b.source] ?? 0;
  if (ra !== rb) return ra > rb;
  return a.action.name !== "shell.execute" && b.action.name === "shell.execute";
}

export function combine(findings: readonly Finding[]): Combined {
  const [first, ...rest] = findings;
  if (!first) throw new Error("combine needs at least one finding");
  let deciding = first;
  let strongest = first;
  for (const f of rest) {
    if (better(f, deciding, applied)) deciding = f;
    if (better(f, strongest, (x) => x.effect)) strongest = f;
  }
  // When enforce lets it through but an observe-mode rule would not have, the record names that rule.
  const shown = applied(deciding) === "allow" && strongest.effect !== "allow" ? strongest : deciding;
  const v = shown.verdict;
  const rule = v?.rule ?? shown.ref;
  return {
    effect: applied(deciding),
    wouldEffect: strongest.effect,
    deciding: shown,
    governed: findings.some((f) => f.source !== "ungoverned"),
    reason: shown.reason,
    ...(rule ? { rule } : {}),
    ...(v?.alternative ? { alternative: v.alternative } : {}),
    argumentMatches: findings.flatMap((f) => f.verdict?.argumentMatches ?? []),
    approvers: v?.approvers ?? [],
    minApprovals: v?.minApprovals ?? 1,
    ...(v?.rateLimit ? { rateLimit: v.rateLimit } : {}),
    rateLimits: limitsOf(findings),
  };
}

function limitsOf(findings: readonly Finding[]): RateLimited[] {
  const seen = new Map<string, RateLimited>();
  for (const f of findings) {
    for (const l of f.verdict?.rateLimits ?? []) seen.set(rateLimitKey(l.rule), l);
  }
  return [...seen.values()];
}

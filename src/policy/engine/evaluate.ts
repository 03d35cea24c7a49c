// evaluate(): every matching rule collected, the most restrictive effect wins, the most specific rule speaks.
import { type Effect, effectRank } from "../../core/effect.ts";
import type { PolicyRequest, StateFact } from "../../core/request.ts";
import type { ArgumentMatch, RateLimited, Verdict } from "../../core/verdict.ts";
import type { CompiledRule, CompiledRuleSet } from "./compile.ts";
import { matchRule, Probe } from "./match.ts";
import { type Instant, PERSON } from "./types.ts";

const NONE: readonly CompiledRule[] = [];
const EMPTY: CompiledRuleSet = { rules: NONE, byAction: new Map(), anyAction: NONE };

/** Stricter first; then enforcing before observe-only; then more fields, longer literal, name, file, line. */
function byPrecedence(a: CompiledRule, b: CompiledRule): number {
  const e = effectRank(b.rule.decision.effect) - effectRank(a.rule.decision.effect);
  if (e !== 0) return e;
  if (a.observe !== b.observe) return a.observe ? 1 : -1;
  if (a.fields !== b.fields) return b.fields - a.fields;
  if (a.literal !== b.literal) return b.literal - a.literal;
  return cmp(a.ref.name, b.ref.name) || cmp(a.ref.file, b.ref.file) || a.ref.line - b.ref.line;
}

// Code-unit order, never locale order: the same rules must pick the same winner on every machine.
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * An enforcing `allow` that names an `ask` rule of its own file in `relaxes` takes that rule out where both match:
 * a person handing over what they always approve. Denies, other files' rules and observe-only allows are untouched.
 */
function relaxed(hits: CompiledRule[]): void {
  const by = hits.filter((c) => c.rule.decision.effect === "allow" && c.rule.decision.relaxes && !c.observe);
  if (by.length === 0) return;
  for (let i = hits.length - 1; i >= 0; i--) {
    const c = hits[i];
    if (c?.rule.decision.effect !== "ask") continue;
    if (by.some((a) => a.ref.file === c.ref.file && (a.rule.decision.relaxes ?? []).includes(c.ref.name))) {
      hits.splice(i, 1);
    }
  }
}

/** How much a rule's ask needs: more approvals first, then named approvers over anybody. */
function approvalNeed(c: CompiledRule): number {
  const d = c.rule.decision;
  return (d.minApprovals ?? 1) * 2 + (d.approvers && d.approvers.length > 0 ? 1 : 0);
}

/**
 * Among enforcing asks, the one with the strictest approval requirement speaks, however generic the others are:
 * a quorum a repository asks for is never released by one yes to a broader ask beside it.
 */
function strictestApproval(hits: readonly CompiledRule[], decider: CompiledRule): CompiledRule {
  if (decider.rule.decision.effect !== "ask" || decider.observe) return decider;
  let best = decider;
  for (const c of hits) {
    if (c.observe || c.rule.decision.effect !== "ask") continue;
    if (approvalNeed(c) > approvalNeed(best)) best = c;
  }
  return best;
}

/** Every enforcing, non-denying rule that matched with a `rateLimit`. */
function rateLimitsOf(hits: readonly CompiledRule[]): { rateLimits?: RateLimited[] } {
  const out: RateLimited[] = [];
  for (const c of hits) {
    const limit = c.rule.decision.rateLimit;
    if (limit && !c.observe && c.rule.decision.effect !== "deny") out.push({ rule: c.ref, ...limit });
  }
  return out.length > 0 ? { rateLimits: out } : {};
}

function reasonOf(c: CompiledRule): string {
  const d = c.rule.decision;
  return d.reason ?? c.rule.description ?? `the rule \`${c.ref.name}\` (${c.ref.file}:${c.ref.line}) says ${d.effect}`;
}

function ungoverned(request: PolicyRequest, defaultEffect: Effect): Verdict {
  return {
    effect: defaultEffect,
    governed: false,
    reason: `no rule matches \`${request.action.name}\`: it is ungoverned, and the default (${defaultEffect}) applies`,
    matched: [],
    observeOnly: false,
    argumentMatches: [],
  };
}

/**
 * The verdict for one action. Pure: the instant, the facts and the rules all arrive as arguments.
 * An observe-only rule never weakens an enforcing one: it decides only where nothing stricter enforces.
 */
export function evaluate(
  set: CompiledRuleSet,
  request: PolicyRequest,
  facts: readonly StateFact[],
  at: Instant,
  defaultEffect: Effect = "allow",
): Verdict {
  const probe = new Probe(request, facts, at);
  const hits: CompiledRule[] = [];
  const argumentMatches: ArgumentMatch[] = [];
  // A person at their own terminal meets only the rules written for them: the agents' rules never reach them.
  const rules = request.agent === PERSON ? (set.person ?? EMPTY) : set;
  for (const list of [rules.byAction.get(request.action.name) ?? NONE, rules.anyAction]) {
    for (const c of list) {
      const args = matchRule(c, probe);
      if (args === undefined) continue;
      hits.push(c);
      argumentMatches.push(...args);
    }
  }
  relaxed(hits);
  hits.sort(byPrecedence);
  const [top] = hits;
  if (!top) return ungoverned(request, defaultEffect);
  const enforcing = hits.find((c) => !c.observe);
  const observed = top.observe && enforcing && enforcing.rule.decision.effect !== "allow" ? top : undefined;
  const decider = strictestApproval(hits, observed && enforcing ? enforcing : top);
  const d = decider.rule.decision;
  const matched = [decider, ...hits.filter((c) => c !== decider)].map((c) => c.ref);
  const stateMatch = decider.state;
  const states = stateMatch ? probe.factKeys.filter((k) => stateMatch(k)) : [];
  return {
    effect: d.effect,
    governed: true,
    rule: decider.ref,
    reason: reasonOf(decider),
    matched,
    observeOnly: decider.observe,
    argumentMatches,
    ...(states.length > 0 ? { states } : {}),
    ...(d.alternative ? { alternative: d.alternative } : {}),
    ...(d.approvers ? { approvers: d.approvers } : {}),
    ...(d.effect === "ask" ? { minApprovals: d.minApprovals ?? 1 } : {}),
    ...(d.rateLimit ? { rateLimit: d.rateLimit } : {}),
    ...rateLimitsOf(hits),
    ...(observed
      ? { observed: { effect: observed.rule.decision.effect, rule: observed.ref, reason: reasonOf(observed) } }
      : {}),
  };
}

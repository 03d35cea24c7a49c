// What a call puts to the state after the rules: its effect in the mode in force, rate limits counted, and what a
// grant, a mark or a code would have to match. The same pure step for the gathering and the judging of one call.
import { type Action, shownTargets } from "../core/action.ts";
import { formatDuration } from "../core/duration.ts";
import type { Effect, Mode } from "../core/effect.ts";
import type { FingerprintParts } from "../state/pending.ts";
import type { Assessment } from "./assess.ts";
import type { Combined } from "./combine.ts";
import type { ClearedKey, Instant } from "./deps.ts";
import type { GateRequest } from "./types.ts";

/** The ledger's count of a rate-limited rule's recent runs, per limit the call matched, as far as it was read. */
export type Spent = readonly (readonly string[])[];

export interface Posed {
  readonly combined: Combined;
  readonly because: string;
  /** The effect in the mode in force, before any grant, mark or code. */
  readonly effect: Effect;
  readonly target: string;
  readonly binding: string | undefined;
  /** The environment that decided: a grant given for production is not spent on staging's question. */
  readonly environment: string | undefined;
  readonly parts: FingerprintParts;
  /** Named approvers or more than one: only `memnox approve` from them answers, never a prompt where the call is. */
  readonly quorum: boolean;
  readonly asksHere: boolean;
}

export function posed(
  req: GateRequest,
  mode: Mode,
  a: Assessment,
  spent: Spent | undefined,
  at: Instant,
  digest: (raw: string) => string,
): Posed {
  const { combined, because } = withRateLimit(a.combined, a.because, a.agent, at, spent);
  const deciding = combined.deciding.action;
  const { target, binding } = grantTarget(deciding, req, digest);
  const environment = a.deciding.environment;
  const quorum = combined.approvers.length > 0 || combined.minApprovals > 1;
  return {
    combined,
    because,
    effect: mode === "enforce" ? combined.effect : "allow",
    target,
    binding,
    environment,
    parts: { agent: a.agent, action: deciding.name, target, ...(binding ? { binding } : {}), environment },
    quorum,
    asksHere: req.canAsk && !quorum,
  };
}

/** The queries a rate limit reads, one per limit in order, until one is spent (`spent` is read that far). */
export function rateQueries(c: Combined, agent: string | undefined, at: Instant) {
  if (c.rateLimits.length === 0 || c.wouldEffect === "deny") return [];
  return c.rateLimits.map((limit) => ({
    rule: limit.rule,
    agent,
    sinceIso: new Date(at.epochMs - limit.windowSeconds * 1000).toISOString(),
    limit: limit.max,
  }));
}

/**
 * Every rate-limited rule the call matched (the deciding one or not), counted from the ledger so a restart changes
 * nothing: once `max` of a rule's actions proceeded for this agent within its window, the next is refused until the
 * oldest of them leaves it. A grant is not spent.
 */
function withRateLimit(
  c: Combined,
  because: string,
  agent: string | undefined,
  at: Instant,
  spent: Spent | undefined,
): { combined: Combined; because: string } {
  if (!spent) return { combined: c, because };
  const queries = rateQueries(c, agent, at);
  for (const [i, limit] of c.rateLimits.entries()) {
    const q = queries[i];
    const oldest = spent[i]?.[limit.max - 1];
    if (!q || oldest === undefined) continue;
    const rule = limit.rule;
    const windowMs = limit.windowSeconds * 1000;
    const opens = new Date(Date.parse(oldest) + windowMs).toISOString();
    const reason = `rule ${rule.name} lets ${limit.max} of these run per ${formatDuration(windowMs)} for ${agent ?? "an agent with no name"}, and ${limit.max} already ran since ${q.sinceIso}; the next can run after ${opens}`;
    const observeOnly = c.deciding.verdict?.observeOnly === true;
    return {
      combined: {
        ...c,
        effect: observeOnly ? c.effect : "deny",
        wouldEffect: "deny",
        reason,
        rule,
        deciding: { ...c.deciding, effect: "deny", source: "rate-limit", reason },
      },
      because: reason,
    };
  }
  return { combined: c, because };
}

/**
 * What a grant binds to: the action's targets, or for a call with none (an MCP tool) its exact arguments. The target
 * is what may be shown; when a credential was masked out of it, `binding` keeps the grant to that exact value by its
 * keyed digest, so approving one token's push does not approve another's.
 */
export function grantTarget(
  action: Action,
  req: GateRequest,
  digest: (raw: string) => string,
): { target: string; binding?: string } {
  if (action.targets.length === 0)
    return { target: req.rawArguments !== undefined ? `args:${digest(req.rawArguments)}` : "" };
  const target = shownTargets(action).join(" ");
  const raw = action.targets.join(" ");
  return raw === target ? { target } : { target, binding: `${target}\0${digest(raw)}` };
}

/** The texts `grantTarget` digests for `action`: what the gathering keys ahead of the judging. */
export function grantDigests(action: Action, req: GateRequest): string[] {
  if (action.targets.length === 0) return req.rawArguments !== undefined ? [req.rawArguments] : [];
  const raw = action.targets.join(" ");
  return raw === shownTargets(action).join(" ") ? [] : [raw];
}

/** What another seam matches a cleared call on: the grant's binding where a credential was masked out of the target. */
export function cleared(p: {
  action: string;
  target?: string | undefined;
  binding?: string | undefined;
  environment?: string | undefined;
}): ClearedKey {
  const target = p.binding ?? p.target ?? "";
  return { action: p.action, target, ...(p.environment !== undefined ? { environment: p.environment } : {}) };
}

// decide(): resolve -> rules -> state -> hold -> record. Every seam calls this and nothing else.
import { type Action, shownTargets } from "../core/action.ts";
import type { Decision } from "../core/decisions.ts";
import { formatDuration } from "../core/duration.ts";
import type { Effect, Mode } from "../core/effect.ts";
import { describeError } from "../core/errors.ts";
import type { EventInput, RecordedRequest } from "../core/event.ts";
import { factKey, type PolicyRequest, type StateFact } from "../core/request.ts";
import { rateLimitKey } from "../core/verdict.ts";
import { assess, writtenPaths } from "./assess.ts";
import type { Boundary } from "./boundary.ts";
import { budgetsSpentBy } from "./budgets.ts";
import type { Combined } from "./combine.ts";
import type { ClearedKey, GateDeps, Instant, RuleSetView, Settings } from "./deps.ts";
import type { Noticed } from "./notice/gather.ts";
import { noticeDetail } from "./notice/record.ts";
import type { GateAnswer, GateRequest } from "./types.ts";

export async function decide(req: GateRequest, given: GateDeps): Promise<GateAnswer> {
  const at = given.now();
  // Decided on a cached workspace bundle nobody confirmed lately: the same verdict, and the row says so.
  const deps = given.stale?.(at.epochMs)
    ? { ...given, record: (e: EventInput) => given.record({ ...e, stale: true }) }
    : given;
  let settings: Settings;
  try {
    const s = deps.settings();
    // A seam with its own mode decides its calls in that mode.
    const own = s.seamModes?.[req.surface];
    settings = own ? { ...s, mode: own } : s;
  } catch (e) {
    // An unreadable config leaves the mode unknown: fail closed as enforce would.
    return refuseUndecided(req, deps, at, { mode: "enforce", failOpen: false }, e);
  }
  if (req.refusal !== undefined) return refusedBySeam(req, deps, at, settings.mode, req.refusal);
  const stop = deps.stop(at.epochMs);
  if (stop) return stopped(req, deps, at, settings.mode, stop.until);
  if (settings.mode === "off") return { ...allowAll(settings.mode, "memnox is off"), actions: [] };
  try {
    return await decideRuled(req, deps, at, settings);
  } catch (e) {
    return refuseUndecided(req, deps, at, settings, e);
  }
}

async function decideRuled(req: GateRequest, deps: GateDeps, at: Instant, settings: Settings): Promise<GateAnswer> {
  const assessed = assess(req, deps, at);
  const { resolution, rules, facts, agent, session, boundary, requests } = assessed;
  const { combined, because } = withRateLimit(assessed.combined, assessed.because, agent, at, deps);
  const mode = settings.mode;
  let effect: Effect = mode === "enforce" ? combined.effect : "allow";
  let reason = because;
  let holdId: string | undefined;
  let grantedBy: string | undefined;
  const deciding = combined.deciding.action;
  const { target, binding } = grantTarget(deciding, req, deps);
  // The environment that decided: a grant given for production is not spent on staging's question.
  const environment = assessed.deciding.environment;
  const parts = { agent, action: deciding.name, target, ...(binding ? { binding } : {}), environment };
  // Until when, and on whose word, what this call does may pass the next seam it meets without asking again.
  let clearing: { until: number; by: string } | undefined;
  // Named approvers or more than one: only `memnox approve` from them answers, never a prompt where the call is.
  const quorum = combined.approvers.length > 0 || combined.minApprovals > 1;
  const asksHere = req.canAsk && !quorum;
  if (effect === "ask" && !req.ran) {
    const grant = deps.claimGrant(parts, session, at.epochMs);
    const mark = grant || !session ? undefined : deps.clearedCall(session, cleared(parts), at.epochMs);
    // Only another seam honours the mark: at its own seam a once-grant stays spent by one use.
    const passed = mark && mark.surface !== req.surface ? mark : undefined;
    const above = grant || passed || !req.handedDown ? undefined : deps.handedDown(req.handedDown, req.cwd, at.epochMs);
    // Only within a session: a call nothing ties to the one refused (a person's own, at their terminal) asks afresh.
    const refused = grant || passed || above || !session ? undefined : deps.refusedBefore?.(parts, session, at.epochMs);
    if (refused) {
      // The person already said no to this very call: the retry hears that answer instead of asking again.
      const no = refused.denials[refused.denials.length - 1];
      effect = "deny";
      reason = `a person (${no?.by ?? "someone"}) said no to this at ${no?.at ?? refused.createdAt} (hold ${refused.id}): ${because}`;
    } else if (grant) {
      effect = "allow";
      grantedBy = grant.grants.map((g) => g.by).join(", ");
      reason = `approved by ${grantedBy} (${grant.id}): ${because}`;
      clearing = { until: Date.parse(grant.expiresAt), by: grant.id };
    } else if (passed) {
      effect = "allow";
      reason = `already let through at the ${passed.surface} for this session (${passed.by}): ${because}`;
    } else if (above?.actions.includes(deciding.name)) {
      effect = "allow";
      reason = `already let through at the ${above.surface} that started this (${above.by}): ${because}`;
    } else if (asksHere) {
      // The person is asked where the call is, and it runs only after their yes: the seams after this one honour it.
      clearing = {
        until: at.epochMs + deps.holdTtlMs,
        by: req.surface === "hook" ? "the agent's own prompt" : "a terminal",
      };
    }
  }
  // A refusal by a rule that a person let through once with its code (`memnox allow-once`): this exact call, once.
  let allowedOnce: string | undefined;
  if (effect === "deny" && !req.ran && combined.deciding.source === "rule") {
    const once = deps.claimAllowOnce?.(parts, session, at.epochMs);
    // The seams after the one that spent the code (the interceptor, git's pre-push hook) let the same call on.
    const mark = once || !session ? undefined : deps.clearedCall(session, cleared(parts), at.epochMs);
    const passed = mark && mark.surface !== req.surface && mark.by.startsWith(ONCE) ? mark : undefined;
    if (once) {
      effect = "allow";
      allowedOnce = once.approvedBy ?? "a person";
      reason = `let through once by ${allowedOnce} from their own terminal (memnox allow-once): ${because}`;
      clearing = { until: at.epochMs + deps.holdTtlMs, by: `${ONCE} by ${allowedOnce}` };
    } else if (passed) {
      effect = "allow";
      reason = `let through once at the ${passed.surface} that started this (${passed.by}): ${because}`;
    }
  }
  if (effect === "ask" && !asksHere && req.walled) {
    // Held answers live in files the wall keeps this seam from: the ask is refused here, with its reason.
    effect = "deny";
    reason = `${because}; inside the kernel wall a call that would ask is refused rather than held, so run it outside the wall if a person wants it`;
  }
  deps.keepRuleSet(rules);
  const writes = writtenPaths(resolution.actions);
  const eventId = deps.record(
    decisionRow(req, deps, at, {
      combined,
      effect,
      mode,
      reason,
      rules,
      facts,
      agent,
      session,
      requests,
      deciding: assessed.deciding,
      declared: deps.caller.environments ?? [],
      boundary,
      noticed: assessed.noticed,
      spends: budgetsSpentBy(facts, resolution.actions),
    }),
  );
  // Inside the kernel wall the marks' files cannot be written: the next seam asks as it would have.
  if (clearing && session && !req.walled && !req.ran) {
    const until = new Date(clearing.until).toISOString();
    deps.clearCalls(
      session,
      resolution.actions
        .filter((a) => a.name !== "shell.execute")
        .map((a) => ({
          ...cleared({ action: a.name, ...grantTarget(a, req, deps), environment }),
          surface: req.surface,
          by: clearing.by,
          until,
          ...(eventId ? { decisionEventId: eventId } : {}),
        })),
      at.epochMs,
    );
  }
  // The first write of a session to a path takes its lease; a later one renews it.
  if (effect === "allow" && writes.length > 0 && session && agent && !req.ran)
    deps.takeLeases?.(writes, { session, agent }, at.epochMs);
  if (effect === "ask" && !asksHere && !req.ran) {
    const hold = deps.createHold({
      ...parts,
      surface: req.surface,
      session,
      reason: because,
      rule: combined.rule,
      approvers: combined.approvers,
      minApprovals: combined.minApprovals,
      decisionEventId: eventId,
      nowMs: at.epochMs,
      ttlMs: deps.holdTtlMs,
    });
    holdId = hold.id;
  }
  const allowOnce =
    effect === "deny" && !req.ran && !req.walled && combined.deciding.source === "rule"
      ? deps.issueAllowOnce?.({
          parts,
          action: deciding.name,
          target,
          session,
          reason: because,
          decisionEventId: eventId,
          nowMs: at.epochMs,
        })
      : undefined;
  return {
    effect,
    enforceEffect: combined.wouldEffect,
    mode,
    reason,
    ...(allowOnce ? { allowOnce } : {}),
    ...(combined.alternative ? { alternative: combined.alternative } : {}),
    ...(combined.rule ? { rule: combined.rule } : {}),
    ...(eventId ? { eventId } : {}),
    ...(holdId ? { holdId } : {}),
    ...(clearing && grantedBy && clearing.by.startsWith("a_") ? { granted: clearing.by } : {}),
    ...(effect === "ask" && quorum
      ? { quorum: { approvers: combined.approvers, minApprovals: combined.minApprovals } }
      : {}),
    actions: resolution.actions,
    decided: {
      action: deciding.name,
      target,
      ...(binding ? { binding } : {}),
      ...(environment !== undefined ? { environment } : {}),
    },
    stopped: false,
  };
}

/** What another seam matches a cleared call on: the grant's binding where a credential was masked out of the target. */
/** How a mark left by a spent allow-once code begins: only such a mark passes a refusal on to the next seam. */
const ONCE = "memnox allow-once";

function cleared(p: { action: string; target: string; binding?: string; environment: string | undefined }): ClearedKey {
  const target = p.binding ?? p.target;
  return { action: p.action, target, ...(p.environment !== undefined ? { environment: p.environment } : {}) };
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
  deps: GateDeps,
): { combined: Combined; because: string } {
  if (c.rateLimits.length === 0 || !deps.proceeded || c.wouldEffect === "deny") return { combined: c, because };
  for (const limit of c.rateLimits) {
    const rule = limit.rule;
    const windowMs = limit.windowSeconds * 1000;
    const sinceIso = new Date(at.epochMs - windowMs).toISOString();
    const spent = deps.proceeded({ rule, agent, sinceIso, limit: limit.max });
    const oldest = spent[limit.max - 1];
    if (oldest === undefined) continue;
    const opens = new Date(Date.parse(oldest) + windowMs).toISOString();
    const reason = `rule ${rule.name} lets ${limit.max} of these run per ${formatDuration(windowMs)} for ${agent ?? "an agent with no name"}, and ${limit.max} already ran since ${sinceIso}; the next can run after ${opens}`;
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
function grantTarget(action: Action, req: GateRequest, deps: GateDeps): { target: string; binding?: string } {
  if (action.targets.length === 0)
    return { target: req.rawArguments !== undefined ? `args:${deps.digest(req.rawArguments)}` : "" };
  const target = shownTargets(action).join(" ");
  const raw = action.targets.join(" ");
  return raw === target ? { target } : { target, binding: `${target}\0${deps.digest(raw)}` };
}

interface RowInput {
  readonly combined: Combined;
  readonly effect: Effect;
  readonly mode: Mode;
  readonly reason: string;
  readonly rules: RuleSetView;
  readonly facts: readonly StateFact[];
  readonly agent: string | undefined;
  readonly session: string | undefined;
  readonly requests: readonly PolicyRequest[];
  /** The deciding action's request, in the environment that decided. */
  readonly deciding: PolicyRequest;
  /** Every environment declared; recorded beside the deciding one only when there were several. */
  readonly declared: readonly string[];
  readonly boundary: Boundary | undefined;
  readonly noticed: Noticed;
  /** The budgets this call spends, named so a later count finds it whichever of its actions the row names. */
  readonly spends: readonly string[];
}

function decisionRow(req: GateRequest, deps: GateDeps, at: Instant, r: RowInput): EventInput {
  const decidingRequest = r.deciding;
  const action = decidingRequest.action;
  const withheld = targetsAreArguments(action);
  const recorded: RecordedRequest = {
    action: action.name,
    class: action.class,
    targets: withheld ? [] : shownTargets(action),
    cwd: req.cwd,
    scope: decidingRequest.scope,
    facts: r.facts,
    // Only the deciding action's matches: a replay evaluates that action alone.
    argumentMatches: r.combined.deciding.verdict?.argumentMatches ?? [],
    ...(withheld ? { targetMatches: [...new Set(r.combined.deciding.verdict?.matched.map((m) => m.name))] } : {}),
    ruleFiles: r.rules.files,
    ...(r.boundary ? { boundary: r.boundary } : {}),
    ...(decidingRequest.agent ? { agent: decidingRequest.agent } : {}),
    ...(decidingRequest.role ? { role: decidingRequest.role } : {}),
    ...(decidingRequest.principal ? { principal: decidingRequest.principal } : {}),
    ...(decidingRequest.model ? { model: decidingRequest.model } : {}),
    ...(decidingRequest.provider ? { provider: decidingRequest.provider } : {}),
    ...(decidingRequest.amount !== undefined ? { amount: decidingRequest.amount } : {}),
    ...(decidingRequest.environment ? { environment: decidingRequest.environment } : {}),
    ...(r.declared.length > 1 ? { environments: r.declared } : {}),
    ...(decidingRequest.branch ? { branch: decidingRequest.branch } : {}),
  };
  const c = r.combined;
  return {
    kind: "decision",
    occurredAt: new Date(at.epochMs).toISOString(),
    surface: req.surface,
    operation: action.name,
    classes: [...new Set(r.requests.map((p) => p.action.class))],
    ...(withheld ? {} : { resourceRef: shownTargets(action).join(" ").slice(0, 512) }),
    effect: r.effect,
    enforceEffect: c.wouldEffect,
    mode: r.mode,
    governed: c.governed,
    reason: r.reason,
    cwd: req.cwd,
    argsDigest: deps.digest(rawArguments(req)),
    policyHash: r.rules.hash,
    ...(r.agent ? { agent: r.agent } : {}),
    ...(r.session ? { session: r.session } : {}),
    ...(c.rule ? { ruleId: c.rule.name, ruleFile: c.rule.file, ruleLine: c.rule.line } : {}),
    ...(c.alternative ? { alternative: c.alternative } : {}),
    request: recorded,
    detail: {
      source: c.deciding.source,
      ...(c.deciding.fact ? { fact: factKey(c.deciding.fact) } : {}),
      ...(r.spends.length > 0 ? { budgets: r.spends.join(",") } : {}),
      // The rate-limited rules this call matched, so each is counted whichever rule decided the row.
      ...(c.rateLimits.length > 0
        ? { rateLimited: `|${c.rateLimits.map((l) => rateLimitKey(l.rule)).join("|")}|` }
        : {}),
      ...(r.rules.usesWindows ? { utcOffsetMinutes: at.utcOffsetMinutes } : {}),
      ...(c.deciding.decision ? decisionDetail(c.deciding.decision) : {}),
      ...noticeDetail(r.noticed),
      ...(c.wouldEffect === "deny" ? wouldReach(r.requests, deps) : {}),
    },
  };
}

/** A refused read of a credential: what that credential opens, from the scan (the computed counterfactual). */
function wouldReach(requests: readonly PolicyRequest[], deps: GateDeps): Record<string, string> {
  if (!deps.reach) return {};
  const reach = deps.reach;
  const words = [
    ...new Set(
      requests
        .filter((p) => p.action.name === "filesystem.read")
        .flatMap((p) => p.action.targets.flatMap((t) => reach(t) ?? [])),
    ),
  ];
  return words.length > 0 ? { wouldReach: words.join("; ") } : {};
}

/** The decision that decided, flat as a row's detail is, so a replay is held to the same one. */
function decisionDetail(d: Decision): Record<string, string> {
  return {
    decisionSlug: d.slug,
    decisionStatement: d.statement,
    decisionFile: d.file,
    decisionProject: d.project_id,
    decisionTerms: d.terms.join(" "),
  };
}

/** The decision a row recorded, when one decided it. */
export function recordedDecision(detail: Readonly<Record<string, unknown>> | undefined): Decision | undefined {
  const s = (k: string) => (typeof detail?.[k] === "string" ? (detail[k] as string) : "");
  const terms = s("decisionTerms").split(" ").filter(Boolean);
  if (!s("decisionSlug") || terms.length === 0) return undefined;
  return {
    slug: s("decisionSlug"),
    statement: s("decisionStatement"),
    file: s("decisionFile"),
    project_id: s("decisionProject"),
    valid_from: null,
    valid_until: null,
    terms,
  };
}

/** A command line or an unknown program's argv: targets that are the call's own arguments, recorded only as the digest. */
export function targetsAreArguments(action: Action): boolean {
  return action.name === "shell.execute" || action.class === "unknown";
}

/** What the argument digest is taken over: the raw arguments, else the command line, argv or action arguments. */
export function rawArguments(req: GateRequest): string {
  if (req.rawArguments !== undefined) return req.rawArguments;
  if (req.command !== undefined) return req.command;
  if (req.argv) return req.argv.join("\u0000");
  return JSON.stringify(req.action?.arguments ?? {});
}

function allowAll(mode: Mode, reason: string): Omit<GateAnswer, "actions"> {
  return { effect: "allow", enforceEffect: "allow", mode, reason, stopped: false };
}

function stopped(req: GateRequest, deps: GateDeps, at: Instant, mode: Mode, until: string): GateAnswer {
  const reason = `protection on this machine is stopped until ${until}, so nothing is checked`;
  const eventId = deps.record({
    kind: "decision",
    occurredAt: new Date(at.epochMs).toISOString(),
    surface: req.surface,
    operation: req.action?.name ?? "shell.execute",
    effect: "allow",
    mode,
    reason,
    cwd: req.cwd,
    argsDigest: deps.digest(rawArguments(req)),
    ...(req.agent ? { agent: req.agent } : {}),
    ...((req.session ?? deps.caller.session) ? { session: req.session ?? deps.caller.session } : {}),
    detail: { source: "stopped" },
  });
  return { ...allowAll(mode, reason), stopped: true, actions: [], ...(eventId ? { eventId } : {}) };
}

/** The seam refused the call itself (a hidden MCP tool): it happens in every mode, so it is recorded in every mode. */
function refusedBySeam(req: GateRequest, deps: GateDeps, at: Instant, mode: Mode, reason: string): GateAnswer {
  const session = req.session ?? deps.caller.session;
  const agent = req.agent ?? deps.caller.agent;
  const eventId = deps.record({
    kind: "decision",
    occurredAt: new Date(at.epochMs).toISOString(),
    surface: req.surface,
    operation: req.action?.name ?? "shell.execute",
    ...(req.action ? { classes: [req.action.class] } : {}),
    effect: "deny",
    enforceEffect: "deny",
    mode,
    governed: false,
    reason,
    cwd: req.cwd,
    argsDigest: deps.digest(rawArguments(req)),
    ...(agent ? { agent } : {}),
    ...(session ? { session } : {}),
    detail: { source: "seam" },
  });
  return {
    effect: "deny",
    enforceEffect: "deny",
    mode,
    reason,
    stopped: false,
    actions: req.action ? [req.action] : [],
    ...(eventId ? { eventId } : {}),
  };
}

/** The gate itself failed: failOpen decides, and in enforce that is a refusal that says it is memnox's. */
function refuseUndecided(req: GateRequest, deps: GateDeps, at: Instant, s: Settings, e: unknown): GateAnswer {
  const letThrough = s.failOpen || s.mode !== "enforce";
  const reason = `memnox could not decide (${describeError(e)})${letThrough ? "" : ", and in enforce a question it cannot answer is a refusal"}`;
  const effect: Effect = letThrough ? "allow" : "deny";
  const eventId = deps.record({
    kind: "decision",
    occurredAt: new Date(at.epochMs).toISOString(),
    surface: req.surface,
    operation: req.action?.name ?? "shell.execute",
    effect,
    enforceEffect: "deny",
    mode: s.mode,
    reason,
    cwd: req.cwd,
    argsDigest: deps.digest(rawArguments(req)),
    detail: { source: "error" },
  });
  return {
    effect,
    enforceEffect: "deny",
    mode: s.mode,
    reason,
    stopped: false,
    actions: [],
    ...(eventId ? { eventId } : {}),
  };
}

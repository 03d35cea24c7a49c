// judge(request, facts) -> Ruling: the gate's whole answer as data, from the facts gathered for the call and
// nothing else. No read, no write, no clock: the same facts give the same ruling, so a replay and a dry run are
// judged exactly as the live call was. commit() then carries out what the ruling says, in one fixed order.
import { shownTargets } from "../core/action.ts";
import type { Decision } from "../core/decisions.ts";
import type { Effect, Mode } from "../core/effect.ts";
import { describeError } from "../core/errors.ts";
import type { EventInput, RecordedRequest } from "../core/event.ts";
import { factKey, type PolicyRequest } from "../core/request.ts";
import { rateLimitKey } from "../core/verdict.ts";
import type { IssueRequest, TypedCode } from "../state/allow-once.ts";
import type { ClearedCall } from "../state/cleared.ts";
import type { FingerprintParts, Hold, NewHold } from "../state/pending.ts";
import { type Assessment, assessWorld, writtenPaths } from "./assess.ts";
import { budgetsSpentBy } from "./budgets.ts";
import { rawArguments, targetsAreArguments } from "./call.ts";
import type { Instant, RuleSetView, Settings } from "./deps.ts";
import type { GateFacts } from "./facts.ts";
import { noticeDetail } from "./notice/record.ts";
import { cleared, grantTarget, type Posed, posed } from "./posed.ts";
import type { GateAnswer, GateRequest } from "./types.ts";

/** Everything a decision does, as data: the answer, and the writes commit() makes for it. */
export interface Ruling {
  /** The answer before commit names its row, hold and code. */
  readonly answer: GateAnswer;
  readonly nowMs: number;
  /** The ledger row; none when memnox is off. */
  readonly row?: EventInput;
  /** The rule set the row refers to, kept so a replay can recompile it. */
  readonly keep?: RuleSetView;
  /** The grant or typed code the answer rests on: spent first, and if another call spent it first, judged again. */
  readonly spend?: { readonly grant: Hold } | { readonly code: TypedCode };
  /** Marks for the seams after this one, each naming this row once it is written. */
  readonly clear?: { readonly session: string; readonly calls: readonly Omit<ClearedCall, "decisionEventId">[] };
  /** An allowed write's leases, taken or renewed. */
  readonly leases?: { readonly paths: readonly string[]; readonly session: string; readonly agent: string };
  /** The hold a person answers with `memnox approve`, naming this row. */
  readonly hold?: Omit<NewHold, "decisionEventId">;
  /** A refusal's code for `memnox allow-once`, naming this row. */
  readonly issue?: Omit<IssueRequest, "fingerprint" | "decisionEventId"> & { readonly parts: FingerprintParts };
}

/** The ruling on `req` from `facts`: pure. */
export function judge(req: GateRequest, facts: GateFacts): Ruling {
  return judgeAssessed(req, facts, undefined);
}

/** As judge(), reusing the assessment gathering already made of these very facts. */
export function judgeAssessed(req: GateRequest, facts: GateFacts, assessed: Assessment | undefined): Ruling {
  const ruling = early(req, facts) ?? ruled(req, facts, assessed);
  // Decided on a cached workspace bundle nobody confirmed lately: the same verdict, and the row says so.
  return facts.stale && ruling.row ? { ...ruling, row: { ...ruling.row, stale: true } } : ruling;
}

function early(req: GateRequest, f: GateFacts): Ruling | undefined {
  // An unreadable config leaves the mode unknown: fail closed as enforce would.
  if (!f.settings) return undecided(req, f, { mode: "enforce", failOpen: false }, f.unreadable ?? "no settings");
  const s = f.settings;
  // A seam with its own mode decides its calls in that mode.
  const mode = s.seamModes?.[req.surface] ?? s.mode;
  if (req.refusal !== undefined) return refusedBySeam(req, f, mode, req.refusal);
  if (f.stop) return stopped(req, f, mode, f.stop.until);
  if (mode === "off") return { answer: { ...allowAll(mode, "memnox is off"), actions: [] }, nowMs: f.at.epochMs };
  if (f.failed !== undefined || !f.world) return undecided(req, f, { ...s, mode }, f.failed ?? "nothing gathered");
  return undefined;
}

function ruled(req: GateRequest, f: GateFacts, given: Assessment | undefined): Ruling {
  const settings = f.settings as Settings;
  const mode = settings.seamModes?.[req.surface] ?? settings.mode;
  const digest = (raw: string): string => {
    const d = f.digests.get(raw);
    if (d === undefined) throw new Error("a digest was needed that was not gathered");
    return d;
  };
  try {
    const assessed = given ?? assessWorld(req, f.world as NonNullable<GateFacts["world"]>, f.at);
    const p = posed(req, mode, assessed, f.spent, f.at, digest);
    return rulingOf(req, f, assessed, p, mode, digest);
  } catch (e) {
    return undecided(req, f, { ...settings, mode }, describeError(e));
  }
}

interface Let {
  effect: Effect;
  reason: string;
  grantedBy?: string;
  /** Until when, and on whose word, what this call does may pass the next seam it meets without asking again. */
  clearing?: { until: number; by: string };
  spend?: Ruling["spend"];
}

/** What a person already said, or let through elsewhere, of an ask: the grant, a mark, a hand-down, a no. */
function heard(req: GateRequest, f: GateFacts, p: Posed, session: string | undefined, now: number): Let {
  const because = p.because;
  const { grant, refused } = f.pending;
  // Only another seam honours the mark: at its own seam a once-grant stays spent by one use.
  const mark = f.pending.mark;
  const passed = !grant && mark && mark.surface !== req.surface ? mark : undefined;
  const above = grant || passed ? undefined : f.pending.handedDown;
  // Only within a session: a call nothing ties to the one refused (a person's own, at their terminal) asks afresh.
  const no = grant || passed || above || !session ? undefined : refused;
  if (no) {
    // The person already said no to this very call: the retry hears that answer instead of asking again.
    const last = no.denials[no.denials.length - 1];
    const reason = `a person (${last?.by ?? "someone"}) said no to this at ${last?.at ?? no.createdAt} (hold ${no.id}): ${because}`;
    return { effect: "deny", reason };
  }
  if (grant) {
    const grantedBy = grant.grants.map((g) => g.by).join(", ");
    return {
      effect: "allow",
      grantedBy,
      reason: `approved by ${grantedBy} (${grant.id}): ${because}`,
      clearing: { until: Date.parse(grant.expiresAt), by: grant.id },
      spend: { grant },
    };
  }
  if (passed) {
    const reason = `already let through at the ${passed.surface} for this session (${passed.by}): ${because}`;
    return { effect: "allow", reason };
  }
  if (above?.actions.includes(p.parts.action)) {
    const reason = `already let through at the ${above.surface} that started this (${above.by}): ${because}`;
    return { effect: "allow", reason };
  }
  if (p.asksHere) {
    // The person is asked where the call is, and it runs only after their yes: the seams after this one honour it.
    const by = req.surface === "hook" ? "the agent's own prompt" : "a terminal";
    return { effect: "ask", reason: because, clearing: { until: now + f.holdTtlMs, by } };
  }
  return { effect: "ask", reason: because };
}

/** How a mark left by a spent allow-once code begins: only such a mark passes a refusal on to the next seam. */
const ONCE = "memnox allow-once";

/** A refusal by a rule that a person let through once with its code (`memnox allow-once`): this exact call, once. */
function letOnce(req: GateRequest, f: GateFacts, p: Posed, now: number, l: Let): Let {
  const code = f.pending.code;
  if (code) {
    const by = code.record.approvedBy ?? "a person";
    return {
      effect: "allow",
      reason: `let through once by ${by} from their own terminal (memnox allow-once): ${p.because}`,
      clearing: { until: now + f.holdTtlMs, by: `${ONCE} by ${by}` },
      spend: { code },
    };
  }
  // The seams after the one that spent the code (the interceptor, git's pre-push hook) let the same call on.
  const mark = f.pending.mark;
  if (mark && mark.surface !== req.surface && mark.by.startsWith(ONCE))
    return {
      effect: "allow",
      reason: `let through once at the ${mark.surface} that started this (${mark.by}): ${p.because}`,
    };
  return l;
}

function rulingOf(
  req: GateRequest,
  f: GateFacts,
  a: Assessment,
  p: Posed,
  mode: Mode,
  digest: (raw: string) => string,
): Ruling {
  const now = f.at.epochMs;
  const { session, agent } = a;
  const { combined, because } = p;
  const rule = combined.deciding.source === "rule";
  let l: Let = p.effect === "ask" && !req.ran ? heard(req, f, p, session, now) : { effect: p.effect, reason: because };
  if (l.effect === "deny" && !req.ran && rule) l = letOnce(req, f, p, now, l);
  if (l.effect === "ask" && !p.asksHere && req.walled) {
    // Held answers live in files the wall keeps this seam from: the ask is refused here, with its reason.
    const reason = `${because}; inside the kernel wall a call that would ask is refused rather than held, so run it outside the wall if a person wants it`;
    l = { effect: "deny", reason };
  }
  const { effect, reason, clearing } = l;
  const writes = writtenPaths(a.resolution.actions);
  // Inside the kernel wall the marks' files cannot be written: the next seam asks as it would have.
  const clears = clearing && session && !req.walled && !req.ran;
  const deciding = combined.deciding.action;
  const calls = clears
    ? a.resolution.actions
        .filter((x) => x.name !== "shell.execute")
        .map((x) => ({
          ...cleared({ action: x.name, ...grantTarget(x, req, digest), environment: p.environment }),
          surface: req.surface,
          by: clearing.by,
          until: new Date(clearing.until).toISOString(),
        }))
    : [];
  const holds = effect === "ask" && !p.asksHere && !req.ran;
  const issues = effect === "deny" && !req.ran && !req.walled && rule;
  return {
    nowMs: now,
    keep: a.rules,
    row: decisionRow(req, f, digest, a, { combined, effect, mode, reason }),
    ...(l.spend ? { spend: l.spend } : {}),
    ...(clears && session && calls.length > 0 ? { clear: { session, calls } } : {}),
    // The first write of a session to a path takes its lease; a later one renews it.
    ...(effect === "allow" && writes.length > 0 && session && agent && !req.ran
      ? { leases: { paths: writes, session, agent } }
      : {}),
    ...(holds
      ? {
          hold: {
            ...p.parts,
            surface: req.surface,
            session,
            reason: because,
            rule: combined.rule,
            approvers: combined.approvers,
            minApprovals: combined.minApprovals,
            nowMs: now,
            ttlMs: f.holdTtlMs,
          },
        }
      : {}),
    ...(issues
      ? { issue: { parts: p.parts, action: deciding.name, target: p.target, session, reason: because, nowMs: now } }
      : {}),
    answer: {
      effect,
      enforceEffect: combined.wouldEffect,
      mode,
      reason,
      ...(combined.alternative ? { alternative: combined.alternative } : {}),
      ...(combined.rule ? { rule: combined.rule } : {}),
      ...(clearing && l.grantedBy && clearing.by.startsWith("a_") ? { granted: clearing.by } : {}),
      ...(effect === "ask" && p.quorum
        ? { quorum: { approvers: combined.approvers, minApprovals: combined.minApprovals } }
        : {}),
      actions: a.resolution.actions,
      decided: {
        action: deciding.name,
        target: p.target,
        ...(p.binding ? { binding: p.binding } : {}),
        ...(p.environment !== undefined ? { environment: p.environment } : {}),
      },
      stopped: false,
    },
  };
}

interface RowInput {
  readonly combined: Posed["combined"];
  readonly effect: Effect;
  readonly mode: Mode;
  readonly reason: string;
}

function decisionRow(
  req: GateRequest,
  f: GateFacts,
  digest: (raw: string) => string,
  a: Assessment,
  r: RowInput,
): EventInput {
  const decidingRequest = a.deciding;
  const action = decidingRequest.action;
  const withheld = targetsAreArguments(action);
  // Every environment declared; recorded beside the deciding one only when there were several.
  const declared = f.world?.environments ?? [];
  const recorded: RecordedRequest = {
    action: action.name,
    class: action.class,
    targets: withheld ? [] : shownTargets(action),
    cwd: req.cwd,
    scope: decidingRequest.scope,
    facts: a.facts,
    // Only the deciding action's matches: a replay evaluates that action alone.
    argumentMatches: r.combined.deciding.verdict?.argumentMatches ?? [],
    ...(withheld ? { targetMatches: [...new Set(r.combined.deciding.verdict?.matched.map((m) => m.name))] } : {}),
    ruleFiles: a.rules.files,
    ...(a.boundary ? { boundary: a.boundary } : {}),
    ...(decidingRequest.agent ? { agent: decidingRequest.agent } : {}),
    ...(decidingRequest.role ? { role: decidingRequest.role } : {}),
    ...(decidingRequest.principal ? { principal: decidingRequest.principal } : {}),
    ...(decidingRequest.model ? { model: decidingRequest.model } : {}),
    ...(decidingRequest.provider ? { provider: decidingRequest.provider } : {}),
    ...(decidingRequest.amount !== undefined ? { amount: decidingRequest.amount } : {}),
    ...(decidingRequest.environment ? { environment: decidingRequest.environment } : {}),
    ...(declared.length > 1 ? { environments: declared } : {}),
    ...(decidingRequest.branch ? { branch: decidingRequest.branch } : {}),
  };
  const c = r.combined;
  const spends = budgetsSpentBy(a.facts, a.resolution.actions);
  return {
    kind: "decision",
    occurredAt: new Date(f.at.epochMs).toISOString(),
    surface: req.surface,
    operation: action.name,
    classes: [...new Set(a.requests.map((p) => p.action.class))],
    ...(withheld ? {} : { resourceRef: shownTargets(action).join(" ").slice(0, 512) }),
    effect: r.effect,
    enforceEffect: c.wouldEffect,
    mode: r.mode,
    governed: c.governed,
    reason: r.reason,
    cwd: req.cwd,
    argsDigest: digest(rawArguments(req)),
    policyHash: a.rules.hash,
    ...(a.agent ? { agent: a.agent } : {}),
    ...(a.session ? { session: a.session } : {}),
    ...(c.rule ? { ruleId: c.rule.name, ruleFile: c.rule.file, ruleLine: c.rule.line } : {}),
    ...(c.alternative ? { alternative: c.alternative } : {}),
    request: recorded,
    detail: {
      source: c.deciding.source,
      ...(c.deciding.fact ? { fact: factKey(c.deciding.fact) } : {}),
      ...(spends.length > 0 ? { budgets: spends.join(",") } : {}),
      // The rate-limited rules this call matched, so each is counted whichever rule decided the row.
      ...(c.rateLimits.length > 0
        ? { rateLimited: `|${c.rateLimits.map((l) => rateLimitKey(l.rule)).join("|")}|` }
        : {}),
      ...(a.rules.usesWindows ? { utcOffsetMinutes: f.at.utcOffsetMinutes } : {}),
      ...(c.deciding.decision ? decisionDetail(c.deciding.decision) : {}),
      ...noticeDetail(a.noticed),
      ...(c.wouldEffect === "deny" ? wouldReach(a.requests, f.reach) : {}),
    },
  };
}

/** A refused read of a credential: what that credential opens, from the scan (the computed counterfactual). */
function wouldReach(requests: readonly PolicyRequest[], reach: GateFacts["reach"]): Record<string, string> {
  const words = [
    ...new Set(
      requests
        .filter((p) => p.action.name === "filesystem.read")
        .flatMap((p) => p.action.targets.flatMap((t) => reach[t] ?? [])),
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

function allowAll(mode: Mode, reason: string): Omit<GateAnswer, "actions"> {
  return { effect: "allow", enforceEffect: "allow", mode, reason, stopped: false };
}

/** The row every early ruling writes: what the call was, by whom, and why it never met the rules. */
function shortRow(req: GateRequest, f: GateFacts, at: Instant, rest: Omit<Partial<EventInput>, "kind">) {
  return {
    kind: "decision" as const,
    occurredAt: new Date(at.epochMs).toISOString(),
    surface: req.surface,
    operation: req.action?.name ?? "shell.execute",
    cwd: req.cwd,
    argsDigest: f.digests.get(rawArguments(req)) ?? "",
    ...rest,
  } as EventInput;
}

function stopped(req: GateRequest, f: GateFacts, mode: Mode, until: string): Ruling {
  const reason = `protection on this machine is stopped until ${until}, so nothing is checked`;
  const session = req.session ?? f.caller.session;
  return {
    nowMs: f.at.epochMs,
    row: shortRow(req, f, f.at, {
      effect: "allow",
      mode,
      reason,
      ...(req.agent ? { agent: req.agent } : {}),
      ...(session ? { session } : {}),
      detail: { source: "stopped" },
    }),
    answer: { ...allowAll(mode, reason), stopped: true, actions: [] },
  };
}

/** The seam refused the call itself (a hidden MCP tool): it happens in every mode, so it is recorded in every mode. */
function refusedBySeam(req: GateRequest, f: GateFacts, mode: Mode, reason: string): Ruling {
  const session = req.session ?? f.caller.session;
  const agent = req.agent ?? f.caller.agent;
  return {
    nowMs: f.at.epochMs,
    row: shortRow(req, f, f.at, {
      ...(req.action ? { classes: [req.action.class] } : {}),
      effect: "deny",
      enforceEffect: "deny",
      mode,
      governed: false,
      reason,
      ...(agent ? { agent } : {}),
      ...(session ? { session } : {}),
      detail: { source: "seam" },
    }),
    answer: {
      effect: "deny",
      enforceEffect: "deny",
      mode,
      reason,
      stopped: false,
      actions: req.action ? [req.action] : [],
    },
  };
}

/** A ruling that could not be carried out (a hold that could not be written): judged as a question not answered. */
export function unkept(req: GateRequest, facts: GateFacts, e: unknown): Ruling {
  const s = facts.settings;
  const mode = s ? (s.seamModes?.[req.surface] ?? s.mode) : "enforce";
  const ruling = undecided(req, facts, { mode, failOpen: s?.failOpen ?? false }, describeError(e));
  return facts.stale && ruling.row ? { ...ruling, row: { ...ruling.row, stale: true } } : ruling;
}

/** The gate itself failed: failOpen decides, and in enforce that is a refusal that says it is memnox's. */
function undecided(req: GateRequest, f: GateFacts, s: Pick<Settings, "mode" | "failOpen">, why: string): Ruling {
  const letThrough = s.failOpen || s.mode !== "enforce";
  const reason = `memnox could not decide (${why})${letThrough ? "" : ", and in enforce a question it cannot answer is a refusal"}`;
  const effect: Effect = letThrough ? "allow" : "deny";
  return {
    nowMs: f.at.epochMs,
    row: shortRow(req, f, f.at, { effect, enforceEffect: "deny", mode: s.mode, reason, detail: { source: "error" } }),
    answer: { effect, enforceEffect: "deny", mode: s.mode, reason, stopped: false, actions: [] },
  };
}

// The pure middle of decide(): resolve, match every action against the rules and memnox's own checks, combine.
import type { Action, PossibleTarget } from "../core/action.ts";
import type { Decision } from "../core/decisions.ts";
import { effectRank } from "../core/effect.ts";
import type { PolicyRequest, StateFact } from "../core/request.ts";
import { credentialShapes } from "../core/secrets.ts";
import type { NoticeHistory } from "../ledger/notices.ts";
import { PERSON } from "../policy/engine/index.ts";
import type { Resolution } from "../resolve/types.ts";
import type { Boundary } from "./boundary.ts";
import { callText } from "./call.ts";
import { type Combined, combine, type Finding, ruleFinding } from "./combine.ts";
import { decisionFinding, decisionFindings } from "./decisions.ts";
import type { CallerFacts, GateDeps, Instant, RuleSetView, Settings } from "./deps.ts";
import { ownChecks, unparsable, unreadableRules, withStates } from "./findings.ts";
import { withGrants } from "./grants.ts";
import { noticeFindings } from "./notice/findings.ts";
import { gatherNotice, type Noticed, noticeQuery } from "./notice/gather.ts";
import { actingPlaces } from "./places.ts";
import type { Protection } from "./protected.ts";
import { pushFacts } from "./push.ts";
import { type DeclaredScope, scopeFit } from "./scope.ts";
import { isOwnSessionTool, SESSION_TOOL_REASON } from "./session-tools.ts";
import type { GateRequest } from "./types.ts";
import { held, type WallHolds, wallFindings } from "./wall-held.ts";

export interface ActionAssessment {
  readonly action: Action;
  readonly combined: Combined;
}

export interface Assessment {
  readonly resolution: Resolution;
  readonly rules: RuleSetView;
  readonly facts: readonly StateFact[];
  readonly agent: string | undefined;
  readonly session: string | undefined;
  readonly boundary: Boundary | undefined;
  /** One per action and declared environment, in that order. */
  readonly requests: readonly PolicyRequest[];
  /** The request the combined verdict came from: its action, in the environment that decided. */
  readonly deciding: PolicyRequest;
  /** Each action on its own, for `memnox check`. */
  readonly perAction: readonly ActionAssessment[];
  /** Every action together: what the seam applies. */
  readonly combined: Combined;
  /** The deciding reason, with the state facts it came from. */
  readonly because: string;
  /** What the notice layer read and what the row remembers for it (its facts are among `facts`). */
  readonly noticed: Noticed;
}

/**
 * Everything the rules and memnox's own checks read for one call, gathered before anything is judged: a value, so
 * judging it twice gives the same verdict and a replay can hand the recorded parts back.
 */
export interface World {
  readonly resolution: Resolution;
  readonly rules: RuleSetView;
  readonly agent: string | undefined;
  readonly session: string | undefined;
  readonly boundary: Boundary | undefined;
  /** Every environment declared (MEMNOX_ENV); none is one evaluation without one. */
  readonly environments: readonly string[];
  readonly role: string | undefined;
  readonly scope: DeclaredScope | undefined;
  /** The checked-out branch at the call's cwd, read only when an action does not name its own. */
  readonly branch: string | undefined;
  /** The principal, model and provider, read only when a rule names them. */
  readonly runs: Pick<PolicyRequest, "principal" | "model" | "provider">;
  /** The state facts in force, the leases on what the call writes and where a push lands. */
  readonly state: readonly StateFact[];
  readonly decisions: readonly Decision[];
  /** A replay's: the decision the row recorded, held to again on its recorded words without reading memory. */
  readonly heldTo?: Decision;
  readonly settings: Settings | undefined;
  /** The notice layer's history for this call's question (`noticeQuery`); absent when nothing was asked. */
  readonly history: NoticeHistory | undefined;
  readonly protect: Protection | undefined;
  readonly wallHolds: WallHolds | undefined;
}

/** The world one call is judged in, read from `deps` in one pass, each source once. */
export function gatherWorld(req: GateRequest, deps: GateDeps, at: Instant, settings?: Settings): World {
  const resolution = resolve(req, deps);
  const also = actingPlaces(req.cwd, resolution.actions);
  const rules = also.length > 0 ? deps.rules(req.cwd, also) : deps.rules(req.cwd);
  const person = req.seat === "person";
  const c = deps.caller;
  const agent = person ? PERSON : notPerson(req.agent ?? c.agent);
  const session = req.session ?? c.session;
  const boundary = c.boundary(req.cwd, session);
  // Leases are read for the paths this call writes, beside the facts in force, and recorded with them.
  const writes = writtenPaths(resolution.actions);
  const state = [
    ...deps.facts(at.epochMs),
    ...(writes.length > 0 && deps.leases ? deps.leases(writes, at.epochMs) : []),
    // Where a push lands (its own branch, the default, a protected one, a tag): a fact its rules can name.
    ...pushFacts(resolution.actions, req.cwd, at.epochMs),
  ];
  const set = settings ?? settingsOrUndefined(deps);
  const notice = set?.notice ?? { on: false, warmupDays: 0 };
  const q = person
    ? undefined
    : noticeQuery(
        { surface: req.surface, agent, session, actions: resolution.actions, boundary, nowMs: at.epochMs },
        notice,
      );
  return {
    resolution,
    rules,
    agent,
    session,
    boundary,
    environments: c.environments ?? [],
    role: c.role,
    scope: c.scope,
    branch: resolution.actions.some((a) => !a.branch) ? c.branch(req.cwd) : undefined,
    runs: rules.usesCaller ? callerRuns(c, agent, req.cwd) : {},
    state,
    decisions: person ? [] : (deps.decisions?.(req.cwd) ?? []),
    settings: set,
    // A dry run claims no novelty: it reads no history.
    history: q && deps.history && !deps.dry ? deps.history(q) : undefined,
    protect: deps.protect,
    wallHolds: req.underWall ? deps.wallHolds?.() : undefined,
  };
}

export function assess(req: GateRequest, deps: GateDeps, at: Instant): Assessment {
  return assessWorld(req, gatherWorld(req, deps, at), at);
}

/** The rules and memnox's own checks on one call in its world: pure, no read, no write. */
export function assessWorld(req: GateRequest, w: World, at: Instant): Assessment {
  const { resolution, rules, agent, session, boundary } = w;
  const person = req.seat === "person";
  const stateFacts = w.state;
  // No environment declared is one evaluation without one; several are each ruled on, the strictest applying.
  const environments = w.environments.length > 0 ? w.environments : [undefined];
  const byAction = resolution.actions.map((action) => environments.map((env) => policyRequest(req, w, action, env)));
  const requests = byAction.flat();
  const lineWide: Finding[] = [];
  const head = resolution.actions[0];
  const opaque = resolution.actions.find((a) => a.name === "shell.unknown");
  const why = resolution.parseError ?? (opaque ? "it is nested too deep or could not be read" : undefined);
  if (head && why) lineWide.push(unparsable(head, why));
  // A person's own command is not refused for a rule file that does not read; an agent's is.
  if (head && rules.problems.length > 0 && !person) lineWide.push(unreadableRules(head, rules.problems));
  // Decisions recorded in memory only tighten: each contradicted one adds an ask beside the rules' verdicts.
  const decisions = w.decisions;
  const nowIso = decisions.length > 0 ? new Date(at.epochMs).toISOString() : "";
  const settings = w.settings;
  const ruled = resolution.actions.map((action, i) =>
    withGrants(
      (byAction[i] ?? []).map((r) => wholeTree(ruleFinding(action, rules.evaluate(r, stateFacts, at), r.environment))),
      stateFacts,
      at.epochMs,
    ),
  );
  // One layer under the rules: from local history handed in as facts, recorded with the row's facts.
  const noticed = person
    ? NOTHING_NOTICED
    : gatherNotice(
        {
          surface: req.surface,
          agent,
          session,
          actions: resolution.actions,
          boundary,
          nowMs: at.epochMs,
          // A read a rule asks about or refuses is guarded, and so is one a grant let through.
          guarded: ruled.map((fs) =>
            fs.some((f) => (f.source === "rule" && f.effect !== "allow") || f.source === "grant"),
          ),
          facts: stateFacts,
          carries: req.carries ?? credentialShapes(callText(req)),
        },
        settings?.notice ?? { on: false, warmupDays: 0 },
        w.history ? () => w.history ?? NO_HISTORY : undefined,
      );
  const facts = noticed.facts.length > 0 ? [...stateFacts, ...noticed.facts] : stateFacts;
  // memnox's own checks hold agents; a person at their own terminal meets only the rules they wrote for themselves.
  const checks = (action: Action): Finding[] =>
    person
      ? []
      : ownChecks({
          action,
          agent,
          session,
          facts,
          boundary,
          nowMs: at.epochMs,
          ...(settings ? { settings: settings.config ?? settings } : {}),
          ...(w.protect ? { protect: w.protect } : {}),
        });
  const holds = w.wallHolds;
  const perFindings = resolution.actions.map((action, i) => [
    ...(ruled[i] ?? []),
    ...checks(action),
    ...(holds ? wallFindings(holds, action) : []),
    ...(person
      ? []
      : noticeFindings({ action, surface: req.surface, agent, session, facts, boundary, nowMs: at.epochMs })),
    ...(decisions.length > 0 && !person ? decisionFindings(action, decisions, req.cwd, nowIso) : []),
    ...(w.heldTo && !person ? [decisionFinding(action, w.heldTo, w.heldTo.terms)] : []),
    ...(action.possible ?? []).flatMap((p) => {
      // Each witness meets the rules and memnox's own checks as the action's one target, so a refusal names it; one
      // the kernel wall holds for a command inside it is no question for a person: the kernel answers it.
      const could = holds ? p.could.filter((t) => !held(holds, action, t)) : p.could;
      if (could.length === 0) return [];
      const found = could.flatMap((t) => {
        const as: Action = { ...action, targets: [t], possible: [] };
        return [
          ...environments.map((env) => {
            const r = policyRequest(req, w, as, env);
            return ruleFinding(as, rules.evaluate(r, facts, at), r.environment);
          }),
          ...checks(as),
        ];
      });
      return couldMatch(action, p, found);
    }),
  ]);
  // memnox's own session tools are never asked about: they read the record, or (rewind) ask their person themselves.
  if (req.surface === "hook") {
    resolution.actions.forEach((action, i) => {
      const found = perFindings[i];
      if (!found || !isOwnSessionTool(action)) return;
      perFindings[i] = [
        ...found.filter((f) => f.effect !== "ask"),
        { action, effect: "allow", source: "session-tool", reason: SESSION_TOOL_REASON },
      ];
    });
  }
  const combined = combine([...perFindings.flat(), ...lineWide]);
  return {
    resolution,
    rules,
    facts,
    agent,
    session,
    boundary,
    requests,
    deciding: decidingRequest(requests, combined),
    // What refuses the whole line (unreadable line or rules) shows on its head, so no row reads allow beside a deny.
    perAction: resolution.actions.map((action, i) => ({
      action,
      combined: combine([...(perFindings[i] ?? []), ...(i === 0 ? lineWide : [])]),
    })),
    combined,
    because: withStates(combined.reason, combined.deciding.verdict?.states, facts, at.epochMs),
    noticed,
  };
}

const NOTHING_NOTICED: Noticed = { facts: [], seen: [], noted: [] };
const NO_HISTORY: NoticeHistory = { since: undefined, done: [], taken: [] };

/**
 * A recursive delete refused for something inside the tree says first what it deletes: `rm -rf ~` loses the whole
 * home at once, which is the harm; the rule that caught it (a key inside) is the evidence, said after.
 */
function wholeTree(f: Finding): Finding {
  if (f.action.name !== "filesystem.delete" || f.effect === "allow" || f.source !== "rule") return f;
  const roots = f.action.targets.filter((t) => t.endsWith("/**")).map((t) => t.slice(0, -3) || "/");
  if (roots.length === 0) return f;
  return { ...f, reason: `it deletes all of ${roots.join(", ")} at once, and ${f.reason}` };
}

/** The name a person's seat is decided under is the seam's to give: an agent calling itself `person` is not one. */
function notPerson(agent: string | undefined): string | undefined {
  return agent === PERSON ? `${PERSON} (named so by an agent)` : agent;
}

/**
 * The deciding action in the environment whose verdict won. A finding of memnox's own (boundary, probation) holds
 * in every environment and wins only where no rule was as strict, so any of them replays it: the first is taken.
 */
function decidingRequest(requests: readonly PolicyRequest[], combined: Combined): PolicyRequest {
  const { action, environment } = combined.deciding;
  const found =
    requests.find((p) => p.action === action && (environment === undefined || p.environment === environment)) ??
    requests[0];
  if (!found) throw new Error("a decision needs at least one action");
  return found;
}

const WRITES = new Set(["filesystem.write", "filesystem.delete"]);

/** The absolute paths a call writes or deletes: what a lease is checked and taken on. */
export function writtenPaths(actions: readonly Action[]): string[] {
  const out = new Set<string>();
  for (const a of actions) {
    if (!WRITES.has(a.name)) continue;
    for (const t of a.targets) if (t.startsWith("/")) out.add(t);
  }
  return [...out];
}

function settingsOrUndefined(deps: GateDeps): Settings | undefined {
  try {
    return deps.settings();
  } catch {
    return undefined;
  }
}

/**
 * A target the line leaves open that could be a protected or secret path is treated as that path; when nothing at
 * all is known of it (`$f`, `$(cmd)`), a refusal it could meet asks a person instead, so every `cat "$f"` is not
 * refused outright, yet none goes through unseen.
 */
function couldMatch(action: Action, p: PossibleTarget, found: readonly Finding[]): Finding[] {
  const hit = found
    .filter((f) => f.effect !== "allow" && f.source !== "ungoverned" && !f.verdict?.observeOnly)
    .sort((a, b) => effectRank(b.effect) - effectRank(a.effect))[0];
  if (!hit) return [];
  const effect = p.bare && hit.effect === "deny" ? "ask" : hit.effect;
  const could = hit.action.targets[0] ?? p.could[0];
  const tail = effect === hit.effect ? "it is treated as that file" : "a person is asked rather than it being refused";
  return [
    {
      ...hit,
      action,
      effect,
      source: "could-match",
      reason: `\`${p.target}\` could be ${could}, and memnox cannot tell which file it names, so ${tail}: ${hit.reason.replace(/^memnox refuses this: /, "")}`,
    },
  ];
}

function resolve(req: GateRequest, deps: GateDeps): Resolution {
  if (req.action) return { actions: [req.action], normalized: req.action.name, unknown: [] };
  return deps.resolve(req);
}

function policyRequest(req: GateRequest, w: World, action: Action, environment: string | undefined): PolicyRequest {
  const branch = action.branch || w.branch;
  const amount = w.rules.usesAmount ? statedAmount(action) : undefined;
  return {
    action,
    cwd: req.cwd,
    scope: scopeFit(w.scope, action, environment, w.boundary?.exempt ?? []),
    ...(w.agent ? { agent: w.agent } : {}),
    ...(w.role ? { role: w.role } : {}),
    ...(environment ? { environment } : {}),
    ...(branch ? { branch } : {}),
    ...w.runs,
    ...(amount !== undefined ? { amount } : {}),
  };
}

/** The principal, model and provider a rule can name, read once per call from their sources. */
const runsRead = new WeakMap<CallerFacts, Map<string, Pick<PolicyRequest, "principal" | "model" | "provider">>>();
function callerRuns(
  c: CallerFacts,
  agent: string | undefined,
  cwd: string,
): Pick<PolicyRequest, "principal" | "model" | "provider"> {
  let byKey = runsRead.get(c);
  if (!byKey) {
    byKey = new Map();
    runsRead.set(c, byKey);
  }
  const key = `${agent ?? ""}\0${cwd}`;
  let got = byKey.get(key);
  if (!got) {
    const principal = c.principal?.();
    const r = c.runs?.(agent, cwd) ?? {};
    got = {
      ...(principal ? { principal } : {}),
      ...(r.model ? { model: r.model } : {}),
      ...(r.provider ? { provider: r.provider } : {}),
    };
    byKey.set(key, got);
  }
  return got;
}

/**
 * The size a call states: an `amount` argument (an MCP tool's), or `--amount N` / `--amount=N` / `amount=N` among a
 * command's words (`stripe … -d amount=2000`). A call that states none is unsized, and a ceiling still covers it.
 */
export function statedAmount(action: Action): number | undefined {
  const direct = action.arguments.amount?.[0];
  if (direct !== undefined && Number.isFinite(Number(direct))) return Number(direct);
  const words = [...(action.arguments.argv ?? []), ...(action.arguments.args ?? [])];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? "";
    const m = /^(?:--amount=|amount=)(-?\d+(?:\.\d+)?)$/.exec(w);
    if (m?.[1]) return Number(m[1]);
    if (w === "--amount" && /^-?\d+(?:\.\d+)?$/.test(words[i + 1] ?? "")) return Number(words[i + 1]);
  }
  return undefined;
}

// Both ends of `evaluate`: the seam turns a GateRequest into non-secret facts, the daemon turns them back into
// the GateRequest and GateDeps decide() reads, so the daemon runs the very same decide() on the very same facts.
import type { Action } from "../../core/action.ts";
import type { Resolution } from "../../resolve/types.ts";
import { rawArguments } from "../call.ts";
import type { CallerFacts, Instant } from "../deps.ts";
import { pushFlagsOf } from "../push.ts";
import type { GateAnswer, GateRequest } from "../types.ts";
import type { EvaluateRequest, WireAction } from "./protocol.ts";

interface SeamFacts {
  readonly version: string;
  readonly caller: CallerFacts;
  readonly resolution: Resolution;
  readonly digest: (raw: string) => string;
  readonly at: Instant;
  readonly policies?: string | undefined;
  /** TZ as the seam has it. */
  readonly tz?: string | undefined;
}

function wire(a: Action): WireAction {
  return {
    name: a.name,
    class: a.class,
    targets: a.targets,
    ...(a.branch !== undefined ? { branch: a.branch } : {}),
    ...(a.cli !== undefined ? { cli: a.cli } : {}),
    ...(a.shown !== undefined ? { shown: a.shown } : {}),
    ...(a.cwd !== undefined ? { cwd: a.cwd } : {}),
    ...(a.possible?.length ? { possible: a.possible } : {}),
    ...(a.name === "git.push" ? { pushFlags: pushFlagsOf(a) } : {}),
    args: Object.keys(a.arguments).length > 0,
  };
}

/** The seam's half: every fact decide() would read in this process, computed here, arguments left out. */
export function evaluateRequest(req: GateRequest, f: SeamFacts): EvaluateRequest {
  const c = f.caller;
  const session = req.session ?? c.session;
  const boundary = c.boundary(req.cwd, session);
  const branch = c.branch(req.cwd);
  return {
    method: "evaluate",
    version: f.version,
    surface: req.surface,
    cwd: req.cwd,
    canAsk: req.canAsk,
    ...(req.walled ? { walled: true as const } : {}),
    ...(req.underWall ? { underWall: true as const } : {}),
    ...(req.seat ? { seat: req.seat } : {}),
    ...(req.agent !== undefined ? { agent: req.agent } : {}),
    ...(req.session !== undefined ? { session: req.session } : {}),
    caller: {
      ...(c.agent !== undefined ? { agent: c.agent } : {}),
      ...(c.session !== undefined ? { session: c.session } : {}),
      ...(c.environments !== undefined ? { environments: c.environments } : {}),
      ...(c.role !== undefined ? { role: c.role } : {}),
      ...(c.scope !== undefined ? { scope: c.scope } : {}),
    },
    ...(branch !== undefined ? { branch } : {}),
    ...(boundary !== undefined ? { boundary } : {}),
    ...(f.policies ? { policies: f.policies } : {}),
    given: req.action ? "action" : "resolution",
    actions: f.resolution.actions.map(wire),
    normalized: f.resolution.normalized,
    unknown: f.resolution.unknown,
    ...(f.resolution.parseError !== undefined ? { parseError: f.resolution.parseError } : {}),
    rawArguments: req.rawArguments !== undefined,
    ...argsOf(f.digest, rawArguments(req)),
    ...(req.refusal !== undefined ? { refusal: req.refusal } : {}),
    ...(req.carries && req.carries.length > 0 ? { carries: req.carries } : {}),
    ...(req.handedDown !== undefined ? { handedDown: req.handedDown } : {}),
    // The instant alone: reading the local offset costs milliseconds, and only a time window needs it.
    at: { epochMs: f.at.epochMs },
    ...(f.tz ? { tz: f.tz } : {}),
  };
}

/** The keyed digest; inside a wall, where the key is unreadable (an empty digest), the arguments for the daemon. */
function argsOf(digest: (raw: string) => string, raw: string): { argsDigest: string; argsRaw?: string } {
  const argsDigest = digest(raw);
  return argsDigest === "" && raw !== "" ? { argsDigest, argsRaw: raw } : { argsDigest };
}

function actionOf(w: WireAction): Action {
  return {
    name: w.name,
    class: w.class,
    targets: w.targets,
    arguments: w.pushFlags?.length ? { argv: [...w.pushFlags] } : {},
    ...(w.branch !== undefined ? { branch: w.branch } : {}),
    ...(w.cli !== undefined ? { cli: w.cli } : {}),
    ...(w.shown !== undefined ? { shown: w.shown } : {}),
    ...(w.cwd !== undefined ? { cwd: w.cwd } : {}),
    ...(w.possible?.length ? { possible: w.possible } : {}),
  };
}

/** The daemon's half: the request decide() sees. Its command text is never read, since `resolution` answers. */
export function gateRequestOf(r: EvaluateRequest): GateRequest {
  const first = r.actions[0];
  return {
    surface: r.surface,
    cwd: r.cwd,
    canAsk: r.canAsk,
    ...(r.walled ? { walled: true as const } : {}),
    ...(r.underWall ? { underWall: true as const } : {}),
    ...(r.seat === "person" ? { seat: "person" as const } : {}),
    ...(r.agent !== undefined ? { agent: r.agent } : {}),
    ...(r.session !== undefined ? { session: r.session } : {}),
    ...(r.given === "action" && first ? { action: actionOf(first) } : { command: "" }),
    ...(r.rawArguments ? { rawArguments: "" } : {}),
    ...(r.refusal !== undefined ? { refusal: r.refusal } : {}),
    // The daemon never has the call's text: what it carries is what the seam found, or nothing.
    carries: r.carries ?? [],
    ...(r.handedDown !== undefined ? { handedDown: r.handedDown } : {}),
  };
}

export function resolutionOf(r: EvaluateRequest): Resolution {
  return {
    actions: r.actions.map(actionOf),
    normalized: r.normalized,
    unknown: r.unknown,
    ...(r.parseError !== undefined ? { parseError: r.parseError } : {}),
  };
}

/** The caller's facts as the seam computed them: boundary and branch already known. */
export function callerOf(r: EvaluateRequest): CallerFacts {
  const c = r.caller;
  return {
    ...(c.agent !== undefined ? { agent: c.agent } : {}),
    ...(c.session !== undefined ? { session: c.session } : {}),
    ...(c.environments !== undefined ? { environments: c.environments } : {}),
    ...(c.role !== undefined ? { role: c.role } : {}),
    ...(c.scope !== undefined ? { scope: c.scope } : {}),
    boundary: () => r.boundary,
    branch: () => r.branch,
  };
}

/** The daemon answered on actions without arguments; the seam hands its own (with them) to what follows. */
export function withLocalActions(answer: GateAnswer, local: readonly Action[]): GateAnswer {
  const same = answer.actions.length === local.length && answer.actions.every((a, i) => a.name === local[i]?.name);
  return same ? { ...answer, actions: local } : answer;
}

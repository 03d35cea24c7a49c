// Everything one call is judged on, read in one pass in a fixed order before anything is judged: the instant, the
// settings, the stop, the world the rules see, the ledger's counts and what a person already let through. A value:
// `judge` reads nothing else, so the same facts give the same ruling (and a dry run is these facts, never committed).
import { describeError } from "../core/errors.ts";
import type { TypedCode } from "../state/allow-once.ts";
import type { ClearedCall, HandedDown } from "../state/cleared.ts";
import type { Hold } from "../state/pending.ts";
import type { StopRecord } from "../state/stop.ts";
import { type Assessment, assessWorld, gatherWorld, type World } from "./assess.ts";
import { rawArguments } from "./call.ts";
import type { GateDeps, Instant, Settings } from "./deps.ts";
import { cleared, grantDigests, posed, rateQueries, type Spent } from "./posed.ts";
import type { GateRequest } from "./types.ts";

/** What the pending state says of the deciding call, read after the rules (and only what the verdict can use). */
export interface Pending {
  /** A person's grant this call may spend. */
  readonly grant?: Hold;
  /** A mark another seam left for this very call in this session. */
  readonly mark?: ClearedCall;
  /** What the seam above handed down for this directory. */
  readonly handedDown?: HandedDown;
  /** A person's recent no to this very call. */
  readonly refused?: Hold;
  /** A refusal's code a person typed for this call. */
  readonly code?: TypedCode;
}

export interface GateFacts {
  readonly at: Instant;
  /** The settings in force; undefined when config.toml could not be read (`unreadable` says why). */
  readonly settings: Settings | undefined;
  readonly unreadable?: string;
  /** A workspace this machine follows has not confirmed its bundle lately: every row is marked stale. */
  readonly stale: boolean;
  readonly stop: StopRecord | undefined;
  /** The caller's own agent and session, as its environment names them. */
  readonly caller: { readonly agent?: string; readonly session?: string };
  /** What the rules and checks read; absent when the call is settled before them (stopped, off, refused by its seam). */
  readonly world?: World;
  /** The gathering itself failed: judged as a question memnox cannot answer. */
  readonly failed?: string;
  /** The rate limits' counts, as far as read; absent when nothing is counted (a dry run, or no ledger). */
  readonly spent?: Spent;
  readonly pending: Pending;
  /** What a refused read of a credential would have opened, by path (the scan's counterfactual). */
  readonly reach: Readonly<Record<string, string>>;
  /** The keyed digests the ruling names, by the text they were taken over (the text never leaves this process). */
  readonly digests: ReadonlyMap<string, string>;
  readonly holdTtlMs: number;
}

/** The facts, and the assessment gathering them needed (judging it again gives the same one). */
export interface Gathered {
  readonly facts: GateFacts;
  readonly assessed?: Assessment;
}

/**
 * Reads every fact of one call, each once, in this order: the instant, stale, settings, (the seam's refusal ends it),
 * stop, (off ends it), the world, the rules' counts, digests, the pending state, the scan's reach. A dry run reads
 * no count, no history and nothing a person let through.
 */
export function gather(req: GateRequest, deps: GateDeps): Gathered {
  const at = deps.now();
  const c = deps.caller;
  const base = {
    at,
    stale: deps.stale?.(at.epochMs) === true,
    caller: { ...(c.agent !== undefined ? { agent: c.agent } : {}), ...(c.session ? { session: c.session } : {}) },
    pending: {},
    reach: {},
    digests: new Map<string, string>(),
    holdTtlMs: deps.holdTtlMs,
    stop: undefined,
  };
  const digests = base.digests;
  const take = (raw: string) => {
    if (!digests.has(raw)) digests.set(raw, deps.digest(raw));
  };
  let settings: Settings;
  try {
    take(rawArguments(req));
    settings = deps.settings();
  } catch (e) {
    return done({ ...base, settings: undefined, unreadable: describeError(e) });
  }
  if (req.refusal !== undefined) return done({ ...base, settings });
  const stop = deps.stop(at.epochMs);
  if (stop || settings.mode === "off") return done({ ...base, settings, stop });
  try {
    const world = gatherWorld(req, deps, at, settings);
    const assessed = assessWorld(req, world, at);
    for (const a of [...world.resolution.actions, assessed.combined.deciding.action])
      for (const raw of grantDigests(a, req)) take(raw);
    const queries = rateQueries(assessed.combined, assessed.agent, at);
    const spent = deps.proceeded && !deps.dry ? readSpent(queries, deps.proceeded) : undefined;
    const mode = settings.seamModes?.[req.surface] ?? settings.mode;
    const p = posed(req, mode, assessed, spent, at, (raw) => digests.get(raw) ?? "");
    const pending = deps.dry || req.ran ? {} : readPending(req, deps, assessed.session, p, at.epochMs);
    const facts = { ...base, settings, stop, world, ...(spent ? { spent } : {}), pending };
    const reach = p.combined.wouldEffect === "deny" ? readReach(assessed, deps) : {};
    return { facts: Object.freeze({ ...facts, reach }), assessed };
  } catch (e) {
    return done({ ...base, settings, stop, failed: describeError(e) });
  }
}

function done(facts: GateFacts): Gathered {
  return { facts: Object.freeze(facts) };
}

function readSpent(queries: ReturnType<typeof rateQueries>, proceeded: NonNullable<GateDeps["proceeded"]>): string[][] {
  const out: string[][] = [];
  for (const q of queries) {
    const spent = [...proceeded(q)];
    out.push(spent);
    if (spent[q.limit - 1] !== undefined) break;
  }
  return out;
}

/** Only what the verdict can turn on: an ask reads grants, marks, what was handed down and a no; a rule's deny, codes. */
function readPending(
  req: GateRequest,
  deps: GateDeps,
  session: string | undefined,
  p: ReturnType<typeof posed>,
  nowMs: number,
): Pending {
  const asks = p.effect === "ask";
  const byRule = p.combined.deciding.source === "rule";
  if (!asks && !(p.effect === "deny" && byRule)) return {};
  const grant = asks ? deps.grant(p.parts, session, nowMs) : undefined;
  const mark = grant || !session ? undefined : deps.clearedCall(session, cleared(p.parts), nowMs);
  const handedDown = asks && req.handedDown ? deps.handedDown(req.handedDown, req.cwd, nowMs) : undefined;
  const refused = asks && session ? deps.refusedBefore?.(p.parts, session, nowMs) : undefined;
  // A person's no turns the ask into a refusal by the rule, which a typed code can still let through.
  const code = byRule && (!asks || refused) ? deps.allowOnce?.(p.parts, session, nowMs) : undefined;
  return {
    ...(grant ? { grant } : {}),
    ...(mark ? { mark } : {}),
    ...(handedDown ? { handedDown } : {}),
    ...(refused ? { refused } : {}),
    ...(code ? { code } : {}),
  };
}

/** The scan's word on each credential a refused read names. */
function readReach(a: Assessment, deps: GateDeps): Record<string, string> {
  const reach = deps.reach;
  if (!reach) return {};
  const out: Record<string, string> = {};
  for (const r of a.requests) {
    if (r.action.name !== "filesystem.read") continue;
    for (const t of r.action.targets) {
      const words = reach(t);
      if (words !== undefined) out[t] = words;
    }
  }
  return out;
}

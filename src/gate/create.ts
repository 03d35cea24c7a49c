// createGate(ctx): the one GateServices every seam uses. It asks the daemon first (one round trip on facts the
// seam computed) and decides in process on the same files when no daemon answers: same verdict, other latency.
// This module loads only what asking needs (the resolver, the caller's facts, the socket); the rule loader, the
// ledger and the state files come with ./local.ts, imported the first time this process must decide or write.
import { credentialShapes, withShownTargets } from "../core/secrets.ts";
import { WALL_VAR } from "../core/wall.ts";
import { realOr } from "../io/real.ts";
import { repoRoot } from "../io/repo.ts";
import { createArgsDigest, tolerantDigest } from "../ledger/digest.ts";
import { newEventId } from "../ledger/normalize.ts";
import type { Context } from "../ports/context.ts";
import type { Resolution } from "../resolve/types.ts";
import { handDown } from "../state/cleared.ts";
import { callText } from "./call.ts";
import { callerFacts } from "./caller.ts";
import { settled } from "./given.ts";
import type { LocalGate, Shared } from "./local.ts";
import { outcomeRow } from "./outcome-row.ts";
import { CALL_TIMEOUT_MS, daemonClient } from "./remote/client.ts";
import { evaluateRequest, withLocalActions } from "./remote/evaluate.ts";
import { lazyInstant, seamResolver } from "./resolution.ts";
import { sessionStart } from "./sessions.ts";
import type { BriefingRequest, GateAnswer, GateRequest, GateServices } from "./types.ts";

const HANDED_DOWN_MS = 10 * 60_000;

export interface GateOptions {
  /** False for a hook face run by hand from an agent's seat: it answers as the gate says and writes nothing. */
  readonly recording?: boolean;
}

export function createGate(ctx: Context, opts: GateOptions = {}): GateServices {
  const paths = ctx.paths;
  const daemon = daemonClient(paths.sock);
  const walled = Boolean(ctx.env[WALL_VAR]);
  const recording = opts.recording !== false;
  // Inside a kernel wall the key is unreadable: the digest is left to the daemon (see evaluateRequest).
  const digest = walled ? tolerantDigest(createArgsDigest(paths)) : createArgsDigest(paths);
  const resolver = seamResolver(ctx);
  // A request the daemon sent back (an argument rule applies) is not resolved (nor expanded) twice.
  const resolved = new WeakMap<GateRequest, Resolution>();
  const resolve = (req: GateRequest): Resolution => {
    let r = resolved.get(req);
    if (!r) {
      const given = resolver.resolve(req);
      const actions = given.actions.map((a) => settled(a, req.cwd, paths.mcp));
      r = { ...given, actions: withShownTargets(actions, callText(req)) };
      resolved.set(req, r);
    }
    return r;
  };
  const caller = callerFacts(ctx);
  const shared: Shared = { daemon, walled, recording, digest, resolver, resolve, caller };
  let loading: Promise<LocalGate> | undefined;
  const local = () => {
    loading ??= import("./local.ts").then((m) => m.localGate(ctx, shared));
    return loading;
  };

  /** The daemon's verdict, or undefined when this process must decide (no daemon, or a rule reads arguments). */
  const askDaemon = async (req: GateRequest): Promise<GateAnswer | undefined> => {
    // The daemon writes the row of what it answers: a call that must record nothing is decided here.
    if (!daemon.reachable || !recording) return undefined;
    let resolution: Resolution;
    try {
      resolution = req.action ? { actions: [req.action], normalized: req.action.name, unknown: [] } : resolve(req);
    } catch {
      return undefined;
    }
    const facts = {
      version: ctx.version,
      caller,
      resolution,
      digest,
      at: lazyInstant(ctx.clock.now()),
      policies: ctx.env.MEMNOX_POLICIES,
      tz: ctx.env.TZ,
    };
    const reply = await daemon.call(evaluateRequest(req, facts), { timeoutMs: CALL_TIMEOUT_MS });
    if (!reply || !("answer" in reply)) return undefined;
    return withLocalActions(reply.answer, resolution.actions);
  };

  const briefingFromDaemon = async (req: BriefingRequest, repository: string | undefined) => {
    if (!daemon.reachable) return undefined;
    const reply = await daemon.call(
      {
        method: "briefing",
        version: ctx.version,
        cwd: req.cwd,
        ...(req.agent !== undefined ? { agent: req.agent } : {}),
        ...(ctx.env.MEMNOX_POLICIES ? { policies: ctx.env.MEMNOX_POLICIES } : {}),
        ...(repository ? { repository } : {}),
        at: ctx.clock.now(),
      },
      { timeoutMs: CALL_TIMEOUT_MS },
    );
    return reply && "briefing" in reply ? reply.briefing : undefined;
  };

  return {
    async decide(asked) {
      // Rules, targets and the boundary see the real working directory, not the symlink an agent stands in.
      const cwd = realOr(asked.cwd);
      const given =
        asked.action &&
        withShownTargets([settled(resolver.expand(asked.action, cwd), cwd, paths.mcp)], callText(asked))[0];
      // The raw text stays in this process; only the kinds of credential it carries go on with the request.
      const carries = asked.carries ?? credentialShapes(callText(asked));
      const req = { ...asked, cwd, carries, ...(given ? { action: given } : {}) };
      // A call that already ran is only recorded: decided here, where nothing can be held or cleared for it.
      const remote = req.ran ? undefined : await askDaemon(req);
      if (remote) return remote;
      return (await local()).decide(req);
    },
    async awaitHold(id, signal) {
      const reply = await daemon.call({ method: "hold", holdId: id }, signal ? { signal } : {});
      if (reply) return reply.outcome;
      if (signal?.aborted) return "unattended";
      return (await local()).awaitHold(id, signal);
    },
    handDown(answer, cwd) {
      const actions = answer.actions.filter((a) => a.name !== "shell.execute").map((a) => a.name);
      if (actions.length === 0) return undefined;
      const now = ctx.clock.now();
      return handDown(
        paths.pending,
        {
          actions,
          root: repoRoot(realOr(cwd)) ?? realOr(cwd),
          surface: "interceptor",
          by: answer.holdId ?? "a person at the terminal",
          // One call's life: long enough for the push it starts, never a standing pass.
          until: new Date(now + HANDED_DOWN_MS).toISOString(),
        },
        now,
      );
    },
    async recordOutcome(id, outcome) {
      // A call decided in another process (the pre-tool hook, the daemon), ended well: the daemon writes its outcome
      // beside the decision, and this process loads no ledger. A failure may trip the breaker, which is read here.
      const elsewhere = loading === undefined && recording && (outcome.exitCode ?? 0) === 0 && daemon.reachable;
      if (elsewhere) {
        const event = { ...outcomeRow(id, outcome, new Date(ctx.clock.now()).toISOString()), id: newEventId() };
        const reply = await daemon.call({ method: "record", event, inherit: true }, { timeoutMs: CALL_TIMEOUT_MS });
        if (reply?.eventId === event.id) return;
      }
      return (await local()).recordOutcome(id, outcome);
    },
    recordAnswer: async (answer, request, reply) => (await local()).recordAnswer(answer, request, reply),
    pauseSession: async (session, reason, surface) => (await local()).pauseSession(session, reason, surface),
    markWary: async (session, reason) => (await local()).markWary(session, reason),
    recordForgedOutcome: async (f) => (await local()).recordForgedOutcome(f),
    async briefing(req) {
      const start = req.session ? sessionStart(paths, req.session) : undefined;
      const repository = ctx.env.MEMNOX_PROJECT_ROOT || start?.root || repoRoot(req.cwd);
      // A running daemon holds the rule sets already read: it briefs, and this process reads no rule file.
      const remote = await briefingFromDaemon(req, repository);
      return remote ?? (await local()).briefing(req, repository);
    },
    recordSession: async (ev) => (await local()).recordSession(ev),
  };
}

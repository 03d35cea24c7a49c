// createGate(ctx): the one GateServices every seam uses. It asks the daemon first (one round trip on facts the
// seam computed) and decides in process on the same files when no daemon answers: same verdict, other latency.
import type { EventInput, Surface } from "../core/event.ts";
import { credentialShapes, withShownTargets } from "../core/secrets.ts";
import { WALL_VAR } from "../core/wall.ts";
import { realOr } from "../io/real.ts";
import { repoRoot } from "../io/repo.ts";
import { createArgsDigest, tolerantDigest } from "../ledger/digest.ts";
import type { Context } from "../ports/context.ts";
import type { Resolution } from "../resolve/types.ts";
import { handDown, unclearDecision } from "../state/cleared.ts";
import { personName } from "../state/identity.ts";
import { releaseSession } from "../state/leases.ts";
import { addFact } from "../state/overlays.ts";
import { answerHold, createHold } from "../state/pending.ts";
import { briefingFor } from "./briefing.ts";
import { callText } from "./call.ts";
import { decide } from "./decide.ts";
import { settled } from "./given.ts";
import { awaitHold } from "./holds.ts";
import { PAUSE_MS, tripBreaker } from "./notice/breaker.ts";
import { CALL_TIMEOUT_MS, daemonClient } from "./remote/client.ts";
import { evaluateRequest, withLocalActions } from "./remote/evaluate.ts";
import { rowSink } from "./rows.ts";
import { noteSessionStart, sessionStart } from "./sessions.ts";
import type { BriefingRequest, GateAnswer, GateRequest, GateServices } from "./types.ts";
import { fileReaders, gateDeps, HOLD_TTL_MS } from "./wiring.ts";

export { type DepsSink, gateDeps, type LoadingGateDeps } from "./wiring.ts";

const WARY_MS = 30 * 60_000;
const HANDED_DOWN_MS = 10 * 60_000;

interface Decided {
  readonly surface: Surface;
  readonly operation: string;
  readonly session?: string;
  readonly agent?: string;
}

export interface GateOptions {
  /** False for a hook face run by hand from an agent's seat: it answers as the gate says and writes nothing. */
  readonly recording?: boolean;
}

export function createGate(ctx: Context, opts: GateOptions = {}): GateServices {
  const paths = ctx.paths;
  const daemon = daemonClient(paths.sock);
  const walled = Boolean(ctx.env[WALL_VAR]);
  const live = rowSink(paths, (t) => ctx.io.err(t), daemon, walled);
  const rows: typeof live =
    opts.recording === false ? { ...live, record: () => "", keepRuleSet: () => {}, flush: async () => {} } : live;
  // Inside a kernel wall the key is unreadable: the digest is left to the daemon (see evaluateRequest).
  const digest = walled ? tolerantDigest(createArgsDigest(paths)) : createArgsDigest(paths);
  const kept = new Set<string>();
  const decided = new Map<string, Decided>();
  // One reader of each state file for the decisions and the briefings this gate gives (config.toml read once).
  const read = fileReaders(paths);
  const base = gateDeps(
    ctx,
    {
      dry: opts.recording === false,
      record: (e) => {
        const id = rows.record(e);
        decided.set(id, { surface: e.surface, operation: e.operation, ...pick(e) });
        return id;
      },
      digest,
      keepRuleSet: (hash, sources) => {
        if (kept.has(hash)) return;
        kept.add(hash);
        rows.keepRuleSet(hash, sources);
      },
      proceeded: (q) => rows.proceeded(q),
      read: (fn, otherwise) => rows.read(fn, otherwise),
    },
    { read },
  );
  // A request the daemon sent back (an argument rule applies) is not resolved (nor expanded) twice.
  const resolved = new WeakMap<GateRequest, Resolution>();
  const deps = {
    ...base,
    resolve: (req: GateRequest) => {
      let r = resolved.get(req);
      if (!r) {
        const given = base.resolve(req);
        const actions = given.actions.map((a) => settled(a, req.cwd, paths.mcp));
        r = { ...given, actions: withShownTargets(actions, callText(req)) };
        resolved.set(req, r);
      }
      return r;
    },
  };
  const caller = deps.caller;
  const nowIso = () => new Date(ctx.clock.now()).toISOString();

  /** The daemon's verdict, or undefined when this process must decide (no daemon, or a rule reads arguments). */
  const askDaemon = async (req: GateRequest): Promise<GateAnswer | undefined> => {
    // The daemon writes the row of what it answers: a call that must record nothing is decided here.
    if (!daemon.reachable || opts.recording === false) return undefined;
    let resolution: Resolution;
    try {
      resolution = req.action ? { actions: [req.action], normalized: req.action.name, unknown: [] } : deps.resolve(req);
    } catch {
      return undefined;
    }
    const facts = {
      version: ctx.version,
      caller,
      resolution,
      digest,
      at: deps.now(),
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

  const write = async (...args: Parameters<typeof rows.record>) => {
    const id = rows.record(...args);
    await rows.flush();
    return id;
  };
  const trip = async (eventId: string, surface: Surface) => {
    const io = { overlays: paths.overlays, read: rows.read, record: (e: EventInput) => rows.record(e) };
    if (tripBreaker(io, eventId, surface, ctx.clock.now())) await rows.flush();
  };

  return {
    async decide(asked) {
      // Rules, targets and the boundary see the real working directory, not the symlink an agent stands in.
      const cwd = realOr(asked.cwd);
      const given =
        asked.action && withShownTargets([settled(base.expand(asked.action, cwd), cwd, paths.mcp)], callText(asked))[0];
      // The raw text stays in this process; only the kinds of credential it carries go on with the request.
      const carries = asked.carries ?? credentialShapes(callText(asked));
      const req = { ...asked, cwd, carries, ...(given ? { action: given } : {}) };
      // A call that already ran is only recorded: decided here, where nothing can be held or cleared for it.
      const remote = req.ran ? undefined : await askDaemon(req);
      if (remote) return remote;
      const answer = await decide(req, deps);
      await rows.flush();
      // A refusal repeated is a way of failing: the daemon counts the ones it decides, this process its own.
      if (answer.effect === "deny" && answer.eventId) await trip(answer.eventId, req.surface);
      return answer;
    },
    async awaitHold(id, signal) {
      const reply = await daemon.call({ method: "hold", holdId: id }, signal ? { signal } : {});
      if (reply) return reply.outcome;
      if (signal?.aborted) return "unattended";
      return awaitHold(paths.pending, id, ctx.clock, signal);
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
      const p = decided.get(id);
      const written = await write(
        {
          kind: "outcome",
          occurredAt: nowIso(),
          surface: p?.surface ?? "hook",
          operation: p?.operation ?? "outcome",
          parent: id,
          ...(p?.session ? { session: p.session } : {}),
          ...(p?.agent ? { agent: p.agent } : {}),
          ...(outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {}),
          ...(outcome.durationMs !== undefined ? { durationMs: Math.round(outcome.durationMs) } : {}),
          ...(outcome.note ? { detail: { note: outcome.note } } : {}),
        },
        p ? {} : { inherit: true },
      );
      if (outcome.exitCode !== undefined && outcome.exitCode !== 0) await trip(written, p?.surface ?? "hook");
    },
    async recordAnswer(answer, request, reply) {
      const by = personName(ctx.env);
      const session = request.session ?? caller.session;
      const agent = request.agent ?? caller.agent;
      if (!reply.grant && session && answer.eventId) unclearDecision(paths.pending, session, answer.eventId);
      if (reply.grant && reply.scope === "session" && answer.decided) {
        // A session grant is a hold answered at once for the session, so later calls claim it by fingerprint.
        const hold = createHold(paths.pending, {
          surface: request.surface,
          agent,
          session,
          action: answer.decided.action,
          target: answer.decided.target,
          binding: answer.decided.binding,
          environment: answer.decided.environment,
          reason: answer.reason,
          rule: answer.rule,
          nowMs: ctx.clock.now(),
          ttlMs: HOLD_TTL_MS,
        });
        answerHold(paths.pending, hold.id, { by, grant: true, nowMs: ctx.clock.now(), scope: "session" });
      }
      await write({
        kind: "answer",
        occurredAt: nowIso(),
        surface: request.surface,
        operation: answer.decided?.action ?? request.action?.name ?? "shell.execute",
        effect: reply.grant ? "allow" : "deny",
        reason: `${by} ${reply.grant ? "allowed" : "refused"} it ${reply.via === "terminal" ? "at the terminal" : "in the agent's own prompt"}${reply.scope === "session" ? " for the rest of the session" : ""}`,
        cwd: request.cwd,
        ...(answer.eventId ? { parent: answer.eventId } : {}),
        ...(session ? { session } : {}),
        ...(agent ? { agent } : {}),
        detail: { by, via: reply.via, scope: reply.scope },
      });
    },
    async pauseSession(session, reason, surface) {
      const now = ctx.clock.now();
      addFact(paths.overlays, { kind: "paused", subject: session, reason, by: "memnox", nowMs: now, forMs: PAUSE_MS });
      await write({ kind: "state", occurredAt: nowIso(), surface, operation: "memnox.paused", session, reason });
    },
    async markWary(session, reason) {
      addFact(paths.overlays, { kind: "wary", subject: session, reason, nowMs: ctx.clock.now(), forMs: WARY_MS });
      await write({
        kind: "state",
        occurredAt: nowIso(),
        surface: "mcp",
        operation: "memnox.wary",
        session,
        reason,
        detail: { forMinutes: WARY_MS / 60_000 },
      });
    },
    async recordForgedOutcome(f) {
      await write({
        kind: "state",
        occurredAt: nowIso(),
        surface: f.surface,
        operation: "memnox.forged-outcome",
        parent: f.decision,
        cwd: f.cwd,
        ...(f.session ? { session: f.session } : {}),
        ...(f.agent ? { agent: f.agent } : {}),
        reason: `an after-tool event reported that a call memnox refused ran (${f.claimed}); a refused call never runs, so it is recorded as a finding on the session, never as that call's outcome`,
        detail: { refused: f.decision },
      });
    },
    async briefing(req) {
      const start = req.session ? sessionStart(paths, req.session) : undefined;
      const repository = ctx.env.MEMNOX_PROJECT_ROOT || start?.root || repoRoot(req.cwd);
      // A running daemon holds the rule sets already read: it briefs, and this process reads no rule file.
      const remote = await briefingFromDaemon(req, repository);
      if (remote) return remote;
      return briefingFor(ctx, req, {
        config: read.config(),
        stop: deps.stop(ctx.clock.now()),
        rules: deps.rules(req.cwd),
        repository,
      });
    },
    async recordSession(ev) {
      if (ev.kind === "start" && ev.session) {
        noteSessionStart(paths, { session: ev.session, agent: ev.agent, cwd: ev.cwd, startedAt: nowIso() });
      }
      // A session that ended holds nothing: its leases go with it.
      if (ev.kind === "end" && ev.session) releaseSession(paths.leases, ev.session);
      await write({
        kind: "session",
        occurredAt: nowIso(),
        surface: ev.surface,
        operation: `session.${ev.kind}`,
        agent: ev.agent,
        cwd: ev.cwd,
        ...(ev.session ? { session: ev.session } : {}),
        ...(ev.detail ? { detail: { how: ev.detail } } : {}),
      });
    },
  };
}

function pick(e: { session?: string; agent?: string }): { session?: string; agent?: string } {
  return { ...(e.session ? { session: e.session } : {}), ...(e.agent ? { agent: e.agent } : {}) };
}

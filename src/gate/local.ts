// The gate in this process: decide() on memnox's files with rows written here (or handed to the daemon to write),
// and the services that record. createGate loads it only when the daemon does not answer, or for a row to write.
import type { EventInput, Surface } from "../core/event.ts";
import type { Context } from "../ports/context.ts";
import type { Resolution } from "../resolve/types.ts";
import { unclearDecision } from "../state/cleared.ts";
import { personName } from "../state/identity.ts";
import { releaseSession } from "../state/leases.ts";
import { addFact } from "../state/overlays.ts";
import { answerHold, createHold } from "../state/pending.ts";
import { briefingFor } from "./briefing.ts";
import { decide } from "./decide.ts";
import type { CallerFacts } from "./deps.ts";
import { awaitHold } from "./holds.ts";
import { PAUSE_MS, tripBreaker } from "./notice/breaker.ts";
import { type DecidedHere, outcomeRow } from "./outcome-row.ts";
import type { DaemonClient } from "./remote/client.ts";
import type { SeamResolver } from "./resolution.ts";
import { rowSink } from "./rows.ts";
import { noteSessionStart } from "./sessions.ts";
import type { Briefing, BriefingRequest, GateRequest, GateServices } from "./types.ts";
import { fileReaders, gateDeps, HOLD_TTL_MS } from "./wiring.ts";

const WARY_MS = 30 * 60_000;

/** What createGate already built and this process shares: one daemon client, one digest, one resolution per call. */
export interface Shared {
  readonly daemon: DaemonClient;
  readonly walled: boolean;
  readonly recording: boolean;
  digest(raw: string): string;
  readonly resolver: SeamResolver;
  resolve(req: GateRequest): Resolution;
  readonly caller: CallerFacts;
}

/** GateServices decided here; `decide` takes a request createGate already prepared (real cwd, settled action). */
export interface LocalGate extends Omit<GateServices, "briefing" | "awaitHold" | "handDown"> {
  awaitHold(holdId: string, signal?: AbortSignal): ReturnType<typeof awaitHold>;
  briefing(req: BriefingRequest, repository: string | undefined): Briefing;
}

export function localGate(ctx: Context, s: Shared): LocalGate {
  const paths = ctx.paths;
  const live = rowSink(paths, (t) => ctx.io.err(t), s.daemon, s.walled);
  const rows: typeof live = s.recording
    ? live
    : { ...live, record: () => "", keepRuleSet: () => {}, flush: async () => {} };
  const kept = new Set<string>();
  const decided = new Map<string, DecidedHere>();
  // One reader of each state file for the decisions and the briefings this gate gives (config.toml read once).
  const read = fileReaders(paths);
  const base = gateDeps(
    ctx,
    {
      dry: !s.recording,
      record: (e) => {
        const id = rows.record(e);
        decided.set(id, { surface: e.surface, operation: e.operation, ...pick(e) });
        return id;
      },
      digest: s.digest,
      keepRuleSet: (hash, sources) => {
        if (kept.has(hash)) return;
        kept.add(hash);
        rows.keepRuleSet(hash, sources);
      },
      proceeded: (q) => rows.proceeded(q),
      read: (fn, otherwise) => rows.read(fn, otherwise),
    },
    { read, resolver: s.resolver },
  );
  const deps = { ...base, resolve: s.resolve, caller: s.caller };
  const caller = s.caller;
  const nowIso = () => new Date(ctx.clock.now()).toISOString();

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
    async decide(req) {
      const answer = await decide(req, deps);
      await rows.flush();
      // A refusal repeated is a way of failing: the daemon counts the ones it decides, this process its own.
      if (answer.effect === "deny" && answer.eventId) await trip(answer.eventId, req.surface);
      return answer;
    },
    awaitHold: (id, signal) => awaitHold(paths.pending, id, ctx.clock, signal),
    async recordOutcome(id, outcome) {
      const p = decided.get(id);
      const written = await write(outcomeRow(id, outcome, nowIso(), p), p ? {} : { inherit: true });
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
    briefing: (req, repository) =>
      briefingFor(ctx, req, {
        config: read.config(),
        stop: deps.stop(ctx.clock.now()),
        rules: deps.rules(req.cwd),
        repository,
      }),
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

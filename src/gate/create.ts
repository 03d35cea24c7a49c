// createGate(ctx): the one GateServices every seam uses, wired to the resolver, the rules, state and the ledger.
import { join } from "node:path";
import type { EventInput, Surface } from "../core/event.ts";
import { createArgsDigest } from "../ledger/digest.ts";
import { createRecorder } from "../ledger/recorder.ts";
import { type LoadedRuleSet, loadRuleSet, type RuleSource } from "../policy/load/index.ts";
import type { Context } from "../ports/context.ts";
import { resolveArgv, resolveCommand } from "../resolve/index.ts";
import { readConfig } from "../state/config.ts";
import { personName } from "../state/identity.ts";
import { addFact, overlaysInForce, readOverlays } from "../state/overlays.ts";
import { answerHold, claimGrant, createHold, fingerprint } from "../state/pending.ts";
import { probationFacts, readProbation } from "../state/probation.ts";
import { repoRoot } from "../state/repo.ts";
import { stopInForce } from "../state/stop.ts";
import { briefingFor } from "./briefing.ts";
import { callerFacts } from "./caller.ts";
import { decide } from "./decide.ts";
import type { GateDeps, Instant } from "./deps.ts";
import { awaitHold } from "./holds.ts";
import { noteSessionStart, sessionStart } from "./sessions.ts";
import type { GateServices } from "./types.ts";

const HOLD_TTL_MS = 30 * 60_000;
const WARY_MS = 30 * 60_000;

interface Decided {
  readonly surface: Surface;
  readonly operation: string;
  readonly session?: string;
  readonly agent?: string;
}

/** Everything decide() reads, for this context; `sink` receives rows (the ledger, or nothing for a dry run). */
export function gateDeps(ctx: Context, sink: DepsSink, opts: { ruleFile?: string } = {}): LoadingGateDeps {
  const paths = ctx.paths;
  const caller = callerFacts(ctx);
  const loaded = new Map<string, LoadedRuleSet>();
  const rules = (cwd: string): LoadedRuleSet => {
    let set = loaded.get(cwd);
    if (!set) {
      set = loadRuleSet({
        cwd,
        env: ctx.env,
        paths,
        cacheDir: join(paths.root, "cache", "rules"),
        ...(opts.ruleFile ? { file: opts.ruleFile } : {}),
      });
      loaded.set(cwd, set);
    }
    return set;
  };
  return {
    now: () => lazyInstant(ctx.clock.now()),
    settings: () => {
      const c = readConfig(paths.config);
      return { mode: c.mode, failOpen: c.failOpen };
    },
    rules,
    resolve: (req) => {
      const rctx = { cwd: req.cwd, home: paths.home };
      return req.argv ? resolveArgv(req.argv, rctx) : resolveCommand(req.command ?? "", rctx);
    },
    caller,
    facts: (now) => [
      ...overlaysInForce(readOverlays(paths.overlays), now),
      ...probationFacts(readProbation(paths.probation), now),
    ],
    stop: (now) => stopInForce(paths.stop, now),
    claimGrant: (parts, session, now) =>
      sink.dry ? undefined : claimGrant(paths.pending, fingerprint(parts), session, now),
    createHold: (input) => createHold(sink.dry ? `${paths.pending}/.dry` : paths.pending, input),
    record: (e) => sink.record(e),
    digest: sink.digest,
    keepRuleSet: (view) => {
      const set = [...loaded.values()].find((s) => s.hash === view.hash);
      if (set) sink.keepRuleSet(set.hash, set.sources);
    },
    holdTtlMs: HOLD_TTL_MS,
  };
}

/** GateDeps whose rule sets keep their sources, for the ledger and the briefing. */
export type LoadingGateDeps = Omit<GateDeps, "rules"> & { rules(cwd: string): LoadedRuleSet };

export interface DepsSink {
  /** A dry run (policy test, check) records nothing, claims no grant and holds nothing. */
  readonly dry: boolean;
  record(e: EventInput): string | undefined;
  digest(raw: string): string;
  keepRuleSet(hash: string, sources: readonly RuleSource[]): void;
}

export function createGate(ctx: Context): GateServices {
  const paths = ctx.paths;
  const recorder = createRecorder(paths, (t) => ctx.io.err(t));
  const caller = callerFacts(ctx);
  const kept = new Set<string>();
  const decided = new Map<string, Decided>();
  const deps = gateDeps(ctx, {
    dry: false,
    record: (e) => {
      const id = recorder.record(e)?.id;
      if (id) decided.set(id, { surface: e.surface, operation: e.operation, ...pick(e) });
      return id;
    },
    digest: createArgsDigest(paths),
    keepRuleSet: (hash, sources) => {
      if (kept.has(hash)) return;
      kept.add(hash);
      recorder.keepRuleSet(hash, sources);
    },
  });
  const rules = (cwd: string) => deps.rules(cwd);
  const nowIso = () => new Date(ctx.clock.now()).toISOString();
  /** The decision an outcome or answer belongs to: this process's, else read back from the ledger. */
  const parentOf = (id: string): Decided | undefined => {
    const mine = decided.get(id);
    if (mine) return mine;
    const row = recorder.find(id);
    if (!row) return undefined;
    return {
      surface: row.surface,
      operation: row.operation,
      ...(row.agentSessionId ? { session: row.agentSessionId } : {}),
      ...(row.agent ? { agent: row.agent } : {}),
    };
  };
  return {
    decide: (req) => decide(req, deps),
    awaitHold: (id, signal) => awaitHold(paths.pending, id, ctx.clock, signal),
    async recordOutcome(id, outcome) {
      const p = parentOf(id);
      recorder.record({
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
      });
    },
    async recordAnswer(answer, request, reply) {
      const by = personName(ctx.env);
      const session = request.session ?? caller.session;
      const agent = request.agent ?? caller.agent;
      if (reply.grant && reply.scope === "session" && answer.decided) {
        // A session grant is a hold answered at once for the session, so later calls claim it by fingerprint.
        const hold = createHold(paths.pending, {
          surface: request.surface,
          agent,
          session,
          action: answer.decided.action,
          target: answer.decided.target,
          environment: caller.environment,
          reason: answer.reason,
          rule: answer.rule,
          nowMs: ctx.clock.now(),
          ttlMs: HOLD_TTL_MS,
        });
        answerHold(paths.pending, hold.id, { by, grant: true, nowMs: ctx.clock.now(), scope: "session" });
      }
      recorder.record({
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
    async markWary(session, reason) {
      addFact(paths.overlays, { kind: "wary", subject: session, reason, nowMs: ctx.clock.now(), forMs: WARY_MS });
      recorder.record({
        kind: "state",
        occurredAt: nowIso(),
        surface: "mcp",
        operation: "memnox.wary",
        session,
        reason,
        detail: { forMinutes: WARY_MS / 60_000 },
      });
    },
    async briefing(req) {
      const start = req.session ? sessionStart(paths, req.session) : undefined;
      return briefingFor(ctx, req, {
        config: readConfig(paths.config),
        stop: stopInForce(paths.stop, ctx.clock.now()),
        rules: rules(req.cwd),
        repository: ctx.env.MEMNOX_PROJECT_ROOT || start?.root || repoRoot(req.cwd),
      });
    },
    async recordSession(ev) {
      if (ev.kind === "start" && ev.session) {
        noteSessionStart(paths, { session: ev.session, agent: ev.agent, cwd: ev.cwd, startedAt: nowIso() });
      }
      recorder.record({
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

/** The local UTC offset costs milliseconds to read the first time (time-zone data): read only if a window asks. */
function lazyInstant(epochMs: number): Instant {
  let offset: number | undefined;
  return {
    epochMs,
    get utcOffsetMinutes() {
      offset ??= -new Date(epochMs).getTimezoneOffset();
      return offset;
    },
  };
}

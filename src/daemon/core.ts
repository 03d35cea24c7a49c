// What the daemon answers on its socket: the gate's own decide() on the facts a seam sent, over rule sets and
// state kept in memory; rows through its one open ledger connection; held calls waited on for a person.
import { briefingFor } from "../gate/briefing.ts";
import { ledgerCounter } from "../gate/budgets.ts";
import { decide } from "../gate/decide.ts";
import { decisionsFileOf, decisionsReader } from "../gate/decisions.ts";
import type { GateDeps } from "../gate/deps.ts";
import { awaitHold } from "../gate/holds.ts";
import { tripBreaker } from "../gate/notice/breaker.ts";
import { personRow } from "../gate/person-row.ts";
import { actingPlaces } from "../gate/places.ts";
import { protection } from "../gate/protected.ts";
import { callerOf, gateRequestOf, resolutionOf } from "../gate/remote/evaluate.ts";
import type {
  BriefingRequest,
  EvaluateRequest,
  HoldRequest,
  PingReply,
  PingRequest,
  RecordRequest,
  Replies,
} from "../gate/remote/protocol.ts";
import { lazyInstant } from "../gate/resolution.ts";
import { inheritParent } from "../gate/rows.ts";
import { readWallHolds } from "../gate/wall-held.ts";
import type { StateReaders } from "../gate/wiring.ts";
import { stateDeps } from "../gate/wiring.ts";
import { createArgsDigest } from "../ledger/digest.ts";
import { matchesOnArguments } from "../policy/engine/index.ts";
import type { Context } from "../ports/context.ts";
import { readHold } from "../state/pending.ts";
import type { DeferringRecorder } from "./deferred.ts";
import type { DaemonLog } from "./log.ts";
import type { RuleCache } from "./rules.ts";

const NOTICE_GAP_MS = 30_000;

export interface CoreParts {
  readonly ctx: Context;
  readonly recorder: DeferringRecorder;
  readonly rules: RuleCache;
  readonly readers: StateReaders;
  readonly log: DaemonLog;
  /** `held` aborts when the asking connection closes: a session's egress listener lives that long. */
  ping(egressFor: string | undefined, held: AbortSignal): Promise<Omit<PingReply, "answered" | "ruleSets">>;
}

export interface DaemonCore {
  /** `direct`: a caller that is not a seam (the reference's `{action, target, argsDigest}`), always answered here. */
  evaluate(r: EvaluateRequest, direct?: boolean): Promise<Replies["evaluate"]>;
  readonly version: string;
  /** The daemon's clock: the instant a direct evaluate is decided at. */
  now(): number;
  hold(r: HoldRequest, signal: AbortSignal): Promise<Replies["hold"]>;
  /** A session's briefing on the rule sets and state held here, as the seam would have read them. */
  briefing(r: BriefingRequest): Replies["briefing"];
  record(r: RecordRequest): Replies["record"];
  ping(r: PingRequest, held: AbortSignal): Promise<PingReply>;
  /** Writes the decision rows of answers already sent; the socket calls it right after each answer. */
  settle(): void;
}

export function daemonCore(p: CoreParts): DaemonCore {
  const paths = p.ctx.paths;
  // Budgets are counted on the ledger as a seam would count them, after the rows of answers already sent are in.
  const count = ledgerCounter(paths, () => p.recorder.settle());
  // A seam inside a wall cannot read the machine key: its arguments are keyed here, and kept nowhere.
  const keyed = createArgsDigest(paths);
  const kept = new Set<string>();
  const protect = protection({ home: paths.home, root: paths.root, env: p.ctx.env });
  const noticed = new Set<string>();
  let lastNoticeMs = Number.NEGATIVE_INFINITY;
  const answered = { evaluate: 0, local: 0, record: 0, hold: 0 };
  // The decisions memory records bind here as in a seam's own process: the same snapshot, re-read when it changes.
  const decisions = decisionsReader(decisionsFileOf(p.ctx.env, paths));

  /** A held call raises one desktop notice: the daemon's way of reaching a person nobody else is asking. */
  const notice = (holdId: string) => {
    if (noticed.has(holdId)) return;
    noticed.add(holdId);
    const h = readHold(paths.pending, holdId);
    if (!h) return;
    const what = `${h.agent ?? "an agent"} wants ${h.action}${h.target ? ` on ${h.target}` : ""}`;
    p.log.write("held", `${what}; memnox approve ${holdId} or memnox deny ${holdId}`, h.decisionEventId);
    // An agent retrying a held call must not become a stream of desktop notices: one per half minute.
    const now = p.ctx.clock.now();
    if (now - lastNoticeMs < NOTICE_GAP_MS) return;
    lastNoticeMs = now;
    void p.ctx.notify.notice("memnox: a call waits for you", `${what}. memnox approve ${holdId}`);
  };

  return {
    version: p.ctx.version,
    now: () => p.ctx.clock.now(),
    async evaluate(r, direct = false) {
      // Older or newer code could decide otherwise on the same files: only the same version answers for a seam.
      if (r.version !== p.ctx.version) {
        answered.local += 1;
        return { local: `the daemon runs memnox ${p.ctx.version}, the seam ${r.version}` };
      }
      const set = p.rules.get(r.cwd, r.policies, actingPlaces(r.cwd, resolutionOf(r).actions));
      const reads = r.actions.find((a) => a.args && matchesOnArguments(set.compiled, a.name));
      // Arguments never cross the socket, so a rule that reads them is decided where they are.
      const elsewhere = reads
        ? `a rule in force matches on the arguments of \`${reads.name}\``
        : set.usesWindows && (r.tz ?? "") !== (p.ctx.env.TZ ?? "")
          ? "a rule in force has time windows, and the caller's time zone is not the daemon's"
          : !direct && (set.usesCaller || (set.usesAmount && r.actions.some((a) => a.args)))
            ? "a rule in force names a principal, model or provider, or a ceiling a call's arguments state"
            : undefined;
      if (elsewhere) {
        answered.local += 1;
        return { local: elsewhere };
      }
      const deps: GateDeps = {
        ...stateDeps(
          paths,
          {
            dry: false,
            // The id is named in the answer; the row is written as soon as the answer has left (see deferred.ts).
            record: (e) => p.recorder.later(e),
            digest: () => r.argsDigest || (r.argsRaw !== undefined ? keyed(r.argsRaw) : ""),
            keepRuleSet: () => {},
            proceeded: (q) => p.recorder.proceeded(q),
            read: (fn, otherwise) => p.recorder.read(fn, otherwise),
          },
          p.readers,
          count,
        ),
        now: () => lazyInstant(r.at.epochMs),
        rules: () => set,
        resolve: () => resolutionOf(r),
        caller: callerOf(r),
        decisions,
        protect,
        // Read on each call: `protect --wall` may rewrite it while the daemon runs, and it is one small file.
        wallHolds: () => readWallHolds(paths),
        keepRuleSet: () => {
          if (kept.has(set.hash)) return;
          kept.add(set.hash);
          p.recorder.keepRuleSet(set.hash, set.sources);
        },
      };
      const answer = await decide(gateRequestOf(r), deps);
      answered.evaluate += 1;
      if (answer.effect === "deny" && answer.eventId) {
        // Counted once the row is written, off the answer's path: a refusal repeated is a way of failing.
        const id = answer.eventId;
        const io = { overlays: paths.overlays, read: p.recorder.read, record: p.recorder.record };
        setImmediate(() => tripBreaker(io, id, r.surface, r.at.epochMs));
      }
      if (answer.holdId) notice(answer.holdId);
      return { answer };
    },
    async hold(r, signal) {
      notice(r.holdId);
      answered.hold += 1;
      return { outcome: await awaitHold(paths.pending, r.holdId, p.ctx.clock, signal) };
    },
    briefing(r) {
      if (r.version !== p.ctx.version)
        return { local: `the daemon runs memnox ${p.ctx.version}, the seam ${r.version}` };
      const at = { ...p.ctx, clock: { now: () => r.at } };
      const stop = p.readers.stop();
      return {
        briefing: briefingFor(
          at,
          { cwd: r.cwd, ...(r.agent !== undefined ? { agent: r.agent } : {}) },
          {
            config: p.readers.config(),
            stop: stop && Date.parse(stop.until) > r.at ? stop : undefined,
            rules: p.rules.get(r.cwd, r.policies),
            repository: r.repository,
          },
        ),
      };
    },
    record(r) {
      const parent = r.inherit && r.event.parent ? p.recorder.find(r.event.parent) : undefined;
      const event = r.personArgv ? personRow(r.event, r.personArgv, p.ctx.paths.home) : inheritParent(r.event, parent);
      const id = p.recorder.record(event)?.id;
      answered.record += 1;
      return id ? { eventId: id } : {};
    },
    ping: async (r, held) => ({
      ...(await p.ping(r.egressFor, held)),
      answered: { ...answered },
      ruleSets: p.rules.size,
    }),
    settle: () => p.recorder.settle(),
  };
}

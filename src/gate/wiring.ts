// What decide() reads, wired to memnox's files: the same wiring for a seam's own process and for the daemon,
// which differ only in where the caller's facts, the instant and the rule sets come from.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { EventInput } from "../core/event.ts";
import { factsInForce } from "../core/request.ts";
import { cachedFiles } from "../io/stamp.ts";
import { type NoticeHistory, type NoticeRead, readNotices } from "../ledger/notices.ts";
import type { Ledger } from "../ledger/store.ts";
import { type LoadedRuleSet, loadRuleSet, type RuleSource } from "../policy/load/index.ts";
import type { Context } from "../ports/context.ts";
import type { Paths } from "../ports/paths.ts";
import { issueAllowOnce, takeCode, typedCode } from "../state/allow-once.ts";
import { type Budget, readBudgets } from "../state/budgets.ts";
import { clearCalls, clearedCall, handedDown } from "../state/cleared.ts";
import { type Config, readConfig } from "../state/config.ts";
import { leasesOn, takeLease, WRITE_LEASE_MS } from "../state/leases.ts";
import { isStale, type OrgFact, readOrgConditions, readSyncMark, type SyncMark } from "../state/org.ts";
import { type OverlayFact, overlaysInForce, readOverlays } from "../state/overlays.ts";
import { createHold, deniedHold, fingerprint, grantFor, spendGrant } from "../state/pending.ts";
import { type ProbationEntry, probationFacts, readProbation } from "../state/probation.ts";
import { readStop, type StopRecord } from "../state/stop.ts";
import { type BudgetCounter, budgetFacts, ledgerCounter } from "./budgets.ts";
import { callerFacts } from "./caller.ts";
import { decisionsFileOf, decisionsReader } from "./decisions.ts";
import type { GateDeps, ProceededQuery } from "./deps.ts";
import type { TargetExpander } from "./expand.ts";
import { scanReach } from "./notice/reach.ts";
import { protection } from "./protected.ts";
import { lazyInstant, type SeamResolver, seamResolver } from "./resolution.ts";
import { readWallHolds } from "./wall-held.ts";

export const HOLD_TTL_MS = 30 * 60_000;

export interface DepsSink {
  /** A dry run (policy test, check): judged without grants, counts or history, and never committed. */
  readonly dry: boolean;
  record(e: EventInput): string | undefined;
  digest(raw: string): string;
  keepRuleSet(hash: string, sources: readonly RuleSource[]): void;
  /** Reads what a rate-limited rule has spent, from the ledger rows were written to. */
  proceeded?(q: ProceededQuery): readonly string[];
  /** A read of that ledger (the notice layer's history); `otherwise` when it cannot be read. */
  read?<T>(fn: (ledger: Ledger) => T, otherwise: T): T;
}

/** The state files decide() reads; the daemon keeps them cached until they change on disk. */
export interface StateReaders {
  config(): Config;
  overlays(): readonly OverlayFact[];
  probation(): readonly ProbationEntry[];
  stop(): StopRecord | undefined;
  /** The workspace's fleet facts as last pulled (none without a workspace). */
  orgConditions(): readonly OrgFact[];
  /** Whether the workspace answered lately, which marks verdicts stale when it has not. */
  syncMark(): SyncMark | undefined;
  budgets(): readonly Budget[];
}

export function fileReaders(paths: Paths): StateReaders {
  return {
    // config.toml and the seal beside it, read once per change of either: the gate and the briefing share it.
    config: cachedFiles([paths.config, paths.sealed], () => readConfig(paths.config)),
    overlays: () => readOverlays(paths.overlays),
    probation: () => readProbation(paths.probation),
    stop: () => readStop(paths.stop),
    orgConditions: () => readOrgConditions(paths.orgConditions),
    syncMark: () => readSyncMark(paths.sync),
    budgets: () => readBudgets(paths.budgets),
  };
}

type StateDeps = Pick<
  GateDeps,
  | "settings"
  | "facts"
  | "leases"
  | "takeLeases"
  | "stop"
  | "stale"
  | "dry"
  | "grant"
  | "spendGrant"
  | "refusedBefore"
  | "allowOnce"
  | "takeAllowOnce"
  | "issueAllowOnce"
  | "clearedCall"
  | "clearCalls"
  | "handedDown"
  | "createHold"
  | "record"
  | "digest"
  | "holdTtlMs"
  | "proceeded"
  | "history"
  | "reach"
>;

/**
 * Settings, state facts, holds and the ledger: the part of GateDeps that is the same wherever decide() runs.
 * `count` is how budgets are counted from the ledger: the daemon hands its own, settling its waiting rows first.
 */
export function stateDeps(
  paths: Paths,
  sink: DepsSink,
  read: StateReaders,
  count: BudgetCounter = ledgerCounter(paths),
): StateDeps {
  return {
    settings: () => {
      const c = read.config();
      return {
        mode: c.mode,
        failOpen: c.failOpen,
        config: c,
        seamModes: c.seamModes,
        notice: { on: c.noticeUnusual, warmupDays: c.noticeWarmupDays },
      };
    },
    facts: (now) => [
      ...overlaysInForce(read.overlays(), now),
      ...probationFacts(read.probation(), now),
      ...factsInForce(read.orgConditions(), now),
      ...budgetFacts(count(read.budgets(), now), now),
    ],
    stale: (now) => isStale(read.syncMark(), now),
    leases: (targets, now) => {
      // A lease on a directory covers every file in it: one fact, however many of its files this call writes.
      const held = new Map(targets.flatMap((t) => leasesOn(paths.leases, t, now)).map((l) => [l.path, l]));
      return [...held.values()].map((l) => ({
        kind: "lease",
        subject: `${l.session} ${l.path}`,
        by: l.holder,
        setAt: l.since,
        expiresAt: l.until,
      }));
    },
    takeLeases: (targets, holder, now) => {
      for (const path of targets) {
        takeLease(paths.leases, { path, session: holder.session, holder: holder.agent, forMs: WRITE_LEASE_MS }, now);
      }
    },
    stop: (now) => {
      const s = read.stop();
      return s && Date.parse(s.until) > now ? s : undefined;
    },
    dry: sink.dry,
    grant: (parts, session, now) => grantFor(paths.pending, fingerprint(parts), session, now),
    spendGrant: (hold, now) => spendGrant(paths.pending, hold, now),
    refusedBefore: (parts, session, now) => deniedHold(paths.pending, fingerprint(parts), session, now, HOLD_TTL_MS),
    allowOnce: (parts, session, now) => typedCode(paths.allowOnce, fingerprint(parts), session, now),
    takeAllowOnce: (code) => takeCode(code),
    issueAllowOnce: ({ parts, ...rest }) => {
      try {
        return issueAllowOnce(paths.allowOnce, { ...rest, fingerprint: fingerprint(parts) });
      } catch {
        // No code to print only means this refusal cannot be let through once; the refusal itself stands.
        return undefined;
      }
    },
    clearedCall: (session, call, now) => clearedCall(paths.pending, session, call, now),
    clearCalls: (session, calls, now) => {
      try {
        clearCalls(paths.pending, session, calls, now);
      } catch {
        // A mark that cannot be kept only means the next seam asks again.
      }
    },
    handedDown: (token, cwd, now) => {
      const h = handedDown(paths.pending, token, now);
      return h && (cwd === h.root || cwd.startsWith(`${h.root}/`)) ? h : undefined;
    },
    createHold: (input) => createHold(paths.pending, input),
    record: (e) => sink.record(e),
    digest: (raw) => sink.digest(raw),
    holdTtlMs: HOLD_TTL_MS,
    ...(sink.proceeded ? { proceeded: sink.proceeded } : {}),
    ...(sink.read ? { history: historyOf(sink.read) } : {}),
    reach: scanReach(paths.lastScan),
  };
}

const NO_HISTORY: NoticeHistory = { since: undefined, done: [], taken: [] };

/** The notice index read through the sink's ledger; unreadable, no history (more looks new, nothing is excused). */
function historyOf(read: NonNullable<DepsSink["read"]>): (q: NoticeRead) => NoticeHistory {
  return (q) => read((l) => readNotices(l.db, q), NO_HISTORY);
}

/** GateDeps whose rule sets keep their sources, for the ledger and the briefing. */
export type LoadingGateDeps = Omit<GateDeps, "rules"> & {
  rules(cwd: string, also?: readonly string[]): LoadedRuleSet;
  /** THE target expansion, for an action a seam hands in already resolved (a file tool's path). */
  expand: TargetExpander;
};

/** Everything decide() reads, for this context; `sink` receives rows (the ledger, or nothing for a dry run). */
export function gateDeps(
  ctx: Context,
  sink: DepsSink,
  opts: { ruleFile?: string; read?: StateReaders; resolver?: SeamResolver } = {},
): LoadingGateDeps {
  const paths = ctx.paths;
  const resolver = opts.resolver ?? seamResolver(ctx);
  const loaded = new Map<string, LoadedRuleSet>();
  // After setup the machine's rules must be there: their absence refuses in enforce rather than ruling nothing.
  const expectMachine = existsSync(paths.sealed);
  const rules = (cwd: string, also: readonly string[] = []): LoadedRuleSet => {
    const key = [cwd, ...also].join("\0");
    let set = loaded.get(key);
    if (!set) {
      set = loadRuleSet({
        cwd,
        also,
        env: ctx.env,
        paths,
        cacheDir: ruleCacheDir(paths),
        expectMachine,
        ...(opts.ruleFile ? { file: opts.ruleFile } : {}),
      });
      loaded.set(key, set);
    }
    return set;
  };
  return {
    ...stateDeps(paths, sink, opts.read ?? fileReaders(paths)),
    now: () => lazyInstant(ctx.clock.now()),
    rules,
    resolve: resolver.resolve,
    expand: resolver.expand,
    caller: callerFacts(ctx),
    decisions: decisionsReader(decisionsFileOf(ctx.env, paths)),
    protect: protection({ home: paths.home, root: paths.root, env: ctx.env }),
    wallHolds: once(() => readWallHolds(paths)),
    keepRuleSet: (view) => {
      const set = [...loaded.values()].find((s) => s.hash === view.hash);
      if (set) sink.keepRuleSet(set.hash, set.sources);
    },
  };
}

/** Where parsed rule files are kept by content, for every process that loads rules. */
export function ruleCacheDir(paths: Pick<Paths, "root">): string {
  return join(paths.root, "cache", "rules");
}

/** A value read on first use and kept for the life of the process. */
function once<T>(read: () => T): () => T {
  let done = false;
  let v: T;
  return () => {
    if (!done) {
      v = read();
      done = true;
    }
    return v;
  };
}

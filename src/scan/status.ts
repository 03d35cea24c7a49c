// `memnox status`: where this machine stands, read off it: protection, mode, daemon, hooks, servers, rules,
// probation, today's actions from the ledger, what waits for a person, and the workspace this machine answers to.

import { existsSync } from "node:fs";
import { formatDuration } from "../core/duration.ts";
import type { Effect, Mode } from "../core/effect.ts";
import { grantScope } from "../gate/grants.ts";
import { pingDaemon } from "../gate/remote/client.ts";
import { openLedger } from "../ledger/index.ts";
import { verdictOf } from "../ledger/read/entries.ts";
import { rowsIn } from "../ledger/read/window.ts";
import { loadRuleSet } from "../policy/load/index.ts";
import type { Context } from "../ports/context.ts";
import { readConfig } from "../state/config.ts";
import { type Lease, listLeases } from "../state/leases.ts";
import { isStale, readEnrolment, readSyncMark } from "../state/org.ts";
import { overlaysInForce, readOverlays } from "../state/overlays.ts";
import { holdsWaiting } from "../state/pending.ts";
import { type ProbationEntry, probationInForce, readProbation } from "../state/probation.ts";
import { type StopRecord, stopInForce } from "../state/stop.ts";
import { setupRan } from "../wire/kept.ts";
import { describeServer, readClientFiles } from "../wire/read.ts";
import { isSessionServer } from "../wire/wrapping.ts";
import { type Dormant, dormantAgents } from "./dormant.ts";
import { type AgentHook, hookStates } from "./hooked.ts";
import { lastScan, scanMachine } from "./inventory.ts";

type DaemonState = "running" | "not-answering" | "not-running";

interface Today {
  readonly since: string;
  readonly actions: number;
  /** What was applied. */
  readonly asked: number;
  readonly denied: number;
  /** What enforce would have applied (in observe the screen counts these). */
  readonly wouldAsk: number;
  readonly wouldDeny: number;
}

export interface Status {
  readonly setup: boolean;
  readonly stopped?: StopRecord;
  readonly mode: Mode;
  /** Seams with their own mode (`mode.<seam>`), each apart from the global one. */
  readonly seamModes: Readonly<Partial<Record<string, Mode>>>;
  readonly daemon: DaemonState;
  readonly agents: { readonly found: readonly { id: string; name: string }[]; readonly scannedAt: string };
  readonly hooks: readonly AgentHook[];
  readonly mcp: { readonly servers: number; readonly through: number };
  readonly rules: {
    readonly count: number;
    readonly files: readonly string[];
    readonly hash: string;
    readonly problems: number;
  };
  readonly probation: readonly ProbationEntry[];
  /** `memnox allow` grants in force: scope, until, who and why. */
  readonly grants: readonly { scope: string; until: string; left: string; by: string | null; reason: string | null }[];
  /** Path leases in force on this machine (this machine only: across machines is a workspace's job). */
  readonly leases: readonly Lease[];
  readonly today: Today;
  readonly waiting: number;
  /** Known thirty days, still holding reach, and silent in the ledger. */
  readonly dormant: readonly Dormant[];
  readonly team:
    | { readonly connected: false }
    | { readonly connected: true; readonly workspace: string; readonly machineId: string; readonly stale: boolean };
}

/** Whether the daemon answers a ping on its socket (a leftover socket file does not). */
async function daemonState(sock: string, timeoutMs = 500): Promise<DaemonState> {
  if (!existsSync(sock)) return "not-running";
  return (await pingDaemon(sock, { timeoutMs })) ? "running" : "not-answering";
}

function today(ctx: Context): Today {
  const now = ctx.clock.now();
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  const since = midnight.toISOString();
  const zero = { since, actions: 0, asked: 0, denied: 0, wouldAsk: 0, wouldDeny: 0 };
  if (!existsSync(ctx.paths.db)) return zero;
  using ledger = openLedger(ctx.paths);
  const rows = rowsIn(ledger, { since }).filter((r) => r.kind === "decision");
  const n = (f: (e: Effect | undefined) => boolean, of: (r: (typeof rows)[number]) => Effect | undefined) =>
    rows.filter((r) => f(of(r))).length;
  return {
    since,
    actions: rows.length,
    asked: n(
      (e) => e === "ask",
      (r) => r.effect,
    ),
    denied: n(
      (e) => e === "deny",
      (r) => r.effect,
    ),
    wouldAsk: n((e) => e === "ask", verdictOf),
    wouldDeny: n((e) => e === "deny", verdictOf),
  };
}

async function mcpThrough(ctx: Context): Promise<Status["mcp"]> {
  const files = await readClientFiles({ home: ctx.paths.home, cwd: ctx.cwd, env: ctx.env });
  const servers = files.flatMap((r) =>
    r.ok
      ? r.servers
          .filter((e) => !e.disabled && !isSessionServer(e.name, e.command, e.args))
          .map((e) => describeServer(r.file, e))
      : [],
  );
  return { servers: servers.length, through: servers.filter((s) => s.wrapped).length };
}

export async function machineStatus(ctx: Context): Promise<Status> {
  const now = ctx.clock.now();
  const config = readConfig(ctx.paths.config);
  const stopped = stopInForce(ctx.paths.stop, now);
  const inv = lastScan(ctx) ?? (await scanMachine(ctx, { probe: false }));
  const rules = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
  const hooks = hookStates(
    ctx,
    inv.agents.map((a) => a.id),
  );
  return {
    setup: setupRan(ctx.paths.kept),
    ...(stopped ? { stopped } : {}),
    mode: config.mode,
    seamModes: config.seamModes,
    daemon: await daemonState(ctx.paths.sock),
    agents: { found: inv.agents.map((a) => ({ id: a.id, name: a.name })), scannedAt: inv.scannedAt },
    hooks: hookStates(
      ctx,
      inv.agents.map((a) => a.id),
    ),
    mcp: await mcpThrough(ctx),
    rules: {
      count: rules.checked.filter((c) => c.applies).reduce((n, c) => n + c.rules.length, 0),
      files: rules.files,
      hash: rules.hash,
      problems: rules.problems.length,
    },
    probation: probationInForce(readProbation(ctx.paths.probation), now),
    grants: overlaysInForce(readOverlays(ctx.paths.overlays), now)
      .filter((f) => f.kind === "grant")
      .map((f) => ({
        scope: grantScope(f),
        until: f.expiresAt,
        left: formatDuration(Date.parse(f.expiresAt) - now),
        by: f.by ?? null,
        reason: f.reason ?? null,
      })),
    leases: listLeases(ctx.paths.leases).filter((l) => Date.parse(l.until) > now),
    today: today(ctx),
    waiting: holdsWaiting(ctx.paths.pending, now).length,
    dormant: dormantAgents(ctx.paths, inv, hooks, now),
    team: teamOf(ctx, now),
  };
}

function teamOf(ctx: Context, now: number): Status["team"] {
  const e = readEnrolment(ctx.paths.account);
  return e ? { connected: true, ...e, stale: isStale(readSyncMark(ctx.paths.sync), now) } : { connected: false };
}

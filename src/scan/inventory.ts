// scanMachine(): the whole reading of this disk, in one inventory (version 2). Nothing is sent anywhere; starting
// MCP servers to list their tools is the one thing it runs, and `probe: false` turns that off.

import { readJsonIfExists, writeJsonAtomic } from "../io/files.ts";
import { repoRoot } from "../io/repo.ts";
import type { Instant } from "../policy/engine/index.ts";
import { loadRuleSet } from "../policy/load/index.ts";
import type { Context } from "../ports/context.ts";
import { readAgentNames } from "../state/agent-names.ts";
import type { Locations } from "../wire/clients.ts";
import { detectAgents } from "./agents.ts";
import { capabilities } from "./capabilities.ts";
import { chainsFor } from "./chains.ts";
import { cliRows } from "./clis.ts";
import { findCredentials } from "./credentials.ts";
import { harnessRows } from "./harnesses.ts";
import { scanServers } from "./mcp-servers.ts";
import type { ProbeProgress } from "./probe.ts";
import { reach } from "./reach.ts";
import { Trail } from "./trail.ts";
import { type ConfigProblem, INVENTORY_VERSION, type Inventory } from "./types.ts";

interface ScanOptions {
  /** Start stdio MCP servers to list their tools (default true). */
  readonly probe?: boolean;
  readonly probeTimeoutMs?: number;
  /** Keep this reading as the last scan (`agents list` and `status` read it), and what probes listed. */
  readonly keep?: boolean;
  /** Hears each MCP server a probe starts and each that answers or gives up. */
  readonly onProbe?: (p: ProbeProgress) => void;
}

/** A scan whose keeping is the caller's to do: setup keeps nothing until a person says yes. */
interface HeldScan {
  readonly inventory: Inventory;
  readonly keep: () => void;
}

const PROBE_TIMEOUT_MS = 10_000;

export function instantOf(epochMs: number): Instant {
  return { epochMs, utcOffsetMinutes: -new Date(epochMs).getTimezoneOffset() };
}

export async function scanMachine(ctx: Context, opts: ScanOptions = {}): Promise<Inventory> {
  const held = await scanHeld(ctx, opts);
  if (opts.keep ?? true) held.keep();
  return held.inventory;
}

/** The scan, with nothing written: `keep()` writes the last scan and the probe cache. */
export async function scanHeld(ctx: Context, opts: Omit<ScanOptions, "keep"> = {}): Promise<HeldScan> {
  const now = ctx.clock.now();
  const trail = new Trail();
  const repository = repoRoot(ctx.cwd, ctx.env);
  const repo = repository ?? ctx.cwd;
  const loc: Locations = { home: ctx.paths.home, cwd: ctx.cwd, env: ctx.env };
  const probe = opts.probe ?? true;
  const servers = await scanServers({
    loc,
    trail,
    mcpDir: ctx.paths.mcp,
    probe,
    timeoutMs: opts.probeTimeoutMs ?? PROBE_TIMEOUT_MS,
    version: ctx.version,
    nowIso: new Date(now).toISOString(),
    ...(opts.onProbe ? { onProbe: opts.onProbe } : {}),
  });
  const agentProblems: ConfigProblem[] = [];
  const detected = detectAgents(trail, loc, repo, agentProblems);
  const problems = [...servers.problems];
  for (const p of agentProblems) if (!problems.some((q) => q.path === p.path)) problems.push(p);
  const found = findCredentials(trail, loc, repository);
  const clis = cliRows(found, ctx.env.PATH);
  const names = safeNames(ctx.paths.agentNames);
  const { agents, credentials } = reach(detected, names, servers.rows, found, clis, {
    home: ctx.paths.home,
    cwd: ctx.cwd,
    repo,
  });
  const rules = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
  const caps = capabilities(agents, servers.rows, clis, rules, ctx.cwd, instantOf(now));
  const chains = agents.flatMap((a) =>
    chainsFor(
      a.id,
      servers.rows
        .filter((s) => a.servers.includes(s.id))
        .flatMap((s) => (s.tools ?? []).map((t) => ({ server: s.name, tool: t.name, class: t.class }))),
    ),
  );
  const inventory: Inventory = {
    version: INVENTORY_VERSION,
    scannedAt: new Date(now).toISOString(),
    home: ctx.paths.home,
    cwd: ctx.cwd,
    ...(repository ? { repository } : {}),
    probed: probe,
    agents,
    harnesses: harnessRows(detected, servers.docs, trail, loc, repo),
    mcpServers: servers.rows,
    credentials,
    clis,
    chains,
    capabilities: caps.rows,
    coverage: caps.coverage,
    problems,
    read: [...new Set([...trail.list(), ...rules.files])].sort(),
  };
  return {
    inventory,
    keep: () => {
      servers.keep();
      keepLast(ctx, inventory);
    },
  };
}

function safeNames(file: string): Map<string, string> {
  try {
    return readAgentNames(file);
  } catch {
    return new Map();
  }
}

/** Kept for `agents list` and `status`; a scan that cannot keep it still answers. */
function keepLast(ctx: Context, inv: Inventory): void {
  try {
    writeJsonAtomic(ctx.paths.lastScan, inv);
  } catch (e) {
    ctx.io.err(`memnox: the scan could not be kept (${(e as Error).message})\n`);
  }
}

/** The last scan taken, or undefined when none was or it is not one this version reads. */
/** The last scan taken, with the names agents carry now; undefined when none was or it is not one this reads. */
export function lastScan(ctx: Context): Inventory | undefined {
  let inv: Inventory | undefined;
  try {
    inv = asInventory(readJsonIfExists(ctx.paths.lastScan));
  } catch {
    return undefined;
  }
  if (!inv) return undefined;
  const names = safeNames(ctx.paths.agentNames);
  return { ...inv, agents: inv.agents.map((a) => ({ ...a, name: names.get(a.id) ?? a.id })) };
}

/** A stored inventory this version reads, or undefined. */
export function asInventory(raw: unknown): Inventory | undefined {
  const inv = raw as Partial<Inventory> | undefined;
  return inv?.version === INVENTORY_VERSION && Array.isArray(inv.agents) ? (inv as Inventory) : undefined;
}

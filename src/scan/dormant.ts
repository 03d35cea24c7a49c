// Dormant: known here for thirty days (a saved scan that old names it), still holding a write tool, a credential or
// a hook, and no ledger row naming it in that time. Standing authority with no work behind it.
import { existsSync } from "node:fs";
import { openLedger } from "../ledger/index.ts";
import { agentActedSince } from "../ledger/read/rows.ts";
import type { Paths } from "../ports/paths.ts";
import type { AgentHook } from "./hooked.ts";
import { atOrBefore, listSnapshots, loadSnapshot } from "./snapshots.ts";
import type { Inventory } from "./types.ts";

export const DORMANT_DAYS = 30;

export interface Dormant {
  readonly id: string;
  readonly name: string;
  readonly knownSince: string;
  /** What it still holds, in words: `2 write tools`, `3 credentials`, `a hook`. */
  readonly holds: readonly string[];
}

function holdings(inv: Inventory, id: string, hooks: readonly AgentHook[]): string[] {
  const a = inv.agents.find((x) => x.id === id);
  if (!a) return [];
  const writes = inv.mcpServers
    .filter((s) => a.servers.includes(s.id))
    .flatMap((s) => (s.tools ?? []).filter((t) => t.class !== "read")).length;
  const hooked = hooks.some((h) => h.agent === id && h.state !== "not-installed");
  return [
    ...(writes ? [`${writes} write tool${writes === 1 ? "" : "s"}`] : []),
    ...(a.reaches.length ? [`${a.reaches.length} credential${a.reaches.length === 1 ? "" : "s"}`] : []),
    ...(hooked ? ["a hook"] : []),
  ];
}

/** When each agent of `inv` was first known, by the newest saved scan at or before `since` that names it. */
export function knownFromSnapshots(paths: Paths, inv: Inventory, since: string): Map<string, string> {
  const old = atOrBefore(listSnapshots(paths.snapshots), since);
  if (!old) return new Map();
  const then = loadSnapshot(old);
  return new Map(inv.agents.filter((a) => then.agents.some((x) => x.id === a.id)).map((a) => [a.id, then.scannedAt]));
}

export function dormantAgents(paths: Paths, inv: Inventory, hooks: readonly AgentHook[], nowMs: number): Dormant[] {
  const since = new Date(nowMs - DORMANT_DAYS * 86_400_000).toISOString();
  return dormantAmong(paths, inv, hooks, knownFromSnapshots(paths, inv, since), nowMs);
}

/** Dormant agents of `inv` given when each was first known (`known`: id -> instant); the daemon keeps its own. */
export function dormantAmong(
  paths: Paths,
  inv: Inventory,
  hooks: readonly AgentHook[],
  known: ReadonlyMap<string, string>,
  nowMs: number,
): Dormant[] {
  const since = new Date(nowMs - DORMANT_DAYS * 86_400_000).toISOString();
  const long = inv.agents.filter((a) => {
    const at = known.get(a.id);
    return at !== undefined && at <= since;
  });
  if (long.length === 0) return [];
  const active = new Set<string>();
  if (existsSync(paths.db)) {
    using ledger = openLedger(paths);
    for (const a of long) {
      if (agentActedSince(ledger, a.id, since)) active.add(a.id);
    }
  }
  return long
    .filter((a) => !active.has(a.id))
    .map((a) => ({ id: a.id, name: a.name, knownSince: known.get(a.id) ?? since, holds: holdings(inv, a.id, hooks) }))
    .filter((d) => d.holds.length > 0);
}

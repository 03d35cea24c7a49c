// Granted against used: every tool and outward CLI verb an agent holds, against what actually proceeded in the
// ledger over a window. A refused attempt proves the agent wanted the reach, not that it needed it: it is not use.
import { existsSync } from "node:fs";
import { openLedger } from "../ledger/index.ts";
import { joinEntries } from "../ledger/read/entries.ts";
import { childrenOf, rowsIn } from "../ledger/read/window.ts";
import type { RuleSpec } from "../policy/baseline.ts";
import { globMatcher } from "../policy/engine/index.ts";
import type { Paths } from "../ports/paths.ts";
import { mcpActionName } from "../resolve/mcp-tools.ts";
import type { Inventory } from "./types.ts";

interface Granted {
  readonly action: string;
  readonly class: string;
  readonly outside: boolean;
  readonly grantedBy: readonly string[];
}

interface Usage {
  readonly since: string;
  readonly until: string;
  /** Decisions recorded in the window; none means nothing can be called unused. */
  readonly decisions: number;
  readonly firstRecorded?: string;
  readonly granted: readonly Granted[];
  readonly used: readonly string[];
  readonly unused: readonly Granted[];
  /** The unused ones that can change something outside this machine: what `protect --from-usage` drafts from. */
  readonly unusedOutside: readonly Granted[];
}

/** Every MCP tool an agent holds (reads included) and every outward verb of an authenticated CLI it can run. */
function grantedOf(inv: Inventory): Granted[] {
  const served = new Set(inv.agents.flatMap((a) => a.servers));
  const tools = inv.mcpServers
    .filter((s) => served.has(s.id))
    .flatMap((s) =>
      (s.tools ?? []).map((t) => ({
        action: mcpActionName(s.name, t.name),
        class: t.class,
        outside: t.outside,
        grantedBy: [s.file],
      })),
    );
  const verbs = inv.capabilities
    .filter((c) => c.via === "cli" && c.outside)
    .map((c) => ({ action: c.action, class: c.class, outside: true, grantedBy: c.grantedBy }));
  const merged = new Map<string, Granted>();
  for (const g of [...tools, ...verbs]) {
    const had = merged.get(g.action);
    merged.set(g.action, had ? { ...had, grantedBy: [...new Set([...had.grantedBy, ...g.grantedBy])] } : g);
  }
  return [...merged.values()].sort((a, b) => a.action.localeCompare(b.action));
}

/** Operations that proceeded (or ran and failed) in the window, and how many decisions it holds. */
function proceeded(paths: Paths, since: string, until: string): { ops: string[]; decisions: number; first?: string } {
  if (!existsSync(paths.db)) return { ops: [], decisions: 0 };
  using ledger = openLedger(paths);
  const rows = rowsIn(ledger, { since, until });
  const ids = rows.filter((r) => r.kind === "decision").map((r) => r.id);
  const entries = joinEntries(rows, childrenOf(ledger, ids)).filter((e) => e.row.kind === "decision");
  const ops = entries.filter((e) => e.final === "proceeded" || e.final === "failed").map((e) => e.row.operation);
  const first = entries[0]?.row.occurredAt;
  return { ops: [...new Set(ops)], decisions: entries.length, ...(first ? { first } : {}) };
}

export function usageOf(inv: Inventory, paths: Paths, since: string, until: string): Usage {
  const granted = grantedOf(inv);
  const history = proceeded(paths, since, until);
  const usedSet = new Set<string>();
  for (const g of granted) {
    const m = globMatcher(g.action);
    if (history.ops.some((op) => m(op))) usedSet.add(g.action);
  }
  const unused = history.decisions === 0 ? [] : granted.filter((g) => !usedSet.has(g.action));
  return {
    since,
    until,
    decisions: history.decisions,
    ...(history.first ? { firstRecorded: history.first } : {}),
    granted,
    used: [...usedSet].sort(),
    unused,
    unusedOutside: unused.filter((g) => g.outside),
  };
}

/** An ask, never a deny: unused for a month is not the same as never needed. */
export function draftAskRule(u: Usage, window: string, day: string): RuleSpec | undefined {
  if (u.unusedOutside.length === 0) return undefined;
  return {
    name: `unused-${window}-asked-${day}`,
    description: `granted and not used in the ${window} to ${day}, drafted by memnox protect --from-usage ${window}`,
    match: { actions: u.unusedOutside.map((g) => g.action) },
    decision: {
      effect: "ask",
      reason: `granted here and not used in the ${window} to ${day}; unused is not never needed, so a person looks the first time`,
    },
  };
}

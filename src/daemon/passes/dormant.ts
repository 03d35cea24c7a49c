// Dormant agents, flagged once per stretch of silence: an agent flagged stays in keeper.json's `dormant` until it
// acts again (or loses its reach), so the next silence is flagged anew and this one never twice.
import type { Context } from "../../ports/context.ts";
import { DORMANT_DAYS, type Dormant, dormantAmong, knownFromSnapshots } from "../../scan/dormant.ts";
import { hookStates } from "../../scan/hooked.ts";
import type { Inventory } from "../../scan/types.ts";
import type { PassContext } from "../passes.ts";

/** When each agent was first known: the daemon's own record, or an older saved scan that names it. */
export function knownSince(
  ctx: Context,
  inv: Inventory,
  before: Readonly<Record<string, string>>,
  nowMs: number,
): Record<string, string> {
  const now = new Date(nowMs).toISOString();
  const since = new Date(nowMs - DORMANT_DAYS * 86_400_000).toISOString();
  let saved = new Map<string, string>();
  try {
    saved = knownFromSnapshots(ctx.paths, inv, since);
  } catch {
    // a saved scan this version cannot read only means the daemon's own record answers
  }
  const known: Record<string, string> = { ...before };
  for (const a of inv.agents) {
    const first = [known[a.id], saved.get(a.id)].filter((x): x is string => x !== undefined).sort()[0];
    known[a.id] = first ?? now;
  }
  return known;
}

function flag(pc: PassContext, inv: Inventory, d: Dormant): void {
  const agent = inv.agents.find((a) => a.id === d.id);
  const holds = d.holds.join(", ");
  pc.recordChange({
    operation: "agent.dormant",
    file: agent?.evidence[0]?.path ?? inv.home,
    before: `${d.name} known here since ${d.knownSince.slice(0, 10)}`,
    after: `no ledger row names it in ${DORMANT_DAYS} days, and it still holds ${holds}`,
    reason: `${d.name} is dormant: no work in ${DORMANT_DAYS} days, reach kept`,
  });
  pc.notice(
    "dormant",
    `${d.name} has done nothing here for ${DORMANT_DAYS} days but still holds ${holds}. memnox explain ${d.id} says what it reaches.`,
  );
}

/** Flags the agents newly dormant; returns who is flagged now (kept for the next pass). */
export function flagDormant(
  pc: PassContext,
  inv: Inventory,
  known: Readonly<Record<string, string>>,
  flagged: Readonly<Record<string, string>>,
): Record<string, string> {
  const ctx = pc.ctx;
  const now = ctx.clock.now();
  const hooks = hookStates(
    { ...ctx, cwd: ctx.paths.home },
    inv.agents.map((a) => a.id),
  );
  const dormant = dormantAmong(ctx.paths, inv, hooks, new Map(Object.entries(known)), now);
  const next: Record<string, string> = {};
  for (const d of dormant) {
    const already = flagged[d.id];
    if (already) {
      next[d.id] = already;
      continue;
    }
    flag(pc, inv, d);
    next[d.id] = new Date(now).toISOString();
  }
  return next;
}

// Drift: the daemon's own scan (never starting an MCP server, never written into the history `scan --since` reads)
// against its baseline in keeper.json, at most every 30 seconds. What widened authority is said apart from what
// narrowed it; dormant agents are flagged from the same reading.
import type { Context } from "../../ports/context.ts";
import { compareScans } from "../../scan/diff.ts";
import { scanMachine } from "../../scan/inventory.ts";
import type { Inventory } from "../../scan/types.ts";
import { setupRan } from "../../wire/kept.ts";
import type { DaemonPass, PassContext } from "../passes.ts";
import { flagDormant, knownSince } from "./dormant.ts";
import { driftChange, driftNotice, driftNoticeKind } from "./drift-words.ts";
import { type KeeperState, readKeeper, writeKeeper } from "./keeper-file.ts";
import { agentConfigFiles } from "./watched.ts";

const DRIFT_MIN_INTERVAL_MS = 30_000;

/** Where setup ran; kept.json that will not parse counts as set up, as everywhere else. */
function keeps(ctx: Context): boolean {
  return setupRan(ctx.paths.kept);
}

function baselineWords(inv: Inventory): string {
  const reachable = inv.credentials.filter((c) => c.via.length > 0).length;
  return `baseline taken: ${inv.agents.length} agent(s), ${inv.mcpServers.length} MCP server(s), ${reachable} credential(s) in reach`;
}

/** What decides whether the baseline moved: everything but the instant it was read. */
function sameState(a: KeeperState | undefined, b: KeeperState): boolean {
  if (!a) return false;
  const strip = (s: KeeperState) => JSON.stringify({ ...s, at: "", inventory: { ...s.inventory, scannedAt: "" } });
  return strip(a) === strip(b);
}

function reportDrift(pc: PassContext, before: Inventory, after: Inventory): void {
  const changes = compareScans(before, after);
  // Widening first: when notices run out, the half that matters has been said.
  for (const c of [...changes.filter((x) => x.widens), ...changes.filter((x) => !x.widens)]) {
    pc.recordChange(driftChange(c, after));
    pc.notice(driftNoticeKind(c), driftNotice(c, after));
  }
}

export function driftPass(): DaemonPass {
  return {
    name: "drift",
    minIntervalMs: DRIFT_MIN_INTERVAL_MS,
    watched: agentConfigFiles,
    async run(pc) {
      const ctx = pc.ctx;
      if (!keeps(ctx)) return;
      const home = { ...ctx, cwd: ctx.paths.home };
      const inv = await scanMachine(home, { probe: false, keep: false });
      const read = readKeeper(ctx.paths.keeper);
      if ("problem" in read) pc.log("drift", `${read.problem}; a new baseline replaces it`);
      const prev = "state" in read ? read.state : undefined;
      if (prev) reportDrift(pc, prev.inventory, inv);
      else pc.log("drift", baselineWords(inv));
      const now = ctx.clock.now();
      const known = knownSince(ctx, inv, prev?.known ?? {}, now);
      const dormant = flagDormant(pc, inv, known, prev?.dormant ?? {});
      const next: KeeperState = { version: 1, at: new Date(now).toISOString(), inventory: inv, known, dormant };
      // Written only when it moved: keeper.json sits beside files other watchers look at.
      if (!sameState(prev, next)) writeKeeper(ctx.paths.keeper, next);
    },
  };
}

// `memnox scan` (and bare `memnox` before setup): what can act on this machine and what it can reach.
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import { scanMachine } from "../../../scan/inventory.ts";
import { renderScan } from "../../../scan/render.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { changesReport, mcpReport, type ScanFlags, shareReport, usageReport } from "./_scan-reports.ts";

const SCAN_ARGS = {
  json: { type: "boolean", description: "the capability inventory (version 2)" },
  probe: {
    type: "boolean",
    default: true,
    description: "start each MCP server configured here to ask what it offers (runs their code)",
    negativeDescription: "start no MCP server: tools come from the cache",
  },
  save: { type: "boolean", description: "keep this scan as the baseline later ones are compared against" },
  since: { type: "string", description: "what moved since the saved scan this long ago (1d, 12h, an ISO date)" },
  from: { type: "string", description: "compare two saved scans: the older one (a date, or a duration back)" },
  to: { type: "string", description: "…and the newer one (default: this scan)" },
  "fail-on": { type: "string", description: "write-capable: exit 1 when something widened with write reach" },
  share: { type: "boolean", description: "a card of counts only: no paths, no names, no values" },
  mcp: { type: "string", description: "one MCP server before you trust it" },
  usage: { type: "string", description: "granted against used over this window (7d), from the ledger" },
} as const;

const FAIL_ON = ["write-capable", "widened"];

export async function runScan(ctx: Context, a: ScanFlags): Promise<number> {
  const failOn = a["fail-on"];
  if (failOn !== undefined && !FAIL_ON.includes(failOn))
    throw new MemnoxError("usage", `\`${failOn}\` is not something scan can fail on`, `use ${FAIL_ON.join(" or ")}`);
  if (a.since !== undefined || a.from !== undefined || a.to !== undefined || failOn !== undefined) {
    return changesReport(ctx, a);
  }
  const inv = await scanMachine(ctx, { probe: a.probe !== false });
  if (a.mcp !== undefined) return mcpReport(ctx, inv, a.mcp, a.json);
  if (a.usage !== undefined) return usageReport(ctx, inv, a.usage, a.json);
  const saved = a.save
    ? (await import("../../../scan/snapshots.ts")).saveSnapshot(ctx.paths.snapshots, inv)
    : undefined;
  if (a.share) return shareReport(ctx, inv, a.json);
  emit(ctx, a.json, inv, () => [...renderScan(inv), ...(saved ? ["", `kept as the baseline: ${saved}`] : [])]);
  return 0;
}

export const scan: CommandFactory = (ctx) =>
  command({
    meta: { name: "scan", description: "what can act on this machine and what it can reach, read off your own disk" },
    args: SCAN_ARGS,
    run: ({ args }) => runScan(ctx, args),
  });

// Who a hold waits for: the seam's own process when it waits (an interceptor, the governed shell), else the agent
// process above a hook (which answers at once and is gone). A hold whose requester exited stops waiting.

import { agentProgram } from "../../gate/seat.ts";
import { processRef } from "../../io/alive.ts";
import type { Context } from "../../ports/context.ts";
import { stampRequester } from "../../state/pending.ts";

/** Stamps the hold with this process (`self`) or the nearest agent above it; no ancestry, no stamp. */
export function stampHold(ctx: Context, holdId: string, who: "self" | "agent"): void {
  const chain = ctx.processes?.ancestry().chain ?? [];
  const self = chain[0];
  const p = who === "self" ? self : chain.slice(1).find((x) => agentProgram(x) !== undefined);
  if (p) stampRequester(ctx.paths.pending, holdId, processRef(p.pid));
}

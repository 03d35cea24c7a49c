// The agent session behind a proxied call, read from the ledger row the agent's own hook wrote for the same call.
import { existsSync } from "node:fs";
import { createArgsDigest } from "../../ledger/digest.ts";
import { hookedCallSession } from "../../ledger/read/hooked.ts";
import { openLedger } from "../../ledger/store.ts";
import type { Context } from "../../ports/context.ts";
import type { HookedLookup } from "./core.ts";

/** How long before a call began its hook row may be: the hook may have asked a person first. */
const HOOK_LEAD_MS = 10 * 60_000;

/** Only read when a result needs it (rare), so the relay never pays for opening the ledger. */
export function hookedSessionLookup(ctx: Context): (call: HookedLookup) => Promise<string | undefined> {
  const digest = createArgsDigest(ctx.paths);
  return async (call) => {
    if (!existsSync(ctx.paths.db)) return undefined;
    const since = new Date(ctx.clock.now() - call.sinceMs - HOOK_LEAD_MS).toISOString();
    const ledger = openLedger(ctx.paths);
    try {
      return hookedCallSession(ledger, call.action, since, digest(call.rawArguments))?.session;
    } finally {
      ledger.close();
    }
  };
}

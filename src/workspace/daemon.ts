// The loop as the daemon runs it: its log, its recorder, the interval (MEMNOX_SYNC_INTERVAL_MS moves it, for tests).
import type { EventInput } from "../core/event.ts";
import type { Context } from "../ports/context.ts";
import { readAccount } from "./account.ts";
import { abortableSleep, type SyncLoop, startSyncLoop } from "./loop.ts";
import { isRevoked, runPass } from "./sync.ts";

const HEARTBEAT_MS = 60_000;

export function startWorkspaceSync(
  ctx: Context,
  say: (words: string) => void,
  record: (e: EventInput) => void,
): SyncLoop {
  const given = Number(ctx.env.MEMNOX_SYNC_INTERVAL_MS);
  return startSyncLoop({
    baseMs: Number.isFinite(given) && given >= 50 ? given : HEARTBEAT_MS,
    account: () => readAccount(ctx.paths.account),
    revoked: (a) => isRevoked(ctx, a),
    pass: (a) => runPass(ctx, a, record),
    sleep: abortableSleep,
    say,
  });
}

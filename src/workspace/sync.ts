// The pass as both callers run it: `memnox sync now` and the daemon's loop, one at a time, rows recorded through
// whichever recorder the caller holds.
import { MemnoxError } from "../core/errors.ts";
import type { EventInput } from "../core/event.ts";
import type { Context } from "../ports/context.ts";
import { type Account, readAccount } from "./account.ts";
import { withPassLock } from "./lock.ts";
import { type PassReport, syncPass } from "./pass.ts";
import { readState } from "./state.ts";

export function isRevoked(ctx: Pick<Context, "paths">, account: Account): boolean {
  return readState(ctx.paths.sync, account.machineId).revokedAt !== undefined;
}

export async function runPass(
  ctx: Pick<Context, "paths" | "clock" | "version">,
  account: Account,
  record: (e: EventInput) => void,
): Promise<PassReport> {
  return withPassLock(`${ctx.paths.sync}.lock`, () =>
    syncPass({ paths: ctx.paths, now: () => ctx.clock.now(), version: ctx.version, record }, account),
  );
}

/** The account this machine is enrolled with, or the error a command prints when there is none. */
export function enrolled(ctx: Pick<Context, "paths">): Account {
  const account = readAccount(ctx.paths.account);
  if (!account)
    throw new MemnoxError(
      "not_found",
      "this machine is not connected to a workspace, so nothing was sent anywhere",
      "memnox login connects it",
    );
  return account;
}

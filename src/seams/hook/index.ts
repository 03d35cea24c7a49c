// The hook face: `memnox hook <agent> [event]`, one agent hook call per process.
import type { Context } from "../../ports/context.ts";
import { realDeps } from "./deps.ts";
import { handleHook } from "./handle.ts";

export function run(ctx: Context): Promise<number> {
  return handleHook(ctx, realDeps(ctx));
}

// The daemon face.
import { MemnoxError } from "../core/errors.ts";
import type { Context } from "../ports/context.ts";

export async function run(_ctx: Context): Promise<number> {
  throw new MemnoxError("not_built", "the daemon is not built yet");
}

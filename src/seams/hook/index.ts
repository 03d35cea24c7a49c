// The hook face.
import { MemnoxError } from "../../core/errors.ts";
import type { Context } from "../../ports/context.ts";

export async function run(_ctx: Context): Promise<number> {
  throw new MemnoxError("not_built", "the hook face is not built yet");
}

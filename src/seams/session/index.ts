// The session face.
import { MemnoxError } from "../../core/errors.ts";
import type { Context } from "../../ports/context.ts";

export async function run(_ctx: Context): Promise<number> {
  throw new MemnoxError("not_built", "the session face is not built yet");
}

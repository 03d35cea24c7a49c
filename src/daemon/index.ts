// The daemon face: `memnox daemon` in the foreground, what the user service starts (bin/ routes its flags to the CLI).
import type { Context } from "../ports/context.ts";

export async function run(ctx: Context): Promise<number> {
  const { serve } = await import("./serve.ts");
  return serve(ctx);
}

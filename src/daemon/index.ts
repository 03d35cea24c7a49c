// The daemon face: bare `memnox daemon` runs it in the foreground (what the user service starts); with a flag
// (`--install`, `--status`, `--uninstall`, `--help`) it is the CLI command of the same name.
import type { Context } from "../ports/context.ts";

export async function run(ctx: Context): Promise<number> {
  if (ctx.args.length === 0) {
    const { serve } = await import("./serve.ts");
    return serve(ctx);
  }
  const cli = await import("../seams/cli/index.ts");
  return cli.run({ ...ctx, args: ["daemon", ...ctx.args] });
}

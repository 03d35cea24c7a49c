// The session face: `memnox-session` / `memnox mcp session serve`, an MCP server the agent launches with five tools
// that read memnox's record of this session. The MCP SDK loads only here, and only when the face runs.
import { closeSync, openSync } from "node:fs";
import { MemnoxError } from "../../core/errors.ts";
import type { Context } from "../../ports/context.ts";

export async function run(ctx: Context): Promise<number> {
  if (ctx.args.length > 0) {
    throw new MemnoxError("usage", `memnox-session takes no arguments, not \`${ctx.args[0]}\``, "the agent starts it");
  }
  const { serveSession } = await import("./server.ts");
  return serveSession({ ctx, terminal: controllingTerminal });
}

/** Whether this process still has the terminal its agent runs in, where the agent's own prompt reaches a person. */
function controllingTerminal(): boolean {
  try {
    closeSync(openSync("/dev/tty", "r"));
    return true;
  } catch {
    return false;
  }
}

// The mcp-proxy face: `memnox-mcp-proxy --name <server> -- <command…>` between an agent and its real MCP server.
import { createGate } from "../../gate/index.ts";
import type { Context } from "../../ports/context.ts";
import { newSessionId } from "../shared/agent-env.ts";
import { parseProxyArgs } from "./args.ts";
import { runProxy } from "./run.ts";

export { parseProxyArgs } from "./args.ts";
export type { ByteSink, ProxyOptions } from "./run.ts";
export { runProxy } from "./run.ts";

export async function run(ctx: Context): Promise<number> {
  const { name, command } = parseProxyArgs(ctx.args);
  const gate = createGate(ctx);
  // Without `memnox run`, one server process is one agent session: wariness then holds for this server's calls.
  const session = ctx.env.MEMNOX_SESSION || newSessionId(ctx.clock.now());
  return runProxy({
    name,
    command,
    gate,
    input: Bun.stdin.stream(),
    output: { write: (bytes) => process.stdout.write(bytes) },
    log: (text) => ctx.io.err(text),
    env: ctx.env,
    cwd: ctx.cwd,
    root: ctx.paths.root,
    session,
    ...(ctx.env.MEMNOX_AGENT_NAME ? { agent: ctx.env.MEMNOX_AGENT_NAME } : {}),
    now: () => ctx.clock.now(),
    forwardSignals: true,
  });
}

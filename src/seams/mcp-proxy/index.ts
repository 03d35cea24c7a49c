// The mcp-proxy face: `memnox-mcp-proxy --name <server> -- <command…>` between an agent and its real MCP server.
import { createGate } from "../../gate/index.ts";
import type { GateServices } from "../../gate/types.ts";
import type { Context } from "../../ports/context.ts";
import { newSessionId } from "../shared/agent-env.ts";
import { stampHold } from "../shared/requester.ts";
import { type ProxyArgs, parseProxyArgs } from "./args.ts";
import { hookedSessionLookup } from "./hooked.ts";
import { type ProxyOptions, runProxy } from "./run.ts";

export async function run(ctx: Context): Promise<number> {
  const args = parseProxyArgs(ctx.args);
  return runProxy(stdioOptions(ctx, args, createGate(ctx)));
}

/** The face's wiring: our stdin/stdout are the agent, stderr is shared with the server, the env goes to the child. */
function stdioOptions(ctx: Context, args: ProxyArgs, gate: GateServices): ProxyOptions {
  // Without `memnox run`, one server process is one agent session: wariness then holds for this server's calls.
  const session = ctx.env.MEMNOX_SESSION || newSessionId(ctx.clock.now());
  return {
    name: args.name,
    command: args.command,
    gate,
    input: Bun.stdin.stream(),
    output: { write: (bytes) => process.stdout.write(bytes) },
    log: (text) => ctx.io.err(text),
    env: ctx.env,
    cwd: ctx.cwd,
    manifestDir: ctx.paths.mcp,
    session,
    ...(ctx.env.MEMNOX_AGENT_NAME ? { agent: ctx.env.MEMNOX_AGENT_NAME } : {}),
    now: () => ctx.clock.now(),
    forwardSignals: true,
    hookedSession: hookedSessionLookup(ctx),
    // The proxy lives as long as its agent's connection: a hold it waits on ends with it.
    waitingOn: (holdId) => stampHold(ctx, holdId, "self"),
  };
}

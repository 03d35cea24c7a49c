// Inside the agent wall the seams record and are held through the daemon, since memnox's files are read-only there:
// a session that starts where the wall is raised and no daemon answers starts one, in the background, and goes on.
import { existsSync, openSync } from "node:fs";
import { daemonClient } from "../../gate/remote/client.ts";
import type { Context } from "../../ports/context.ts";
import { agentWallFile } from "../../wall/agent.ts";

/** Start `memnox daemon` detached when the agent wall is written and nothing answers on the socket. */
export async function ensureDaemon(ctx: Pick<Context, "paths" | "env">): Promise<"running" | "started" | "none"> {
  if (!existsSync(agentWallFile(ctx.paths)) || !existsSync(ctx.paths.app)) return "none";
  const client = daemonClient(ctx.paths.sock);
  try {
    if (client.reachable && (await client.call({ method: "ping" }, { timeoutMs: 500 }))) return "running";
  } finally {
    client.close();
  }
  const log = openSync(ctx.paths.daemonLog, "a", 0o600);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined && !k.startsWith("MEMNOX_WALL")) env[k] = v;
  const child = Bun.spawn([ctx.paths.app, "daemon"], {
    env: { ...env, HOME: ctx.paths.home, MEMNOX_HOME: ctx.paths.root },
    cwd: ctx.paths.root,
    stdin: "ignore",
    stdout: log,
    stderr: log,
    detached: true,
  });
  child.unref();
  return "started";
}

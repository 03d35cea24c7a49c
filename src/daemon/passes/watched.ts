// The agents' configuration the keeping passes watch: where each agent keeps its hooks and its MCP servers, and
// the folders whose appearing says an agent was installed. One list, so the hook keeper and drift wake alike.
import { AGENTS } from "../../../hooks/types.ts";
import type { Context } from "../../ports/context.ts";
import { agentSettingsPaths } from "../../wire/agents.ts";
import { candidateFiles } from "../../wire/clients.ts";
import { hookTarget } from "../../wire/hooks/targets.ts";

export function agentConfigFiles(ctx: Pick<Context, "paths" | "env">): string[] {
  const at = { home: ctx.paths.home, env: ctx.env };
  const hooks = AGENTS.map((a) => hookTarget(a).file(at));
  const servers = candidateFiles({ home: ctx.paths.home, cwd: ctx.paths.home, env: ctx.env }).map((f) => f.path);
  return [...new Set([...hooks, ...servers, ...agentSettingsPaths(ctx)])];
}

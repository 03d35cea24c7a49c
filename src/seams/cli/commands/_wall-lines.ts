// doctor --wiring's lines for the agent wall: whether it is written and held here, and for each installed agent
// whether its shell commands run inside it and which of its tool calls reach the gate, said plainly where not.
import { existsSync } from "node:fs";
import type { AgentName } from "../../../../hooks/types.ts";
import { readJsonIfExists } from "../../../io/files.ts";
import type { Context } from "../../../ports/context.ts";
import { readAgentWall } from "../../../wall/agent.ts";
import { kernelName } from "../../../wall/held.ts";
import { abiCap, probeKernel } from "../../../wall/probe.ts";
import { codexWalled } from "../../../wire/agent-shell.ts";
import { managedInForce, PREFIX_VAR } from "../../../wire/agent-wall.ts";
import { detectAgents } from "../../../wire/agents.ts";
import { agentHookState } from "../../../wire/hooks/install.ts";
import { hookTarget } from "../../../wire/hooks/targets.ts";
import type { WiringLine } from "../../../wire/wiring-lines.ts";

/** Which of each agent's tool calls its hook hands memnox, from what each agent's hook system offers. */
const TOOLS: Readonly<Record<AgentName, string>> = {
  "claude-code": "every tool call reaches the gate (its built-in tools, Skill, Agent, Workflow, MCP, and any it adds)",
  codex: "its shell, apply_patch and MCP calls reach the gate; Codex's hook reports no other tool",
  "gemini-cli": "every tool call reaches the gate",
  cursor: "commands, MCP calls, file reads and writes reach the gate; web fetches have no hook",
  windsurf: "reads, writes, commands and MCP calls reach the gate; web fetches have no hook",
  "copilot-cli": "every tool call its preToolUse hook reports reaches the gate",
  opencode: "every tool call reaches the gate through memnox's plugin (tool.execute.before)",
};

function claudeShell(ctx: Context): WiringLine {
  if (managedInForce(ctx.env, ctx.paths.applier))
    return {
      seam: "wall:claude-code",
      status: "ok",
      words:
        "its shell commands, skills' lines, hooks and MCP servers run inside the wall; managed settings hold it, so no project or user setting can drop it",
    };
  const file = hookTarget("claude-code").file({ home: ctx.paths.home, env: ctx.env });
  const raw = readJsonIfExists(file) as { env?: Record<string, unknown> } | undefined;
  if (raw?.env?.[PREFIX_VAR] === ctx.paths.applier)
    return {
      seam: "wall:claude-code",
      status: "warn",
      words:
        "its shell commands run inside the wall through your user settings, where a project's settings could override it",
      fix: "memnox protect --wall as root (it writes Claude Code's managed settings)",
    };
  return {
    seam: "wall:claude-code",
    status: "warn",
    words: "its shell commands do not run inside the wall",
    fix: "memnox protect --wall",
  };
}

function shellLine(ctx: Context, agent: AgentName): WiringLine {
  if (agent === "claude-code") return claudeShell(ctx);
  if (agent === "codex")
    return codexWalled(ctx)
      ? {
          seam: "wall:codex",
          status: "ok",
          words: "every command Codex runs is handed to the wall's applier by its start-up file",
        }
      : {
          seam: "wall:codex",
          status: "warn",
          words: "Codex's commands do not run inside the wall",
          fix: "memnox setup, then memnox protect --wall",
        };
  if (agent === "gemini-cli") {
    const hooked = agentHookState(ctx, agent).presence === "hooked";
    return hooked
      ? {
          seam: "wall:gemini-cli",
          status: "ok",
          words: "memnox's hook hands every command it allows to the wall's applier",
        }
      : {
          seam: "wall:gemini-cli",
          status: "warn",
          words: "Gemini CLI's commands reach the wall only through memnox's hook, which is not there",
          fix: "memnox setup",
        };
  }
  return {
    seam: `wall:${agent}`,
    status: "warn",
    words: `${agent} offers no way to send its shell commands through memnox, so they run outside the wall (its hook still rules on each)`,
  };
}

export async function agentWallLines(ctx: Context): Promise<WiringLine[]> {
  let file: ReturnType<typeof readAgentWall>;
  try {
    file = readAgentWall(ctx.paths);
  } catch (e) {
    return [{ seam: "agent-wall", status: "fail", words: (e as Error).message, fix: "memnox protect --wall" }];
  }
  const installed = detectAgents(ctx)
    .filter((a) => a.installed)
    .map((a) => a.agent);
  const tools = installed.map((a): WiringLine => ({ seam: `tools:${a}`, status: "ok", words: TOOLS[a] }));
  if (!file || !existsSync(ctx.paths.applier)) {
    return [
      {
        seam: "agent-wall",
        status: "idle",
        words: "no agent wall: an agent's shell command can read and write whatever its text does not show",
        fix: "memnox protect --wall",
      },
      ...tools,
    ];
  }
  const kernel = await probeKernel(process.platform, abiCap(ctx.env.MEMNOX_WALL_ABI));
  const held = kernel.kind === "landlock";
  const head: WiringLine = held
    ? {
        seam: "agent-wall",
        status: "ok",
        words: `held by ${kernelName(kernel)}: ${file.wall.unreadable.length} paths unreadable, ${file.wall.unwritable.length} unwritable, to every walled shell command (written ${file.writtenAt})`,
      }
    : {
        seam: "agent-wall",
        status: "fail",
        words: `written, but ${kernelName(kernel)}: every walled shell command is refused`,
        fix: "memnox protect --revert-wall",
      };
  return [head, ...installed.map((a) => shellLine(ctx, a)), ...tools];
}

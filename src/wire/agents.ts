// Which agents are installed here, read off the disk: the folder each keeps its settings in, or its program on PATH.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AGENT_LABELS, AGENTS, type AgentName } from "../../hooks/types.ts";
import { claudeDir, claudeState, codexHome, geminiDir } from "../core/agent-paths.ts";
import { findRealBinary } from "../io/real-binary.ts";
import type { Context } from "../ports/context.ts";

export interface DetectedAgent {
  readonly agent: AgentName;
  readonly label: string;
  readonly installed: boolean;
  /** What proved it: a settings folder, or the program on PATH. */
  readonly evidence: readonly string[];
}

function places(agent: AgentName, home: string, env: Context["env"]): { dirs: string[]; programs: string[] } {
  switch (agent) {
    case "claude-code":
      return {
        dirs: [claudeDir(home, env), claudeState(home, env)],
        programs: ["claude"],
      };
    case "codex":
      return { dirs: [codexHome(home, env)], programs: ["codex"] };
    case "gemini-cli":
      return { dirs: [geminiDir(home, env)], programs: ["gemini"] };
    case "cursor":
      return { dirs: [join(home, ".cursor")], programs: ["cursor", "cursor-agent"] };
    case "windsurf":
      return { dirs: [join(home, ".codeium", "windsurf")], programs: ["windsurf"] };
    case "copilot-cli":
      return { dirs: [env.COPILOT_HOME || join(home, ".copilot")], programs: ["copilot"] };
    case "opencode":
      return {
        dirs: [
          join(env.XDG_CONFIG_HOME || join(home, ".config"), "opencode"),
          join(home, ".local", "share", "opencode"),
        ],
        programs: ["opencode"],
      };
  }
}

/** The agent a program is, by its name (`claude`, `codex`...), and the state it keeps: its settings folder and files. */
export function agentOfProgram(
  program: string,
  home: string,
  env: Context["env"],
): { agent: AgentName; state: string[] } | undefined {
  const agent = AGENTS.find((a) => places(a, home, env).programs.includes(program));
  return agent ? { agent, state: places(agent, home, env).dirs } : undefined;
}

/** Every agent memnox hooks, and whether (and by what) this machine has it. */
export function detectAgents(ctx: Pick<Context, "paths" | "env" | "execPath">): DetectedAgent[] {
  return AGENTS.map((agent) => {
    const at = places(agent, ctx.paths.home, ctx.env);
    const evidence = [
      ...at.dirs.filter((d) => existsSync(d)),
      ...at.programs.flatMap((p) => {
        const found = findRealBinary(p, ctx.env.PATH, [ctx.paths.bin], ctx.execPath);
        return found ? [found] : [];
      }),
    ];
    return { agent, label: AGENT_LABELS[agent], installed: evidence.length > 0, evidence };
  });
}

/** The folders and files whose appearing says an agent was installed: what the daemon watches for a new one. */
export function agentSettingsPaths(ctx: Pick<Context, "paths" | "env">): string[] {
  return AGENTS.flatMap((agent) => places(agent, ctx.paths.home, ctx.env).dirs);
}

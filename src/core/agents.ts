// Agents' own programs, by executable or script name: who is calling (src/gate/seat.ts), and what `memnox run` starts
// as an agent rather than as a command to judge.
export const AGENT_PROGRAMS: ReadonlySet<string> = new Set([
  "claude",
  "codex",
  "gemini",
  "cursor-agent",
  "aider",
  "goose",
  "opencode",
  "amp",
  "cline",
  "qwen",
  "crush",
  "copilot",
  "auggie",
  "droid",
  "kiro-cli",
  "openhands",
]);

/** `claude`, `/usr/local/bin/codex`: an agent's own program. */
export function isAgentProgram(program: string): boolean {
  return AGENT_PROGRAMS.has(program.split("/").pop() ?? program);
}

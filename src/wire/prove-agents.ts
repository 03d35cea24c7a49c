// What `doctor --prove` feeds each agent's installed hook: a force push, in that agent's own payload shape, and how
// to read its answer in that agent's own protocol (see hooks/<agent>.ts for both).
import type { AgentName } from "../../hooks/types.ts";

import { isRecord } from "../core/record.ts";
export const FORCE_PUSH = "git push --force origin main";

/** The pre-shell payload `agent` sends for a Bash call of FORCE_PUSH in `cwd`. */
export function forcePushPayload(agent: AgentName, cwd: string, nowIso: string): unknown {
  const session = "memnox-doctor-prove";
  switch (agent) {
    case "claude-code":
      return {
        session_id: session,
        transcript_path: "",
        cwd,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: FORCE_PUSH, description: "memnox doctor --prove" },
        tool_use_id: "toolu_memnox_prove",
      };
    case "codex":
      return {
        session_id: session,
        transcript_path: null,
        cwd,
        hook_event_name: "PreToolUse",
        model: "memnox-prove",
        permission_mode: "default",
        turn_id: "turn-prove",
        tool_name: "Bash",
        tool_input: { command: FORCE_PUSH },
        tool_use_id: "call_memnox_prove",
      };
    case "gemini-cli":
      return {
        session_id: session,
        transcript_path: "",
        cwd,
        hook_event_name: "BeforeTool",
        timestamp: nowIso,
        tool_name: "run_shell_command",
        tool_input: { command: FORCE_PUSH, description: "memnox doctor --prove" },
      };
    case "cursor":
      return {
        conversation_id: session,
        generation_id: "gen-prove",
        hook_event_name: "beforeShellExecution",
        cursor_version: "memnox-prove",
        workspace_roots: [cwd],
        user_email: null,
        transcript_path: null,
        command: FORCE_PUSH,
        cwd,
        sandbox: false,
      };
    case "windsurf":
      return {
        agent_action_name: "pre_run_command",
        trajectory_id: session,
        execution_id: "exec-prove",
        timestamp: nowIso,
        tool_info: { command_line: FORCE_PUSH, cwd },
      };
    case "copilot-cli":
      return {
        sessionId: session,
        timestamp: Date.parse(nowIso),
        cwd,
        toolName: "bash",
        toolArgs: { command: FORCE_PUSH, description: "memnox doctor --prove" },
      };
    case "opencode":
      return {
        event: "tool.execute.before",
        tool: "bash",
        sessionID: session,
        callID: "call_memnox_prove",
        args: { command: FORCE_PUSH, description: "memnox doctor --prove" },
        directory: cwd,
      };
  }
}

function parsed(stdout: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(stdout.trim() || "{}");
    return isRecord(v) ? v : {};
  } catch {
    return {};
  }
}

/** Whether the answer refuses the call, in `agent`'s protocol (exit 2 blocks in every one). */
export function refusedBy(agent: AgentName, code: number, stdout: string): boolean {
  if (code === 2) return true;
  const out = parsed(stdout);
  const specific = out.hookSpecificOutput as Record<string, unknown> | undefined;
  switch (agent) {
    case "claude-code":
    case "codex":
      return specific?.permissionDecision === "deny" || out.decision === "block";
    case "gemini-cli":
      return out.decision === "deny" || out.decision === "block";
    case "cursor":
      return out.permission === "deny";
    case "windsurf":
      return false;
    case "copilot-cli":
      return out.permissionDecision === "deny";
    case "opencode":
      return out.decision === "deny";
  }
}

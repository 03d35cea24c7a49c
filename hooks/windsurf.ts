// Windsurf / Cascade (documented protocol; no CLI here to run). What `setup` adds, to
// `~/.codeium/windsurf/hooks.json` (JetBrains plugin: `~/.codeium/hooks.json`), merged into any hooks already there:
//
//   { "hooks": {
//     "pre_run_command":   [{ "command": "<app> hook windsurf pre_run_command", "show_output": false }],
//     "pre_read_code":     [{ "command": "<app> hook windsurf pre_read_code", "show_output": false }],
//     "pre_write_code":    [{ "command": "<app> hook windsurf pre_write_code", "show_output": false }],
//     "pre_mcp_tool_use":  [{ "command": "<app> hook windsurf pre_mcp_tool_use", "show_output": false }]
//   } }
//
// No matcher and no timeout field exist. Protocol: exit 0 lets the call run, exit 2 blocks it (pre-hooks only) and
// Cascade shows stderr to the agent; any other exit lets it run. No JSON is read back, so an ask is refused with
// the hold to approve, and nothing reaches the agent at a session start or a prompt. Web fetches have no hook.
import { payloadEvent, read, v } from "./payload.ts";
import { absolute, fileCall, mcpCalls } from "./tools.ts";
import type { HookAdapter, HookEvent, HookReply, ParseContext, SeamCall, ToolVerdict } from "./types.ts";

/** Cascade blocks a pre-hook only on this exit code. */
const BLOCK_EXIT = 2;

const Common = v.looseObject({ trajectory_id: v.optional(v.string()), tool_info: v.unknown() });
const RunCommand = v.looseObject({ command_line: v.string(), cwd: v.optional(v.string()) });
const FileInfo = v.looseObject({ file_path: v.string() });
const McpInfo = v.looseObject({
  mcp_server_name: v.optional(v.string()),
  mcp_tool_name: v.string(),
  mcp_tool_arguments: v.optional(v.unknown()),
});

function parse(event: string, payload: unknown, pc: ParseContext): HookEvent {
  const what = `windsurf ${event} payload`;
  const tool = (name: string) => {
    const p = read(Common, payload, what);
    return { session: p.trajectory_id, info: p.tool_info, name };
  };
  const done = (t: ReturnType<typeof tool>, cwd: string, calls: readonly SeamCall[]): HookEvent => ({
    kind: "tool",
    tool: t.name,
    cwd,
    calls,
    canAsk: false,
    ...(t.session ? { session: t.session } : {}),
  });
  switch (event) {
    case "pre_run_command": {
      const t = tool("run_command");
      const info = read(RunCommand, t.info, `${what} tool_info`);
      return done(t, info.cwd ?? pc.cwd, [{ command: info.command_line }]);
    }
    case "pre_read_code":
    case "pre_write_code": {
      const t = tool(event === "pre_read_code" ? "read_code" : "write_code");
      const info = read(FileInfo, t.info, `${what} tool_info`);
      const path = absolute(info.file_path, pc.cwd, pc.home);
      return done(t, pc.cwd, [fileCall(event === "pre_read_code" ? "read" : "write", [path], t.info)]);
    }
    case "pre_mcp_tool_use": {
      const t = tool("mcp_tool_use");
      const info = read(McpInfo, t.info, `${what} tool_info`);
      const at = { cwd: pc.cwd, home: pc.home };
      return done(
        t,
        pc.cwd,
        mcpCalls(info.mcp_server_name || undefined, info.mcp_tool_name, info.mcp_tool_arguments, at),
      );
    }
    default:
      return { kind: "ignore", why: `windsurf ${event} is not an event memnox acts on` };
  }
}

const PROCEED: HookReply = { stdout: "", exitCode: 0 };

function decision(_event: string, verdict: ToolVerdict): HookReply {
  if (verdict.effect === "allow") return PROCEED;
  return { stdout: "", stderr: `${verdict.message}\n`, exitCode: BLOCK_EXIT };
}

const GATED = new Set(["pre_run_command", "pre_read_code", "pre_write_code", "pre_mcp_tool_use"]);

export const windsurf: HookAdapter = {
  agent: "windsurf",
  eventOf: (payload) => payloadEvent(payload, "agent_action_name"),
  parse,
  gates: (event) => GATED.has(event),
  asksInSession: false,
  hearsContext: false,
  remindsAtCall: false,
  decision,
  context: () => PROCEED,
  neutral: () => PROCEED,
};

// Cursor (documented protocol; no CLI here to run). What `setup` adds, to `~/.cursor/hooks.json`, merged into any
// hooks already there:
//
//   { "version": 1, "hooks": {
//     "beforeShellExecution": [{ "command": "<app> hook cursor beforeShellExecution", "timeout": 30, "failClosed": true }],
//     "beforeMCPExecution":   [{ "command": "<app> hook cursor beforeMCPExecution", "timeout": 30, "failClosed": true }],
//     "beforeReadFile":       [{ "command": "<app> hook cursor beforeReadFile", "timeout": 30, "failClosed": true }],
//     "preToolUse":           [{ "command": "<app> hook cursor preToolUse", "matcher": "Write|Delete", "timeout": 30, "failClosed": true }]
//   } }
//
// `timeout` in SECONDS; `failClosed` because Cursor otherwise runs the call when a hook crashes, times out or answers
// something it cannot read. Shell and MCP go through their own events (the MCP one names the server); `preToolUse`
// only for file writes, since it names no MCP server (`MCP:<tool>` becomes `mcp.*.<tool>`) and cannot ask.
// Protocol: `{ "permission": "allow"|"ask"|"deny", "user_message", "agent_message" }` (snake_case, as the current
// docs spell it); `beforeReadFile` answers `permission` and `user_message` only. Cursor asks in its own prompt for
// shell and MCP calls; a yes there is not learned, because its later payloads do not say which call it was.
// Cursor also runs Claude Code's hooks; the claude-code adapter steps aside for payloads carrying `cursor_version`.
import { payloadEvent, read, Search, v } from "./payload.ts";
import { absolute, contentSearchCall, fileCall, mcpCalls } from "./tools.ts";
import {
  type HookAdapter,
  type HookEvent,
  HookInputError,
  type HookReply,
  type ParseContext,
  type SeamCall,
  type ToolVerdict,
} from "./types.ts";

const str = v.optional(v.string());
const Common = v.looseObject({
  conversation_id: str,
  session_id: str,
  cwd: str,
  workspace_roots: v.optional(v.array(v.string())),
});
const Shell = v.looseObject({ ...Common.entries, command: v.string() });
const Mcp = v.looseObject({
  ...Common.entries,
  tool_name: v.string(),
  tool_input: v.optional(v.unknown()),
  mcp_server_name: str,
});
const ReadFile = v.looseObject({ ...Common.entries, file_path: v.string() });
const Tool = v.looseObject({
  ...Common.entries,
  tool_name: v.string(),
  tool_input: v.optional(v.unknown()),
  tool_use_id: str,
});
const AnyPath = v.looseObject({ file_path: str, path: str, target_file: str });

/** `tool_input` arrives as a JSON string in beforeMCPExecution (and as an object in some versions). */
function mcpInput(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return { input: raw };
  }
}

function pathOf(input: unknown, tool: string, cwd: string, pc: ParseContext): string {
  const p = read(AnyPath, input, `${tool} input`);
  const path = p.file_path ?? p.path ?? p.target_file;
  if (!path) throw new HookInputError(`${tool} input names no file`);
  return absolute(path, cwd, pc.home);
}

export function cursorToolCalls(tool: string, input: unknown, cwd: string, pc: ParseContext): SeamCall[] | undefined {
  if (tool.startsWith("MCP:")) return mcpCalls(undefined, tool.slice(4), input, { cwd, home: pc.home });
  switch (tool) {
    case "Shell":
      return [{ command: read(v.looseObject({ command: v.string() }), input, "Shell input").command }];
    case "Read":
      return [fileCall("read", [pathOf(input, tool, cwd, pc)], input)];
    case "Write":
    case "Edit":
      return [fileCall("write", [pathOf(input, tool, cwd, pc)], input)];
    case "Delete":
      return [fileCall("delete", [pathOf(input, tool, cwd, pc)], input)];
    case "Grep": {
      const s = read(Search, input, "Grep input");
      return [contentSearchCall(s.path, undefined, { cwd, home: pc.home }, input)];
    }
  }
  return undefined;
}

function base(p: v.InferOutput<typeof Common>, pc: ParseContext) {
  const session = p.conversation_id ?? p.session_id;
  return { cwd: p.cwd ?? p.workspace_roots?.[0] ?? pc.cwd, ...(session ? { session } : {}) };
}

function parse(event: string, payload: unknown, pc: ParseContext): HookEvent {
  switch (event) {
    case "beforeShellExecution": {
      const p = read(Shell, payload, "cursor beforeShellExecution payload");
      return { ...base(p, pc), kind: "tool", tool: "Shell", calls: [{ command: p.command }], canAsk: true };
    }
    case "beforeMCPExecution": {
      const p = read(Mcp, payload, "cursor beforeMCPExecution payload");
      const b = base(p, pc);
      const calls = mcpCalls(p.mcp_server_name || undefined, p.tool_name, mcpInput(p.tool_input), {
        cwd: b.cwd,
        home: pc.home,
      });
      return { ...b, kind: "tool", tool: p.tool_name, calls, canAsk: true };
    }
    case "beforeReadFile": {
      const p = read(ReadFile, payload, "cursor beforeReadFile payload");
      const b = base(p, pc);
      const call = fileCall("read", [absolute(p.file_path, b.cwd, pc.home)], { file_path: p.file_path });
      return { ...b, kind: "tool", tool: "Read", calls: [call], canAsk: false };
    }
    case "preToolUse": {
      const p = read(Tool, payload, "cursor preToolUse payload");
      const b = base(p, pc);
      const calls = cursorToolCalls(p.tool_name, p.tool_input, b.cwd, pc);
      if (!calls) return { ...b, kind: "unknown-tool", tool: p.tool_name };
      return { ...b, kind: "tool", tool: p.tool_name, calls, canAsk: false };
    }
    default:
      return { kind: "ignore", why: `cursor ${event} is not an event memnox acts on` };
  }
}

function json(value: unknown): HookReply {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}

const ALLOW = json({ permission: "allow" });

function decision(event: string, verdict: ToolVerdict): HookReply {
  if (verdict.effect === "allow") return ALLOW;
  if (event === "beforeReadFile") return json({ permission: "deny", user_message: verdict.message });
  return json({ permission: verdict.effect, user_message: verdict.message, agent_message: verdict.message });
}

const GATED = new Set(["beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "preToolUse"]);

export const cursor: HookAdapter = {
  agent: "cursor",
  eventOf: (payload) => payloadEvent(payload),
  parse,
  gates: (event) => GATED.has(event),
  asksInSession: true,
  hearsContext: false,
  remindsAtCall: false,
  decision,
  context: (event) => (GATED.has(event) ? ALLOW : json({})),
  neutral: (event) => (GATED.has(event) ? ALLOW : json({})),
};

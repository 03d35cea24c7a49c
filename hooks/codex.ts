// Codex CLI (0.171.0; wire schemas in fixtures/hooks/codex/schema). What `setup` adds, to `~/.codex/hooks.json`
// (`$CODEX_HOME/hooks.json`; its root takes only `description` and `hooks`, anything else makes Codex refuse the file):
//
//   { "hooks": {
//     "SessionStart":     [{ "hooks": [{ "type": "command", "command": "<app> hook codex SessionStart", "timeout": 10 }] }],
//     "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "<app> hook codex UserPromptSubmit", "timeout": 10 }] }],
//     "PreToolUse":       [{ "matcher": TOOLS, "hooks": [{ "type": "command", "command": "<app> hook codex PreToolUse", "timeout": 30 }] }],
//     "PostToolUse":      [{ "matcher": TOOLS, "hooks": [{ "type": "command", "command": "<app> hook codex PostToolUse", "timeout": 10 }] }],
//     "SessionEnd":       [{ "hooks": [{ "type": "command", "command": "<app> hook codex SessionEnd", "timeout": 3 }] }]
//   } }
//
// TOOLS = "^(Bash|apply_patch|mcp__.*)$"; `timeout` in SECONDS. Codex skips a new or changed hook until a person
// trusts it in `/hooks`, so setup must say so; it cannot switch the hook on silently.
// Protocol traps: allow is exactly `{}`; `permissionDecision: "ask"` or `"allow"`, `continue`, `stopReason` or any
// unknown field count as a failed hook and Codex RUNS the tool. So an ask is refused here, with the hold to approve.

import { isRecord } from "../src/core/record.ts";
import { shellWord } from "../src/core/shell-quote.ts";
import { num, payloadEvent, read, resultText, v } from "./payload.ts";
import { mcpCalls, patchCalls, splitDoubleUnderscore } from "./tools.ts";
import {
  type HookAdapter,
  type HookEvent,
  HookInputError,
  type HookReply,
  type ParseContext,
  type SeamCall,
  type ToolVerdict,
} from "./types.ts";

export const TOOLS = "^(Bash|apply_patch|mcp__.*)$";

const str = v.optional(v.string());
const Common = v.looseObject({ session_id: str, cwd: str, turn_id: str });
const Tool = v.looseObject({ ...Common.entries, tool_name: v.string(), tool_input: v.unknown(), tool_use_id: str });
const Done = v.looseObject({
  ...Tool.entries,
  tool_response: v.optional(v.unknown()),
  transcript_path: v.optional(v.nullable(v.string())),
});
const Prompt = v.looseObject({ ...Common.entries, prompt: v.string() });
const ShellInput = v.looseObject({ command: v.union([v.string(), v.array(v.string())]) });

/** Codex has sent a command both as a line and as an argv (`["bash", "-lc", "…"]`); both become one line. */
function commandLine(command: string | readonly string[]): string {
  if (typeof command === "string") return command;
  const [sh, flag, script] = command;
  if (command.length === 3 && sh && /(^|\/)(ba|z|da)?sh$/.test(sh) && (flag === "-lc" || flag === "-c") && script) {
    return script;
  }
  return command.map(shellWord).join(" ");
}

export function codexToolCalls(tool: string, input: unknown, cwd: string, pc: ParseContext): SeamCall[] | undefined {
  if (tool === "Bash") return [{ command: commandLine(read(ShellInput, input, "Bash input").command) }];
  if (tool === "apply_patch") {
    const patch = read(ShellInput, input, "apply_patch input").command;
    const calls = patchCalls(typeof patch === "string" ? patch : patch.join("\n"), cwd, pc.home, input);
    if (calls.length === 0) throw new HookInputError("apply_patch input names no file");
    return calls;
  }
  const mcp = splitDoubleUnderscore(tool);
  return mcp ? mcpCalls(mcp.server, mcp.tool, input, { cwd, home: pc.home }) : undefined;
}

function base(p: v.InferOutput<typeof Common>, pc: ParseContext) {
  return { cwd: p.cwd ?? pc.cwd, ...(p.session_id ? { session: p.session_id } : {}) };
}

function parse(event: string, payload: unknown, pc: ParseContext): HookEvent {
  switch (event) {
    case "PreToolUse": {
      const p = read(Tool, payload, "codex PreToolUse payload");
      const b = base(p, pc);
      const calls = codexToolCalls(p.tool_name, p.tool_input, b.cwd, pc);
      if (!calls) return { ...b, kind: "unknown-tool", tool: p.tool_name };
      return {
        ...b,
        kind: "tool",
        tool: p.tool_name,
        calls,
        canAsk: false,
        ...(p.tool_use_id ? { callKey: p.tool_use_id } : {}),
        ...(p.turn_id ? { turn: p.turn_id } : {}),
      };
    }
    case "PostToolUse": {
      const p = read(Done, payload, "codex PostToolUse payload");
      if (!p.tool_use_id) return { kind: "ignore", why: "no tool_use_id to link the outcome to" };
      const b = base(p, pc);
      // 0.171 hands a shell call's output as a plain string with no exit code: the session transcript has it.
      const exitCode = exitCodeOf(p.tool_response);
      const output = resultText(p.tool_response);
      return {
        ...b,
        kind: "tool-done",
        callKey: p.tool_use_id,
        calls: [],
        ...(output ? { output } : {}),
        failed: exitCode !== undefined && exitCode !== 0,
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(exitCode === undefined && p.transcript_path
          ? { outcomeIn: { transcript: p.transcript_path, callId: p.tool_use_id } }
          : {}),
      };
    }
    case "SessionStart":
      return { ...base(read(Common, payload, "codex SessionStart payload"), pc), kind: "session-start" };
    case "UserPromptSubmit": {
      const p = read(Prompt, payload, "codex UserPromptSubmit payload");
      return { ...base(p, pc), kind: "prompt", prompt: p.prompt, ...(p.turn_id ? { turn: p.turn_id } : {}) };
    }
    case "SessionEnd":
      return { ...base(read(Common, payload, "codex SessionEnd payload"), pc), kind: "session-end" };
    default:
      return { kind: "ignore", why: `codex ${event} is not an event memnox acts on` };
  }
}

/** Codex's shell result carries its exit code under one of two spellings, when it carries one. */
function exitCodeOf(response: unknown): number | undefined {
  if (typeof response !== "object" || response === null) return undefined;
  const r = response as Record<string, unknown>;
  return num(r.exit_code) ?? num(r.exitCode);
}

/**
 * A call's exit code from Codex's rollout transcript: the `item_completed` event of the command execution with that
 * id (`exit_code`, `duration`), or the older `exec_command_end` event; the newest line wins.
 */
function codexOutcome(tail: string, callId: string): { exitCode: number; durationMs?: number } | undefined {
  const lines = tail.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? "";
    if (!line.includes(callId) || !line.includes("exit_code")) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      continue;
    }
    const payload = isRecord(row) && isRecord(row.payload) ? row.payload : undefined;
    const item = payload && isRecord(payload.item) ? payload.item : payload;
    if (!item || (item.id !== callId && item.call_id !== callId)) continue;
    const exitCode = num(item.exit_code);
    if (exitCode === undefined) continue;
    const d = isRecord(item.duration) ? item.duration : undefined;
    const ms = d ? (num(d.secs) ?? 0) * 1000 + Math.round((num(d.nanos) ?? 0) / 1e6) : undefined;
    return { exitCode, ...(ms !== undefined ? { durationMs: ms } : {}) };
  }
  return undefined;
}

function json(value: unknown): HookReply {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}

/** The one shape that allows: anything more is read as a failed hook, and a failed hook runs the tool. */
const ALLOW: HookReply = json({});

function decision(event: string, verdict: ToolVerdict): HookReply {
  if (verdict.effect === "allow") return ALLOW;
  return json({
    hookSpecificOutput: { hookEventName: event, permissionDecision: "deny", permissionDecisionReason: verdict.message },
  });
}

/** Events whose output Codex reads as JSON; the rest (SessionEnd) take nothing. */
const JSON_EVENTS = new Set(["PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit"]);

export const codex: HookAdapter = {
  agent: "codex",
  eventOf: (payload) => payloadEvent(payload),
  parse,
  gates: (event) => event === "PreToolUse",
  asksInSession: false,
  hearsContext: true,
  remindsAtCall: false,
  outcomeFromTranscript: codexOutcome,
  decision,
  context: (event, text) =>
    text ? json({ hookSpecificOutput: { hookEventName: event, additionalContext: text } }) : ALLOW,
  neutral: (event) => (JSON_EVENTS.has(event) ? ALLOW : { stdout: "", exitCode: 0 }),
};

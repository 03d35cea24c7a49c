// Claude Code (2.1.197 checked). What `setup` adds, to `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR/settings.json`
// when set), merged into any `hooks` already there; `<app>` is the absolute path of ~/.memnox/app/memnox:
//
//   "hooks": {
//     "SessionStart":       [{ "hooks": [{ "type": "command", "command": "<app> hook claude-code SessionStart", "timeout": 10 }] }],
//     "UserPromptSubmit":   [{ "hooks": [{ "type": "command", "command": "<app> hook claude-code UserPromptSubmit", "timeout": 10 }] }],
//     "PreToolUse":         [{ "matcher": TOOLS, "hooks": [{ "type": "command", "command": "<app> hook claude-code PreToolUse", "timeout": 30 }] }],
//     "PostToolUse":        [{ "matcher": TOOLS, "hooks": [{ "type": "command", "command": "<app> hook claude-code PostToolUse", "timeout": 10 }] }],
//     "PostToolUseFailure": [{ "matcher": TOOLS, "hooks": [{ "type": "command", "command": "<app> hook claude-code PostToolUseFailure", "timeout": 10 }] }],
//     "SessionEnd":         [{ "hooks": [{ "type": "command", "command": "<app> hook claude-code SessionEnd", "timeout": 5 }] }]
//   }
//
// TOOLS = "*": every tool Claude Code has, and every one it adds, reaches the gate (the tool table below maps each
// to an action; one it does not know is an action of class unknown, never left to the agent). `timeout` is in SECONDS; a timed-out or crashed hook lets
// the call through, so the answer is always exit 0 with JSON, never a crash.
// Protocol: allow = silence (Claude Code's own permission prompt still runs); deny/ask =
// `hookSpecificOutput.permissionDecision` with the reason; context = `hookSpecificOutput.additionalContext`.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Action } from "../src/core/action.ts";
import { claudeDir } from "../src/core/agent-paths.ts";
import { exitCodeIn, num, Path, payloadEvent, read, resultText, Search, v } from "./payload.ts";
import {
  absolute,
  argumentsOf,
  contentSearchCall,
  fileCall,
  hostOf,
  httpCall,
  mcpCall,
  mcpCalls,
  searchCall,
  splitDoubleUnderscore,
} from "./tools.ts";
import type { HookAdapter, HookEvent, HookReply, ParseContext, SeamCall, ToolVerdict } from "./types.ts";

export const TOOLS = "*";

/** The entries `setup` merges into settings.json `hooks`, for the binary at `app`. */
export function settingsHooks(app: string): Record<string, unknown[]> {
  const entry = (event: string, timeout: number, matcher?: string) => ({
    ...(matcher ? { matcher } : {}),
    hooks: [{ type: "command", command: `${app} hook claude-code ${event}`, timeout }],
  });
  return {
    SessionStart: [entry("SessionStart", 10)],
    UserPromptSubmit: [entry("UserPromptSubmit", 10)],
    PreToolUse: [entry("PreToolUse", 30, TOOLS)],
    PostToolUse: [entry("PostToolUse", 10, TOOLS)],
    PostToolUseFailure: [entry("PostToolUseFailure", 10, TOOLS)],
    SessionEnd: [entry("SessionEnd", 5)],
  };
}

const str = v.optional(v.string());
const Common = v.looseObject({
  session_id: str,
  cwd: str,
  prompt_id: str,
  permission_mode: str,
  cursor_version: v.optional(v.unknown()),
});
const Tool = v.looseObject({ ...Common.entries, tool_name: v.string(), tool_input: v.unknown(), tool_use_id: str });
const Done = v.looseObject({
  ...Tool.entries,
  duration_ms: v.optional(v.unknown()),
  error: v.optional(v.unknown()),
  tool_response: v.optional(v.unknown()),
});

/** Tools whose result brings text from outside the session in: a command's output, a fetched page, a search. */
const OUTSIDE_TEXT = new Set(["Bash", "WebFetch", "WebSearch"]);
const Prompt = v.looseObject({ ...Common.entries, prompt: v.string() });

/** Modes in which nobody answers a prompt: an ask there must refuse instead. */
const NOBODY_TO_ASK = new Set(["bypassPermissions", "dontAsk"]);

function base(p: v.InferOutput<typeof Common>, pc: ParseContext) {
  return { cwd: p.cwd ?? pc.cwd, ...(p.session_id ? { session: p.session_id } : {}) };
}

/** The tool table: what each built-in tool does, as seam calls; undefined = a tool left to the agent. */
export function claudeToolCalls(tool: string, input: unknown, cwd: string, pc: ParseContext): SeamCall[] | undefined {
  const at = { cwd, home: pc.home };
  const path = () => absolute(read(Path, input, `${tool} input`).file_path, cwd, pc.home);
  switch (tool) {
    case "Bash":
      return [{ command: read(v.looseObject({ command: v.string() }), input, "Bash input").command }];
    case "Read":
      return [fileCall("read", [path()], input)];
    case "Write":
    case "Edit":
    case "MultiEdit":
      return [fileCall("write", [path()], input)];
    case "NotebookEdit": {
      const nb = read(v.looseObject({ notebook_path: v.string() }), input, "NotebookEdit input").notebook_path;
      return [fileCall("write", [absolute(nb, cwd, pc.home)], input)];
    }
    case "Glob": {
      const s = read(Search, input, "Glob input");
      return [searchCall(s.path, s.pattern, at, input)];
    }
    case "Grep": {
      const s = read(v.looseObject({ path: str, glob: str }), input, "Grep input");
      return [contentSearchCall(s.path, s.glob, at, input)];
    }
    case "WebFetch":
      return [httpCall([hostOf(read(v.looseObject({ url: v.string() }), input, "WebFetch input").url)], input)];
    case "WebSearch": {
      const s = read(v.looseObject({ allowed_domains: v.optional(v.array(v.string())) }), input, "WebSearch input");
      return [httpCall(s.allowed_domains ?? [], input)];
    }
  }
  const mcp = splitDoubleUnderscore(tool);
  if (mcp) return mcpCalls(mcp.server, mcp.tool, input, at);
  return agentToolCalls(tool, input, cwd, pc);
}

/** Claude Code's own tools that change nothing outside the session: its tasks, plans, questions and messages. */
const SESSION_TOOLS = new Set([
  "TodoWrite",
  "TaskCreate",
  "TaskGet",
  "TaskList",
  "TaskUpdate",
  "TaskStop",
  "TaskOutput",
  "BashOutput",
  "KillShell",
  "KillBash",
  "ExitPlanMode",
  "EnterPlanMode",
  "AskUserQuestion",
  "ReportFindings",
  "SendMessage",
  "ScheduleWakeup",
  "CronList",
  "CronDelete",
  "ExitWorktree",
  "ListMcpResourcesTool",
  "LS",
  "NotebookRead",
]);

function agentAction(name: string, cls: Action["class"], targets: readonly string[], input: unknown): SeamCall {
  return {
    action: { name, class: cls, targets: [...targets], arguments: argumentsOf(input) },
    rawArguments: JSON.stringify(input ?? null),
  };
}

/** A skill's file: the project's, else the person's own (a plugin's `plugin:skill` is looked for under plugins). */
function skillFile(name: string, cwd: string, home: string, env: string | undefined): string | undefined {
  const claude = claudeDir(home, { CLAUDE_CONFIG_DIR: env });
  const bare = name.includes(":") ? name.slice(name.indexOf(":") + 1) : name;
  const places = [
    join(cwd, ".claude", "skills", bare, "SKILL.md"),
    join(claude, "skills", bare, "SKILL.md"),
    join(cwd, ".claude", "commands", `${bare}.md`),
    join(claude, "commands", `${bare}.md`),
  ];
  return places.find((p) => existsSync(p));
}

/** The shell lines a skill or command runs while Claude Code expands it (`!`cmd``), which no tool call shows. */
function bangLines(text: string): string[] {
  return [...text.matchAll(/!`([^`\n]+)`/g)].map((m) => m[1] ?? "").filter(Boolean);
}

/** Every other tool Claude Code has, and any it adds: each reaches the gate as an action of its own. */
function agentToolCalls(tool: string, input: unknown, cwd: string, pc: ParseContext): SeamCall[] {
  if (SESSION_TOOLS.has(tool)) return [agentAction(`claude-code.${tool}`, "read", [], input)];
  switch (tool) {
    case "Skill": {
      const name = read(v.looseObject({ skill: v.string() }), input, "Skill input").skill;
      const file = skillFile(name, cwd, pc.home, pc.claudeConfigDir);
      const lines = file ? bangLines(readFileSync(file, "utf8")) : [];
      return [
        agentAction("claude-code.Skill", file ? "read" : "unknown", [file ?? name], input),
        ...lines.map((command) => ({ command })),
      ];
    }
    case "Agent":
    case "Task": {
      const s = read(v.looseObject({ subagent_type: str }), input, `${tool} input`);
      return [agentAction("claude-code.Agent", "read", s.subagent_type ? [s.subagent_type] : [], input)];
    }
    case "Workflow": {
      const w = read(v.looseObject({ name: str, script: str }), input, "Workflow input");
      // A named workflow only starts subagents, whose every call is hooked; a script written in the call is code.
      return [agentAction("claude-code.Workflow", w.script ? "unknown" : "read", w.name ? [w.name] : [], input)];
    }
    case "CronCreate":
      return [agentAction("system.schedule", "write", ["claude-code"], input)];
    case "EnterWorktree":
      return [fileCall("write", [cwd], input)];
    case "ReadMcpResourceTool": {
      const r = read(v.looseObject({ server: str }), input, "ReadMcpResourceTool input");
      return [mcpCall(r.server, "resources-read", input)];
    }
  }
  return [agentAction(`claude-code.${tool}`, "unknown", [tool], input)];
}

function parse(event: string, payload: unknown, pc: ParseContext): HookEvent {
  const common = read(Common, payload, `claude code ${event} payload`);
  // Cursor runs Claude Code's hooks too (third-party hooks); its own memnox hook rules on those calls.
  if (common.cursor_version !== undefined) return { kind: "ignore", why: "a cursor payload in the claude code hook" };
  switch (event) {
    case "PreToolUse": {
      const p = read(Tool, payload, "claude code PreToolUse payload");
      const b = base(p, pc);
      const calls = claudeToolCalls(p.tool_name, p.tool_input, b.cwd, pc);
      if (!calls) return { ...b, kind: "unknown-tool", tool: p.tool_name };
      return {
        ...b,
        kind: "tool",
        tool: p.tool_name,
        calls,
        canAsk: !NOBODY_TO_ASK.has(p.permission_mode ?? "default"),
        ...(p.tool_use_id ? { callKey: p.tool_use_id } : {}),
        ...(p.prompt_id ? { turn: p.prompt_id } : {}),
      };
    }
    case "PostToolUse":
    case "PostToolUseFailure": {
      const p = read(Done, payload, `claude code ${event} payload`);
      if (!p.tool_use_id) return { kind: "ignore", why: "no tool_use_id to link the outcome to" };
      const b = base(p, pc);
      const failed = event === "PostToolUseFailure";
      const exitCode = p.tool_name === "Bash" ? (failed ? (exitCodeIn(p.error) ?? 1) : 0) : undefined;
      const durationMs = num(p.duration_ms);
      const output = OUTSIDE_TEXT.has(p.tool_name) ? resultText(p.tool_response) : undefined;
      return {
        ...b,
        kind: "tool-done",
        callKey: p.tool_use_id,
        calls: safeCalls(p.tool_name, p.tool_input, b.cwd, pc),
        failed,
        ...(output ? { output } : {}),
        // Only PostToolUse may replace the result (PostToolUseFailure takes context alone).
        ...(!failed && p.tool_response !== undefined ? { response: p.tool_response } : {}),
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(durationMs !== undefined ? { durationMs } : {}),
      };
    }
    case "SessionStart": {
      const p = read(v.looseObject({ source: str }), payload, "claude code SessionStart payload");
      return { ...base(common, pc), kind: "session-start", ...(p.source ? { source: p.source } : {}) };
    }
    case "UserPromptSubmit": {
      const p = read(Prompt, payload, "claude code UserPromptSubmit payload");
      return { ...base(p, pc), kind: "prompt", prompt: p.prompt, ...(p.prompt_id ? { turn: p.prompt_id } : {}) };
    }
    case "SessionEnd": {
      const p = read(v.looseObject({ reason: str }), payload, "claude code SessionEnd payload");
      return { ...base(common, pc), kind: "session-end", ...(p.reason ? { reason: p.reason } : {}) };
    }
    default:
      return { kind: "ignore", why: `claude code ${event} is not an event memnox acts on` };
  }
}

/** After the call ran, a payload we cannot read costs only the learned yes, never a refusal. */
function safeCalls(tool: string, input: unknown, cwd: string, pc: ParseContext): SeamCall[] {
  try {
    return claudeToolCalls(tool, input, cwd, pc) ?? [];
  } catch {
    return [];
  }
}

const silence: HookReply = { stdout: "", exitCode: 0 };

function json(value: unknown): HookReply {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}

function decision(event: string, verdict: ToolVerdict): HookReply {
  if (verdict.effect === "allow") {
    return verdict.context
      ? json({ hookSpecificOutput: { hookEventName: event, additionalContext: verdict.context } })
      : silence;
  }
  return json({
    hookSpecificOutput: {
      hookEventName: event,
      permissionDecision: verdict.effect,
      permissionDecisionReason: verdict.message,
    },
  });
}

export const claudeCode: HookAdapter = {
  agent: "claude-code",
  eventOf: (payload) => payloadEvent(payload),
  parse,
  gates: (event) => event === "PreToolUse",
  asksInSession: true,
  hearsContext: true,
  remindsAtCall: true,
  // Claude Code hands SessionStart hooks a file under <config>/session-env/<session>/ that each Bash call sources.
  sessionEnvFile: (env) => {
    const file = env.CLAUDE_ENV_FILE;
    return file && /\/session-env\/[^/]+\/[^/]+\.sh$/.test(file) ? file : undefined;
  },
  // Claude Code hands its hooks its own environment, settings' `env` included: the prefix its Bash tool will use.
  shellUnderWall: (env, applier) => env.CLAUDE_CODE_SHELL_PREFIX === applier,
  decision,
  context: (event, text) =>
    text ? json({ hookSpecificOutput: { hookEventName: event, additionalContext: text } }) : silence,
  neutral: () => silence,
  replaceOutput: (event, output) => json({ hookSpecificOutput: { hookEventName: event, updatedToolOutput: output } }),
};

// Gemini CLI (0.61.0 checked against its bundled source). What `setup` adds, to `~/.gemini/settings.json`, merged
// into any `hooks` already there:
//
//   "hooks": {
//     "SessionStart": [{ "hooks": [{ "name": "memnox", "type": "command", "command": "<app> hook gemini-cli SessionStart", "timeout": 10000 }] }],
//     "BeforeAgent":  [{ "hooks": [{ "name": "memnox", "type": "command", "command": "<app> hook gemini-cli BeforeAgent", "timeout": 10000 }] }],
//     "BeforeTool":   [{ "matcher": TOOLS, "hooks": [{ "name": "memnox", "type": "command", "command": "<app> hook gemini-cli BeforeTool", "timeout": 30000 }] }],
//     "AfterTool":    [{ "matcher": TOOLS, "hooks": [{ "name": "memnox", "type": "command", "command": "<app> hook gemini-cli AfterTool", "timeout": 10000 }] }],
//     "SessionEnd":   [{ "hooks": [{ "name": "memnox", "type": "command", "command": "<app> hook gemini-cli SessionEnd", "timeout": 5000 }] }]
//   }
//
// `timeout` is in MILLISECONDS here (Claude Code, Codex and Cursor count seconds). Project hooks are fingerprinted
// and a changed command is warned about before it runs, so setup writes the user file.
// Protocol traps: stdout must be exactly one JSON object; text that is not JSON reads as allow, and with stdout
// empty Gemini parses stderr instead, so every answer here is JSON on stdout. Deny is `decision: "deny"` + `reason`
// (the model sees it as the tool's error). 0.61.0's source also honours `decision: "ask"`, but it is not in the
// documented contract, so an ask is refused here with the hold to approve.

import { shellQuote } from "../src/core/shell-quote.ts";
import { payloadEvent, read, resultText, Search, v } from "./payload.ts";
import {
  absolute,
  contentSearchCall,
  fileCall,
  hostOf,
  httpCall,
  inputKey,
  mcpCalls,
  searchCall,
  urlsIn,
} from "./tools.ts";
import type { HookAdapter, HookEvent, HookReply, ParseContext, SeamCall, ToolVerdict } from "./types.ts";

export const TOOLS =
  "^(run_shell_command|read_file|read_many_files|write_file|replace|glob|grep_search|search_file_content|list_directory|web_fetch|google_web_search|mcp_.*)$";

const str = v.optional(v.string());
const Common = v.looseObject({ session_id: str, cwd: str });
const McpContext = v.looseObject({ server_name: v.string(), tool_name: v.string() });
const Tool = v.looseObject({
  ...Common.entries,
  tool_name: v.string(),
  tool_input: v.optional(v.unknown()),
  mcp_context: v.optional(v.unknown()),
});
const Done = v.looseObject({ ...Tool.entries, tool_response: v.optional(v.unknown()) });

/** Tools whose result brings text from outside the session in: a command's output, a fetched page, a search. */
const OUTSIDE_TEXT = new Set(["run_shell_command", "web_fetch", "google_web_search"]);
const Prompt = v.looseObject({ ...Common.entries, prompt: v.string() });
const FilePath = v.looseObject({ file_path: v.string() });
const Dir = v.looseObject({ dir_path: str, path: str });

export function geminiToolCalls(
  tool: string,
  input: unknown,
  mcpContext: unknown,
  cwd: string,
  pc: ParseContext,
): SeamCall[] | undefined {
  const at = { cwd, home: pc.home };
  const file = () => absolute(read(FilePath, input, `${tool} input`).file_path, cwd, pc.home);
  const mcp = v.safeParse(McpContext, mcpContext);
  if (mcp.success) return mcpCalls(mcp.output.server_name, mcp.output.tool_name, input, at);
  switch (tool) {
    case "run_shell_command": {
      const s = read(v.looseObject({ command: v.string(), dir_path: str }), input, "run_shell_command input");
      return [{ command: s.command, ...(s.dir_path ? { cwd: absolute(s.dir_path, cwd, pc.home) } : {}) }];
    }
    case "read_file":
      return [fileCall("read", [file()], input)];
    case "write_file":
    case "replace":
      return [fileCall("write", [file()], input)];
    case "read_many_files": {
      const s = read(v.looseObject({ include: v.array(v.string()) }), input, "read_many_files input");
      return [
        fileCall(
          "read",
          s.include.map((p) => absolute(p, cwd, pc.home)),
          input,
        ),
      ];
    }
    case "list_directory": {
      const d = read(Dir, input, "list_directory input");
      return [searchCall(d.dir_path ?? d.path, undefined, at, input)];
    }
    case "glob":
    case "grep_search":
    case "search_file_content": {
      const d = read(
        v.looseObject({ ...Dir.entries, ...Search.entries, include_pattern: str }),
        input,
        `${tool} input`,
      );
      if (tool === "glob") return [searchCall(d.dir_path ?? d.path, d.pattern, at, input)];
      return [contentSearchCall(d.dir_path ?? d.path, d.include_pattern, at, input)];
    }
    case "web_fetch": {
      const p = read(v.looseObject({ prompt: v.string() }), input, "web_fetch input").prompt;
      return [httpCall(urlsIn(p).map(hostOf), input)];
    }
    case "google_web_search":
      return [httpCall([], input)];
  }
  // An MCP tool whose server Gemini did not describe: `mcp_<server>_<tool>`, the server never holding `_`.
  const m = /^mcp_([^_]+)_(.+)$/.exec(tool);
  return m?.[1] && m[2] ? mcpCalls(m[1], m[2], input, { cwd, home: pc.home }) : undefined;
}

function base(p: v.InferOutput<typeof Common>, pc: ParseContext) {
  return { cwd: p.cwd ?? pc.cwd, ...(p.session_id ? { session: p.session_id } : {}) };
}

function parse(event: string, payload: unknown, pc: ParseContext): HookEvent {
  switch (event) {
    case "BeforeTool": {
      const p = read(Tool, payload, "gemini BeforeTool payload");
      const b = base(p, pc);
      const calls = geminiToolCalls(p.tool_name, p.tool_input, p.mcp_context, b.cwd, pc);
      if (!calls) return { ...b, kind: "unknown-tool", tool: p.tool_name };
      // Gemini sends no call id: the same tool and input arrive again in AfterTool.
      return {
        ...b,
        kind: "tool",
        tool: p.tool_name,
        calls,
        canAsk: false,
        callKey: inputKey(p.tool_name, p.tool_input),
      };
    }
    case "AfterTool": {
      const p = read(Done, payload, "gemini AfterTool payload");
      const r = v.safeParse(
        v.looseObject({ error: v.optional(v.unknown()), llmContent: v.optional(v.unknown()) }),
        p.tool_response,
      );
      const errored = r.success && r.output.error !== undefined && r.output.error !== null;
      // Gemini reports a failed command's code only inside the text it hands the model: `Exit Code: 2`.
      const shellCode =
        p.tool_name === "run_shell_command" && r.success ? shellExitCode(r.output.llmContent) : undefined;
      const exitCode = shellCode ?? (p.tool_name === "run_shell_command" ? (errored ? 1 : 0) : undefined);
      const output = OUTSIDE_TEXT.has(p.tool_name) && r.success ? resultText(r.output.llmContent) : undefined;
      return {
        ...base(p, pc),
        kind: "tool-done",
        // The input as the model wrote it: the line memnox put in front of the command is not part of the call.
        callKey: inputKey(p.tool_name, withoutShellLine(p.tool_name, p.tool_input)),
        calls: [],
        failed: errored || (exitCode !== undefined && exitCode !== 0),
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(output ? { output } : {}),
      };
    }
    case "SessionStart":
      return { ...base(read(Common, payload, "gemini SessionStart payload"), pc), kind: "session-start" };
    case "BeforeAgent": {
      const p = read(Prompt, payload, "gemini BeforeAgent payload");
      return { ...base(p, pc), kind: "prompt", prompt: personsWords(p.prompt) };
    }
    case "SessionEnd":
      return { ...base(read(Common, payload, "gemini SessionEnd payload"), pc), kind: "session-end" };
    default:
      return { kind: "ignore", why: `gemini ${event} is not an event memnox acts on` };
  }
}

/**
 * The prompt as the person wrote it: Gemini hands BeforeAgent its prompt with the SessionStart hook's context in
 * front (`<hook_context>…</hook_context>`, its `<` and `>` escaped), and a reminder must not fire on memnox's own words.
 */
function personsWords(prompt: string): string {
  return prompt.replace(/<hook_context>[\s\S]*?<\/hook_context>\s*/g, "").trim();
}

/** `Exit Code: N` (or `Signal: N`, as a shell reports one) in the trailer Gemini writes after a command's output. */
function shellExitCode(llmContent: unknown): number | undefined {
  if (typeof llmContent !== "string") return undefined;
  const lines = llmContent.split("\n");
  // Read from the end, past Gemini's own trailer lines only: the command's output above may say anything.
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] ?? "").trim();
    const code = /^Exit Code: (\d+)$/.exec(line);
    if (code) return Number(code[1]);
    const signal = /^Signal: (\d+)$/.exec(line);
    if (signal) return 128 + Number(signal[1]);
    if (line === "" || line === "</untrusted_context>" || /^(Process Group PGID|Background PIDs|Error): /.test(line))
      continue;
    return 0;
  }
  return undefined;
}

const SHELL_LINE_MARK = "# memnox: this command meets the interceptors";

/**
 * The line memnox's hook puts in front of an allowed command: the interceptors first on PATH, the session's variables;
 * and where the agent wall is written, the whole line handed to its applier, which runs it again inside the wall
 * (there MEMNOX_WALL is set, so the hand-over is skipped).
 */
function shellLine(bin: string, vars: Readonly<Record<string, string>>, applier?: string): string {
  const sets = Object.entries(vars).map(([k, val]) => `${k}=${shellQuote(val)}`);
  const wall = applier
    ? `; [ -n "$MEMNOX_WALL" ] || [ -z "$BASH_EXECUTION_STRING" ] || exec ${shellQuote(applier)} "$BASH_EXECUTION_STRING"`
    : "";
  return `export PATH=${shellQuote(bin)}:"$PATH" ${sets.join(" ")}${wall} ${SHELL_LINE_MARK}\n`;
}

function withoutShellLine(tool: string, input: unknown): unknown {
  if (tool !== "run_shell_command" || typeof input !== "object" || input === null) return input;
  const command = (input as Record<string, unknown>).command;
  if (typeof command !== "string") return input;
  const i = command.indexOf(`${SHELL_LINE_MARK}\n`);
  return i < 0 ? input : { ...input, command: command.slice(i + SHELL_LINE_MARK.length + 1) };
}

/**
 * Gemini escapes `<` and `>` in hook context (`<id>` reaches the model as `&lt;id&gt;`), so the words memnox hands
 * it carry none: a placeholder reads as its name in capitals, any other bracket as a guillemet.
 */
function contextWords(text: string): string {
  return text
    .replace(/<([a-z][\w-]*)>/gi, (_, name: string) => name.toUpperCase())
    .replaceAll("<", "‹")
    .replaceAll(">", "›");
}

function json(value: unknown): HookReply {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}

const ALLOW = json({});

function decision(event: string, verdict: ToolVerdict): HookReply {
  if (verdict.effect !== "allow") return json({ decision: "deny", reason: verdict.message });
  if (!verdict.shell) return ALLOW;
  const { command } = verdict.shell;
  // Gemini's shell has no PATH or variables of its own to set: its hook rewrites the command, as Gemini lets it.
  return json({
    hookSpecificOutput: {
      hookEventName: event,
      tool_input: { command: `${shellLine(verdict.shell.bin, verdict.shell.vars, verdict.shell.applier)}${command}` },
    },
  });
}

export const geminiCli: HookAdapter = {
  agent: "gemini-cli",
  eventOf: (payload) => payloadEvent(payload),
  parse,
  gates: (event) => event === "BeforeTool",
  asksInSession: false,
  hearsContext: true,
  remindsAtCall: false,
  shellEnvByHook: true,
  // Its hook hands every command it allows to the wall's applier, when one is written.
  shellUnderWall: () => true,
  decision,
  context: (event, text) =>
    text ? json({ hookSpecificOutput: { hookEventName: event, additionalContext: contextWords(text) } }) : ALLOW,
  neutral: () => ALLOW,
};

// GitHub Copilot CLI (docs.github.com/copilot/reference/hooks-reference; 1.0.102 checked for the paths). What `setup`
// writes: a file of memnox's own in the user hooks directory, `~/.copilot/hooks/memnox.json` (`$COPILOT_HOME/hooks/`),
// which Copilot CLI loads beside a repository's `.github/hooks/*.json` and runs every entry of:
//
//   { "version": 1, "hooks": {
//     "sessionStart":        [{ "type": "command", "bash": "<app> hook copilot-cli sessionStart", "timeoutSec": 10 }],
//     "userPromptSubmitted": [{ "type": "command", "bash": "<app> hook copilot-cli userPromptSubmitted", "timeoutSec": 10 }],
//     "preToolUse":          [{ "type": "command", "bash": "<app> hook copilot-cli preToolUse", "timeoutSec": 30 }],
//     "postToolUse":         [{ "type": "command", "bash": "<app> hook copilot-cli postToolUse", "timeoutSec": 10 }],
//     "postToolUseFailure":  [{ "type": "command", "bash": "<app> hook copilot-cli postToolUseFailure", "timeoutSec": 10 }],
//     "sessionEnd":          [{ "type": "command", "bash": "<app> hook copilot-cli sessionEnd", "timeoutSec": 5 }]
//   } }
//
// camelCase event names get camelCase payloads (`sessionId`, `cwd`, `toolName`, `toolArgs`; no event name in it, so
// the command line names it). `toolArgs` is an object in current versions and was a JSON string in earlier ones.
// Protocol: preToolUse answers `{ "permissionDecision": "deny", "permissionDecisionReason": … }`; an empty answer
// (`{}`) leaves Copilot's own permission flow in place, so memnox's allow never switches Copilot's prompts off.
// `"ask"` was not processed by earlier versions (the call ran), so an ask is refused here with the hold to approve.
// A preToolUse hook that crashes or exits non-zero denies the call, but one that TIMES OUT lets it through: memnox
// answers within 20 s of the 30 s it is given. MCP tools are named `<server>-<tool>`, which cannot be cut reliably.
import { exitCodeIn, read, resultText, Search, v } from "./payload.ts";
import {
  absolute,
  contentSearchCall,
  fileCall,
  hostOf,
  httpCall,
  inputKey,
  mcpReadings,
  patchCalls,
  searchCall,
} from "./tools.ts";
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
const Common = v.looseObject({ sessionId: str, cwd: str });
const Tool = v.looseObject({ ...Common.entries, toolName: v.string(), toolArgs: v.optional(v.unknown()) });
const Done = v.looseObject({
  ...Tool.entries,
  toolResult: v.optional(v.looseObject({ resultType: str, textResultForLlm: v.optional(v.unknown()) })),
  error: v.optional(v.unknown()),
});
const Prompt = v.looseObject({ ...Common.entries, prompt: v.string() });
const Path = v.looseObject({ path: str, file_path: str });

/** Copilot's own tools that neither run, read, write nor fetch anything memnox rules on. */
const QUIET = new Set([
  "ask_user",
  "task",
  "update_todo",
  "report_intent",
  "think",
  "read_bash",
  "stop_bash",
  "list_bash",
  "skill",
  "fetch_copilot_cli_documentation",
]);

/** Tools whose result brings text from outside the session in. */
const OUTSIDE_TEXT = new Set(["bash", "powershell", "web_fetch", "web_search"]);

/** `toolArgs` as an object: earlier versions send it as a JSON string. */
function argsOf(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new HookInputError("`toolArgs` is a string that is not JSON");
  }
}

function pathOf(input: unknown, tool: string, cwd: string, pc: ParseContext): string {
  const p = read(Path, input, `${tool} input`);
  const path = p.path ?? p.file_path;
  if (!path) throw new HookInputError(`${tool} input names no file`);
  return absolute(path, cwd, pc.home);
}

/** Keys a person typed into a running shell (`{enter}`, `{up}`…) are not part of the line it runs. */
function typedLine(input: string): string {
  return input.replace(/\{(enter|up|down|left|right|backspace|tab|escape|esc)\}/gi, "\n").trim();
}

function copilotToolCalls(tool: string, input: unknown, cwd: string, pc: ParseContext): SeamCall[] | undefined {
  const at = { cwd, home: pc.home };
  switch (tool) {
    case "bash":
    case "powershell":
      return [{ command: read(v.looseObject({ command: v.string() }), input, `${tool} input`).command }];
    case "write_bash":
      return [{ command: typedLine(read(v.looseObject({ input: v.string() }), input, "write_bash input").input) }];
    case "view":
      return [fileCall("read", [pathOf(input, tool, cwd, pc)], input)];
    case "create":
    case "edit":
      return [fileCall("write", [pathOf(input, tool, cwd, pc)], input)];
    case "str_replace_editor": {
      const verb = read(v.looseObject({ command: str }), input, "str_replace_editor input").command;
      return [fileCall(verb === "view" ? "read" : "write", [pathOf(input, tool, cwd, pc)], input)];
    }
    case "apply_patch": {
      const texts =
        typeof input === "string" ? [input] : Object.values(input ?? {}).filter((x) => typeof x === "string");
      const calls = texts.flatMap((t) => patchCalls(t, cwd, pc.home, input));
      if (calls.length === 0) throw new HookInputError("apply_patch input names no file");
      return calls;
    }
    case "glob": {
      const s = read(Search, input, "glob input");
      return [searchCall(s.path, s.pattern, at, input)];
    }
    case "grep":
    case "rg": {
      const s = read(v.looseObject({ ...Search.entries, glob: str }), input, `${tool} input`);
      return [contentSearchCall(s.path, s.glob, at, input)];
    }
    case "web_fetch":
      return [httpCall([hostOf(read(v.looseObject({ url: v.string() }), input, "web_fetch input").url)], input)];
    case "web_search":
      return [httpCall([], input)];
  }
  if (QUIET.has(tool)) return undefined;
  // `<server>-<tool>`: an MCP tool, read every way its name can be cut.
  const readings = mcpReadings(tool, "-", input);
  return readings.length > 0 ? readings : undefined;
}

function base(p: v.InferOutput<typeof Common>, pc: ParseContext) {
  return { cwd: p.cwd ?? pc.cwd, ...(p.sessionId ? { session: p.sessionId } : {}) };
}

function parse(event: string, payload: unknown, pc: ParseContext): HookEvent {
  switch (event) {
    case "preToolUse": {
      const p = read(Tool, payload, "copilot-cli preToolUse payload");
      const b = base(p, pc);
      const args = argsOf(p.toolArgs);
      const calls = copilotToolCalls(p.toolName, args, b.cwd, pc);
      if (!calls) return { ...b, kind: "unknown-tool", tool: p.toolName };
      // Copilot sends no call id: the same tool and arguments arrive again after the call.
      return { ...b, kind: "tool", tool: p.toolName, calls, canAsk: false, callKey: inputKey(p.toolName, args) };
    }
    case "postToolUse":
    case "postToolUseFailure": {
      const p = read(Done, payload, `copilot-cli ${event} payload`);
      const args = argsOf(p.toolArgs);
      const failed = event === "postToolUseFailure" || (p.toolResult?.resultType ?? "success") !== "success";
      const text = p.toolResult?.textResultForLlm ?? p.error;
      // A shell call's text ends with the code it exited with; a failure without one exited non-zero.
      const shell = p.toolName === "bash" || p.toolName === "powershell";
      const exitCode = shell ? (exitCodeIn(text) ?? (failed ? 1 : 0)) : undefined;
      const output = OUTSIDE_TEXT.has(p.toolName) ? resultText(text) : undefined;
      return {
        ...base(p, pc),
        kind: "tool-done",
        callKey: inputKey(p.toolName, args),
        calls: [],
        failed: failed || (exitCode !== undefined && exitCode !== 0),
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(output ? { output } : {}),
      };
    }
    case "sessionStart": {
      const p = read(v.looseObject({ ...Common.entries, source: str }), payload, "copilot-cli sessionStart payload");
      return { ...base(p, pc), kind: "session-start", ...(p.source ? { source: p.source } : {}) };
    }
    case "userPromptSubmitted": {
      const p = read(Prompt, payload, "copilot-cli userPromptSubmitted payload");
      return { ...base(p, pc), kind: "prompt", prompt: p.prompt };
    }
    case "sessionEnd": {
      const p = read(v.looseObject({ ...Common.entries, reason: str }), payload, "copilot-cli sessionEnd payload");
      return { ...base(p, pc), kind: "session-end", ...(p.reason ? { reason: p.reason } : {}) };
    }
    default:
      return { kind: "ignore", why: `copilot-cli ${event} is not an event memnox acts on` };
  }
}

function json(value: unknown): HookReply {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}

/** No decision: Copilot's own permission flow decides, as it would without memnox. */
const NOTHING = json({});

function decision(_event: string, verdict: ToolVerdict): HookReply {
  if (verdict.effect === "allow") return NOTHING;
  return json({ permissionDecision: "deny", permissionDecisionReason: verdict.message });
}

export const copilotCli: HookAdapter = {
  agent: "copilot-cli",
  eventOf: () => undefined,
  parse,
  gates: (event) => event === "preToolUse",
  asksInSession: false,
  // Only sessionStart's `additionalContext` reaches the session; a command hook's prompt answer is dropped.
  hearsContext: true,
  remindsAtCall: false,
  decision,
  context: (event, text) => (text && event === "sessionStart" ? json({ additionalContext: text }) : NOTHING),
  neutral: () => NOTHING,
};

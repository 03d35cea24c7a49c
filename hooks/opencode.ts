// OpenCode (opencode.ai/docs/plugins; 1.18.34's loader read). OpenCode has no command hooks: it loads every
// `*.ts`/`*.js` file in `~/.config/opencode/plugins/` (`plugin/` too; `$XDG_CONFIG_HOME/opencode/`) as a plugin, and a
// plugin's `tool.execute.before(input, output)` that throws stops the call, the error's message being what the model
// reads. So `setup` writes a plugin of memnox's own, `memnox.js` (PLUGIN below), which hands each call to
// `<app> hook opencode <event>` with one JSON object on stdin and reads one JSON line back:
//
//   tool.execute.before  {tool, sessionID, callID, args, directory}  ->  {decision: "allow"|"deny", reason?, env?, outcome?}
//   tool.execute.after   {tool, sessionID, callID, args, output, exit, directory}  ->  {}
//
// `input.tool`/`sessionID`/`callID` and `output.args` are OpenCode's (`@opencode-ai/plugin` Hooks). A deny throws; a
// plugin that cannot run memnox throws too (fail closed), naming the file to delete to take memnox out. `env` is for
// the `shell.env` hook (called with the same callID just before the bash tool spawns), which puts memnox's
// interceptors first on PATH and the session's variables in. OpenCode asks nobody for a plugin, so an ask is refused
// with the hold to approve. The only export is one plugin function: the loader runs every export as a plugin (and a
// default `{id, server}` object is not understood before 1.18.29). MCP tools are named `<server>_<tool>`.
import { num, read, resultText, Search, v } from "./payload.ts";
import {
  absolute,
  contentSearchCall,
  fileCall,
  hostOf,
  httpCall,
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

export const BEFORE = "tool.execute.before";
const AFTER = "tool.execute.after";

const str = v.optional(v.string());
const Call = v.looseObject({
  tool: v.string(),
  sessionID: str,
  callID: str,
  args: v.optional(v.unknown()),
  directory: str,
});
const Done = v.looseObject({ ...Call.entries, output: v.optional(v.unknown()), exit: v.optional(v.unknown()) });
const FilePath = v.looseObject({ filePath: v.string() });

/** OpenCode's own tools that neither run, read, write nor fetch anything memnox rules on. */
const QUIET = new Set(["task", "todowrite", "todoread", "skill", "question", "lsp", "batch", "invalid", "plan_exit"]);

/** Tools whose result brings text from outside the session in. */
const OUTSIDE_TEXT = new Set(["bash", "webfetch", "websearch", "codesearch"]);

function opencodeToolCalls(tool: string, input: unknown, cwd: string, pc: ParseContext): SeamCall[] | undefined {
  const at = { cwd, home: pc.home };
  const file = () => absolute(read(FilePath, input, `${tool} input`).filePath, cwd, pc.home);
  switch (tool) {
    case "bash": {
      const s = read(v.looseObject({ command: v.string(), workdir: str }), input, "bash input");
      return [{ command: s.command, ...(s.workdir ? { cwd: absolute(s.workdir, cwd, pc.home) } : {}) }];
    }
    case "read":
      return [fileCall("read", [file()], input)];
    case "write":
    case "edit":
    case "multiedit":
      return [fileCall("write", [file()], input)];
    case "apply_patch":
    case "patch": {
      const text = read(v.looseObject({ patchText: v.string() }), input, `${tool} input`).patchText;
      const calls = patchCalls(text, cwd, pc.home, input);
      if (calls.length === 0) throw new HookInputError(`${tool} input names no file`);
      return calls;
    }
    case "glob": {
      const s = read(Search, input, "glob input");
      return [searchCall(s.path, s.pattern, at, input)];
    }
    case "grep": {
      const s = read(v.looseObject({ ...Search.entries, include: str }), input, "grep input");
      return [contentSearchCall(s.path, s.include, at, input)];
    }
    case "list":
      return [searchCall(read(v.looseObject({ path: str }), input, "list input").path, undefined, at, input)];
    case "webfetch":
      return [httpCall([hostOf(read(v.looseObject({ url: v.string() }), input, "webfetch input").url)], input)];
    case "websearch":
    case "codesearch":
      return [httpCall([], input)];
  }
  if (QUIET.has(tool)) return undefined;
  // `<server>_<tool>`: an MCP tool (or a plugin's own tool), read every way its name can be cut.
  const readings = mcpReadings(tool, "_", input);
  return readings.length > 0 ? readings : undefined;
}

function parse(event: string, payload: unknown, pc: ParseContext): HookEvent {
  switch (event) {
    case BEFORE: {
      const p = read(Call, payload, `opencode ${event} payload`);
      const cwd = p.directory ?? pc.cwd;
      const b = { cwd, ...(p.sessionID ? { session: p.sessionID } : {}) };
      const calls = opencodeToolCalls(p.tool, p.args ?? {}, cwd, pc);
      if (!calls) return { ...b, kind: "unknown-tool", tool: p.tool };
      return { ...b, kind: "tool", tool: p.tool, calls, canAsk: false, ...(p.callID ? { callKey: p.callID } : {}) };
    }
    case AFTER: {
      const p = read(Done, payload, `opencode ${event} payload`);
      if (!p.callID) throw new HookInputError(`opencode ${event} payload: \`callID\` is missing`);
      const exitCode = p.tool === "bash" ? num(p.exit) : undefined;
      const output = OUTSIDE_TEXT.has(p.tool) ? resultText(p.output) : undefined;
      return {
        cwd: p.directory ?? pc.cwd,
        ...(p.sessionID ? { session: p.sessionID } : {}),
        kind: "tool-done",
        callKey: p.callID,
        calls: [],
        failed: exitCode !== undefined && exitCode !== 0,
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(output ? { output } : {}),
      };
    }
    default:
      return { kind: "ignore", why: `opencode ${event} is not an event memnox acts on` };
  }
}

function json(value: unknown): HookReply {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}

/** Nothing memnox rules on: the call goes on, and its outcome is of no interest. */
const PROCEED = json({ decision: "allow" });

function decision(_event: string, verdict: ToolVerdict): HookReply {
  if (verdict.effect !== "allow") return json({ decision: "deny", reason: verdict.message });
  const env = verdict.shell
    ? { env: { PATH_FIRST: verdict.shell.bin, ...verdict.shell.vars } }
    : ({} as Record<string, never>);
  return json({ decision: "allow", outcome: true, ...env });
}

export const opencode: HookAdapter = {
  agent: "opencode",
  eventOf: (payload) =>
    typeof payload === "object" && payload !== null && typeof (payload as { event?: unknown }).event === "string"
      ? (payload as { event: string }).event
      : undefined,
  parse,
  gates: (event) => event === BEFORE,
  asksInSession: false,
  hearsContext: false,
  remindsAtCall: false,
  // A plugin can set the bash tool's environment (`shell.env`), but only the hook knows the session's variables.
  shellEnvByHook: true,
  decision,
  context: (event) => (event === BEFORE ? PROCEED : json({})),
  neutral: (event) => (event === BEFORE ? PROCEED : json({})),
};

/** The first line of memnox's plugin: how memnox knows the file is its own. */
export const PLUGIN_MARK = "// memnox: this plugin hands OpenCode's tool calls to memnox's gate.";

/** The line that names the hook command, read back by the wiring (`const HOOK = [...]`). */
export const HOOK_LINE = /^const HOOK = (\[.*\]);$/m;

/** The plugin file memnox writes for `launcher` (the words that start memnox). */
export function opencodePlugin(launcher: readonly string[], file: string): string {
  return `${PLUGIN_MARK}
// Written by \`memnox setup\` and removed by \`memnox uninstall\`; delete this file to take memnox out of OpenCode.
import { spawn } from "node:child_process";

const HOOK = ${JSON.stringify([...launcher, "hook", "opencode"])};
const FILE = ${JSON.stringify(file)};
const OUTPUT_MAX = 64 * 1024;
// The variables OpenCode runs with, for the PATH the bash tool would otherwise get.
const { env: own } = process;

function run(event, payload) {
  return new Promise((resolve) => {
    let out = "";
    let err = "";
    let child;
    try {
      child = spawn(HOOK[0], [...HOOK.slice(1), event], { stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      resolve({ failed: String(e && e.message ? e.message : e) });
      return;
    }
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", (e) => resolve({ failed: e.message }));
    child.on("close", (code) => {
      if (code !== 0) return resolve({ failed: \`exit \${code}: \${err.trim().split("\\n").pop() ?? ""}\` });
      try {
        resolve({ answer: JSON.parse(out) });
      } catch {
        resolve({ failed: "its answer was not JSON" });
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify({ event, ...payload }));
  });
}

// The only export: OpenCode runs every export of a plugin file as a plugin.
export const MemnoxPlugin = async ({ directory }) => {
  const envFor = new Map();
  return {
    "tool.execute.before": async (input, output) => {
      const r = await run("tool.execute.before", {
        tool: input.tool,
        sessionID: input.sessionID,
        callID: input.callID,
        args: output.args,
        directory,
      });
      if (r.failed) {
        throw new Error(\`memnox could not rule on this call (\${r.failed}), so it is refused; \\\`memnox doctor\\\` checks the wiring, and deleting \${FILE} takes memnox out of OpenCode.\`);
      }
      if (r.answer.decision !== "allow") throw new Error(r.answer.reason || "memnox refused this call");
      if (r.answer.env && input.callID) envFor.set(input.callID, r.answer.env);
      if (r.answer.outcome && input.callID) envFor.set(\`after:\${input.callID}\`, true);
    },
    "shell.env": async (input, output) => {
      const env = input.callID ? envFor.get(input.callID) : undefined;
      if (!env) return;
      envFor.delete(input.callID);
      const { PATH_FIRST, ...vars } = env;
      output.env.PATH = \`\${PATH_FIRST}:\${output.env.PATH ?? own.PATH ?? ""}\`;
      Object.assign(output.env, vars);
    },
    "tool.execute.after": async (input, output) => {
      if (!input.callID || !envFor.delete(\`after:\${input.callID}\`)) return;
      envFor.delete(input.callID);
      await run("tool.execute.after", {
        tool: input.tool,
        sessionID: input.sessionID,
        callID: input.callID,
        args: input.args,
        output: typeof output.output === "string" ? output.output.slice(0, OUTPUT_MAX) : undefined,
        exit: output.metadata ? output.metadata.exit : undefined,
        directory,
      });
    },
  };
};
`;
}

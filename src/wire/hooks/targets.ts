// Where each agent reads its user hooks and the entries memnox adds there: what each `hooks/<agent>.ts` header
// documents, built here so setup, uninstall, the wiring report and --prove share one copy.
import { join } from "node:path";
import { settingsHooks } from "../../../hooks/claude-code.ts";
import { TOOLS as CODEX_TOOLS } from "../../../hooks/codex.ts";
import { TOOLS as GEMINI_TOOLS } from "../../../hooks/gemini-cli.ts";
import { BEFORE as OPENCODE_BEFORE, opencodePlugin } from "../../../hooks/opencode.ts";
import type { AgentName } from "../../../hooks/types.ts";
import { claudeSettings, codexHooks, geminiSettings } from "../../core/agent-paths.ts";
import type { Env } from "../../ports/index.ts";
import type { JsonValue } from "../edit/jsonc.ts";

interface HookPlace {
  readonly home: string;
  readonly env: Env;
}

/** Builds the command line for one event. */
type CommandFor = (event: string) => string;

export interface HookTarget {
  readonly agent: AgentName;
  /** The user-level file the agent reads hooks from (project files are fingerprinted or trust-gated). */
  readonly file: (at: HookPlace) => string;
  /** Each event's items memnox adds, for the launcher as one shell-quoted string. */
  readonly entries: (launcher: string) => Record<string, JsonValue[]>;
  /** `{ matcher, hooks: [{ command }] }` items, or flat `{ command }` ones. */
  readonly nested: boolean;
  /** Keys a file memnox creates starts with, beside `hooks`. */
  readonly fresh?: Readonly<Record<string, JsonValue>>;
  /** The event before a shell command runs: what `doctor --prove` feeds a force push. */
  readonly preShell: string;
  /** The key of a flat item's command line, where it is not `command` (Copilot CLI's `bash`). */
  readonly commandKey?: string;
  /** A file that is memnox's own code rather than entries in the agent's settings (OpenCode's plugin): its text. */
  readonly plugin?: (launcher: readonly string[], file: string) => string;
}

const group = (command: string, timeout: number, matcher?: string, name?: string) => ({
  ...(matcher ? { matcher } : {}),
  hooks: [{ ...(name ? { name } : {}), type: "command", command, timeout }],
});

const commandFor =
  (launcher: string, agent: AgentName): CommandFor =>
  (event) =>
    `${launcher} hook ${agent} ${event}`;

const claudeEntries = (launcher: string) => settingsHooks(launcher) as Record<string, JsonValue[]>;

const codexEntries = (launcher: string): Record<string, JsonValue[]> => {
  const c = commandFor(launcher, "codex");
  return {
    SessionStart: [group(c("SessionStart"), 10)],
    UserPromptSubmit: [group(c("UserPromptSubmit"), 10)],
    PreToolUse: [group(c("PreToolUse"), 30, CODEX_TOOLS)],
    PostToolUse: [group(c("PostToolUse"), 10, CODEX_TOOLS)],
    SessionEnd: [group(c("SessionEnd"), 3)],
  };
};

const geminiEntries = (launcher: string): Record<string, JsonValue[]> => {
  const c = commandFor(launcher, "gemini-cli");
  return {
    SessionStart: [group(c("SessionStart"), 10000, undefined, "memnox")],
    BeforeAgent: [group(c("BeforeAgent"), 10000, undefined, "memnox")],
    BeforeTool: [group(c("BeforeTool"), 30000, GEMINI_TOOLS, "memnox")],
    AfterTool: [group(c("AfterTool"), 10000, GEMINI_TOOLS, "memnox")],
    SessionEnd: [group(c("SessionEnd"), 5000, undefined, "memnox")],
  };
};

const cursorItem = (c: CommandFor, event: string, matcher?: string) => ({
  command: c(event),
  ...(matcher ? { matcher } : {}),
  timeout: 30,
  failClosed: true,
});

const cursorEntries = (launcher: string): Record<string, JsonValue[]> => {
  const c = commandFor(launcher, "cursor");
  return {
    beforeShellExecution: [cursorItem(c, "beforeShellExecution")],
    beforeMCPExecution: [cursorItem(c, "beforeMCPExecution")],
    beforeReadFile: [cursorItem(c, "beforeReadFile")],
    preToolUse: [cursorItem(c, "preToolUse", "Write|Delete")],
  };
};

const windsurfEntries = (launcher: string): Record<string, JsonValue[]> => {
  const c = commandFor(launcher, "windsurf");
  const events = ["pre_run_command", "pre_read_code", "pre_write_code", "pre_mcp_tool_use"];
  return Object.fromEntries(events.map((e) => [e, [{ command: c(e), show_output: false }]]));
};

const copilotItem = (c: CommandFor, event: string, timeoutSec: number) => ({
  type: "command",
  bash: c(event),
  timeoutSec,
});

const copilotEntries = (launcher: string): Record<string, JsonValue[]> => {
  const c = commandFor(launcher, "copilot-cli");
  return {
    sessionStart: [copilotItem(c, "sessionStart", 10)],
    userPromptSubmitted: [copilotItem(c, "userPromptSubmitted", 10)],
    preToolUse: [copilotItem(c, "preToolUse", 30)],
    postToolUse: [copilotItem(c, "postToolUse", 10)],
    postToolUseFailure: [copilotItem(c, "postToolUseFailure", 10)],
    sessionEnd: [copilotItem(c, "sessionEnd", 5)],
  };
};

const HOOK_TARGETS: readonly HookTarget[] = [
  {
    agent: "claude-code",
    file: (at) => claudeSettings(at.home, at.env),
    entries: claudeEntries,
    nested: true,
    preShell: "PreToolUse",
  },
  {
    agent: "codex",
    file: (at) => codexHooks(at.home, at.env),
    entries: codexEntries,
    nested: true,
    preShell: "PreToolUse",
  },
  {
    agent: "gemini-cli",
    file: (at) => geminiSettings(at.home, at.env),
    entries: geminiEntries,
    nested: true,
    preShell: "BeforeTool",
  },
  {
    agent: "cursor",
    file: (at) => join(at.home, ".cursor", "hooks.json"),
    entries: cursorEntries,
    nested: false,
    fresh: { version: 1 },
    preShell: "beforeShellExecution",
  },
  {
    agent: "windsurf",
    file: (at) => join(at.home, ".codeium", "windsurf", "hooks.json"),
    entries: windsurfEntries,
    nested: false,
    preShell: "pre_run_command",
  },
  {
    agent: "copilot-cli",
    file: (at) => join(at.env.COPILOT_HOME || join(at.home, ".copilot"), "hooks", "memnox.json"),
    entries: copilotEntries,
    nested: false,
    fresh: { version: 1 },
    preShell: "preToolUse",
    commandKey: "bash",
  },
  {
    agent: "opencode",
    file: (at) => join(at.env.XDG_CONFIG_HOME || join(at.home, ".config"), "opencode", "plugins", "memnox.js"),
    entries: () => ({}),
    nested: false,
    preShell: OPENCODE_BEFORE,
    plugin: opencodePlugin,
  },
];

export function hookTarget(agent: AgentName): HookTarget {
  const t = HOOK_TARGETS.find((x) => x.agent === agent);
  if (!t) throw new Error(`no hook target for ${agent}`);
  return t;
}

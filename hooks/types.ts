// The contract every agent adapter keeps: its payload in, one normalised event out; a verdict in, its protocol out.
import type { Action } from "../src/core/action.ts";

export const AGENTS = ["claude-code", "codex", "gemini-cli", "cursor", "windsurf", "copilot-cli", "opencode"] as const;
export type AgentName = (typeof AGENTS)[number];

/** How people name each agent (the MCP client registry names those that are also MCP clients the same way). */
export const AGENT_LABELS: Readonly<Record<AgentName, string>> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  "gemini-cli": "Gemini CLI",
  cursor: "Cursor",
  windsurf: "Windsurf",
  "copilot-cli": "GitHub Copilot CLI",
  opencode: "OpenCode",
};

export function isAgentName(v: string): v is AgentName {
  return (AGENTS as readonly string[]).includes(v);
}

/** One thing the gate rules on: a shell line (resolved by the one resolver) or an action the tool already names. */
export type SeamCall =
  | { readonly command: string; readonly cwd?: string }
  | { readonly action: Action; readonly rawArguments?: string };

interface Base {
  /** The agent's own session id, when it sends one. */
  readonly session?: string;
  readonly cwd: string;
}

export type HookEvent =
  /** A tool call to rule on; several calls (a patch touching three files) are ruled on together. */
  | (Base & {
      readonly kind: "tool";
      readonly tool: string;
      readonly calls: readonly SeamCall[];
      /** Whether this agent's answer can put a question to a person right now. */
      readonly canAsk: boolean;
      /** Links the call to its outcome event (tool_use_id, or a digest where the agent sends none). */
      readonly callKey?: string;
      /** The turn (prompt) this call belongs to, for the two-reminders-per-turn budget. */
      readonly turn?: string;
    })
  /** A tool the table does not know: left to the agent, nothing recorded. */
  | (Base & { readonly kind: "unknown-tool"; readonly tool: string })
  | (Base & { readonly kind: "session-start"; readonly source?: string })
  | (Base & { readonly kind: "prompt"; readonly prompt: string; readonly turn?: string })
  /** A tool call finished (or failed); `calls` rebuilt from the same input, for recording a person's yes. */
  | (Base & {
      readonly kind: "tool-done";
      readonly callKey: string;
      readonly calls: readonly SeamCall[];
      readonly failed: boolean;
      readonly exitCode?: number;
      readonly durationMs?: number;
      /** Where the agent wrote the outcome when its payload does not carry it (Codex's session transcript). */
      readonly outcomeIn?: { readonly transcript: string; readonly callId: string };
      /** What a shell command or a web fetch handed back into the session: read for instruction-shaped text. */
      readonly output?: string;
      /** The tool's whole result, where the agent lets a hook replace it (Claude Code's PostToolUse). */
      readonly response?: unknown;
    })
  | (Base & { readonly kind: "session-end"; readonly reason?: string })
  /** An event memnox does not act on, or a payload from another caller (Cursor running Claude Code's hooks). */
  | { readonly kind: "ignore"; readonly why: string };

/** What the face settled for a tool call, in words already composed; the adapter only encodes it. */
export interface ToolVerdict {
  /** `ask` only where the adapter said the event can ask; a refused ask arrives here as `deny`. */
  readonly effect: "allow" | "ask" | "deny";
  /** Reason, rule, what to use instead, and for a refused ask how a person approves it. */
  readonly message: string;
  /** Beside an allow: the decision behind the rule, or what enforce would have done (advise). */
  readonly context?: string;
  /**
   * Beside an allowed shell command: what it should run with so the programs it starts meet the interceptors
   * (their directory first on PATH) and their rows join this session. An agent that can set neither its shell's
   * PATH nor its variables by itself (Gemini CLI) has its hook put them on the command.
   */
  readonly shell?: {
    readonly bin: string;
    readonly vars: Readonly<Record<string, string>>;
    /** The command as the agent wrote it. */
    readonly command: string;
    /** The agent wall's applier, when one is written: the command is handed to it to run inside the wall. */
    readonly applier?: string;
  };
}

/** Exactly what the hook process prints and how it exits. */
export interface HookReply {
  readonly stdout: string;
  readonly stderr?: string;
  readonly exitCode: number;
}

export interface ParseContext {
  /** The hook process's own directory: where the agent started it (Windsurf sends no cwd). */
  readonly cwd: string;
  /** For `~` in paths. */
  readonly home: string;
  /** Claude Code's own folder when CLAUDE_CONFIG_DIR moves it (its skills and commands live there). */
  readonly claudeConfigDir?: string;
}

export interface HookAdapter {
  readonly agent: AgentName;
  /** The event name from the payload, when the hook command line names none. */
  eventOf(payload: unknown): string | undefined;
  /** Throws `HookInputError` when the payload of an event memnox rules on cannot be read. */
  parse(event: string, payload: unknown, pc: ParseContext): HookEvent;
  /** Whether `event` is one where a call waits on the answer (so a failure must refuse in this format). */
  gates(event: string): boolean;
  /** Whether a session of this agent can be asked (for the boundary block's words). */
  readonly asksInSession: boolean;
  /** Whether the agent reads context back from this hook at a session start or a prompt. */
  readonly hearsContext: boolean;
  /** Whether an allowed call may carry a reminder of the decision behind it. */
  readonly remindsAtCall: boolean;
  /** Whether this agent's shell commands go through memnox's wall applier (its shell prefix names `applier`). */
  shellUnderWall?(env: Readonly<Record<string, string | undefined>>, applier: string): boolean;
  /** The agent offers no way to set its shell's PATH and variables, so its hook puts them on each command it allows. */
  readonly shellEnvByHook?: true;
  /** The exit code and duration of `callId`, read from the tail of the agent's transcript (`outcomeIn`). */
  outcomeFromTranscript?(
    tail: string,
    callId: string,
  ): { readonly exitCode: number; readonly durationMs?: number } | undefined;
  /**
   * The file a session-start hook may write `export` lines to, which the agent applies to every later shell
   * command of the session (Claude Code's CLAUDE_ENV_FILE); undefined when this agent offers none.
   */
  sessionEnvFile?(env: Readonly<Record<string, string | undefined>>): string | undefined;
  decision(event: string, verdict: ToolVerdict): HookReply;
  /** Context at a session start or a prompt; `undefined` means there is nothing to say. */
  context(event: string, text: string | undefined): HookReply;
  /** Nothing to say: the agent goes on exactly as it would without memnox. */
  neutral(event: string): HookReply;
  /** The tool's result replaced before the model reads it (credentials masked), where the agent allows it. */
  replaceOutput?(event: string, output: unknown): HookReply;
}

/** A payload memnox must rule on but cannot read; the face turns it into the mode's answer. */
export class HookInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HookInputError";
  }
}

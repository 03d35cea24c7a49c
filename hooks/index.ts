// Which adapter answers `memnox hook <agent> …`; each is loaded only when its agent calls.
import type { AgentName, HookAdapter } from "./types.ts";

export const ADAPTERS: Readonly<Record<AgentName, () => Promise<HookAdapter>>> = {
  "claude-code": () => import("./claude-code.ts").then((m) => m.claudeCode),
  codex: () => import("./codex.ts").then((m) => m.codex),
  "gemini-cli": () => import("./gemini-cli.ts").then((m) => m.geminiCli),
  cursor: () => import("./cursor.ts").then((m) => m.cursor),
  windsurf: () => import("./windsurf.ts").then((m) => m.windsurf),
  "copilot-cli": () => import("./copilot-cli.ts").then((m) => m.copilotCli),
  opencode: () => import("./opencode.ts").then((m) => m.opencode),
};

export type { HookAdapter, HookEvent, HookReply } from "./types.ts";
export { HookInputError, isAgentName } from "./types.ts";

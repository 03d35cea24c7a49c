// memnox-session's own tools, as the agent's hook names them: memnox's, never asked about (four only read the record,
// and `rewind` asks its person itself and refuses when nobody can answer). Recognised only where no project file
// names a server `memnox-session` of its own, which could shadow memnox's under the same tool names.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Action, ActionClass } from "../core/action.ts";
import { repoRoot } from "../io/repo.ts";

const SESSION_SERVER = "memnox-session";

/** The five tools and the class each really is (rewind writes, recoverably: the current files are kept first). */
const TOOL_CLASS: Readonly<Record<string, ActionClass>> = {
  why: "read",
  status: "read",
  replay: "read",
  decisions: "read",
  rewind: "write",
};

/** Project files an agent reads MCP servers from (Claude Code, Cursor, Codex, Gemini CLI, VS Code). */
const PROJECT_FILES = [
  ".mcp.json",
  ".cursor/mcp.json",
  ".codex/config.toml",
  ".gemini/settings.json",
  ".vscode/mcp.json",
];

function toolOf(name: string): string | undefined {
  const prefix = `mcp.${SESSION_SERVER}.`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : undefined;
}

/** Whether a project file from the working directory up to its repository root declares a `memnox-session`. */
function shadowed(cwd: string): boolean {
  const root = repoRoot(cwd) ?? cwd;
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const f of PROJECT_FILES) {
      const p = join(dir, f);
      try {
        if (existsSync(p) && readFileSync(p, "utf8").includes(SESSION_SERVER)) return true;
      } catch {
        return true;
      }
    }
    if (dir === root || dirname(dir) === dir) return false;
  }
}

/**
 * The class a call to memnox's session server takes: its tool's own class, or `unknown` (asked like any unknown
 * MCP tool) when a project file could have put another server under that name. Undefined for any other call.
 */
export function sessionToolClass(action: Action, cwd: string): ActionClass | undefined {
  const tool = toolOf(action.name);
  if (tool === undefined) return undefined;
  const cls = TOOL_CLASS[tool];
  if (cls === undefined || shadowed(cwd)) return "unknown";
  return cls;
}

/** A call the seam recognised as memnox's own session tool (its class settled to the tool's own). */
export function isOwnSessionTool(action: Action): boolean {
  const tool = toolOf(action.name);
  return tool !== undefined && TOOL_CLASS[tool] !== undefined && TOOL_CLASS[tool] === action.class;
}

export const SESSION_TOOL_REASON =
  "memnox-session's own tool: it reads memnox's record, or (rewind) puts the question to its person itself, so memnox does not ask again";

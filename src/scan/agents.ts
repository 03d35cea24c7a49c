// Agents by their config files, never a process list: each row names the file that proved it, and whether the
// agent has a shell (which reaches everything the user can) or had it taken away by its own settings.
import { join } from "node:path";
import { claudeDir, claudeSettings, codexHome, geminiDir, geminiSettings } from "../core/agent-paths.ts";
import { isRecord } from "../core/record.ts";
import { type ClientId, clientDef, type Locations } from "../wire/clients.ts";
import { parseDocument } from "../wire/edit/document.ts";
import { ParseFailure } from "../wire/edit/jsonc.ts";
import { entries, exists, type Trail } from "./trail.ts";
import type { ConfigProblem, Evidence } from "./types.ts";

export const AGENT_IDS = [
  "claude-code",
  "claude-desktop",
  "cursor",
  "codex",
  "gemini-cli",
  "windsurf",
  "cline",
  "vscode",
  "zed",
  "hermes",
  "openclaw",
  "ruflo",
  "copilot-cli",
  "opencode",
] as const;
type AgentId = (typeof AGENT_IDS)[number];

export interface DetectedAgent {
  readonly id: AgentId;
  readonly product: string;
  readonly harness: boolean;
  readonly client?: ClientId;
  readonly evidence: readonly Evidence[];
  readonly shell: { readonly has: boolean; readonly why: string; readonly grantedBy: string };
}

interface AgentDef {
  readonly id: AgentId;
  readonly product: string;
  readonly harness?: true;
  readonly client?: ClientId;
  /** Files (or directories) only this agent writes, besides its MCP client files. */
  readonly files: (loc: Locations, repo: string) => readonly Evidence[];
  /** Its own shell tool, or undefined when it has none of its own. */
  readonly shellTool?: string;
  /** The settings file that can take the shell away, and whether this one does. */
  readonly shellOff?: { readonly file: (loc: Locations) => string; readonly off: (doc: unknown) => boolean };
}

const h = (loc: Locations, ...p: string[]) => join(loc.home, ...p);
const ev = (path: string, what: string): Evidence => ({ path, what });

const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const at = (doc: unknown, ...keys: string[]): unknown => keys.reduce((n, k) => (isRecord(n) ? n[k] : undefined), doc);

const copilotHome = (loc: Locations) => loc.env.COPILOT_HOME || h(loc, ".copilot");
const opencodeConfig = (loc: Locations) => join(loc.env.XDG_CONFIG_HOME || h(loc, ".config"), "opencode");

const RUFLO_MARKERS = [".claude-flow", ".ruflo", ".swarm", ".hive-mind", ".harness", ".claude-plugin"];

const DEFS: readonly AgentDef[] = [
  {
    id: "claude-code",
    product: "Claude Code",
    client: "claude-code",
    files: (l) => [
      ev(claudeSettings(l.home, l.env), "Claude Code settings"),
      ev(claudeDir(l.home, l.env), "Claude Code home"),
    ],
    shellTool: "Bash",
    shellOff: {
      file: (l) => claudeSettings(l.home, l.env),
      off: (d) => list(at(d, "permissions", "deny")).some((r) => /^Bash(\((\*|\*\*|:\*)\))?$/.test(r)),
    },
  },
  { id: "claude-desktop", product: "Claude Desktop", client: "claude-desktop", files: () => [] },
  {
    id: "cursor",
    product: "Cursor",
    client: "cursor",
    files: (l) => [ev(h(l, ".cursor", "hooks.json"), "Cursor hooks"), ev(h(l, ".cursor"), "Cursor home")],
    shellTool: "its terminal tool",
  },
  {
    id: "codex",
    product: "Codex",
    client: "codex",
    files: (l) => [ev(join(codexHome(l.home, l.env), "auth.json"), "Codex sign-in")],
    shellTool: "its shell tool",
  },
  {
    id: "gemini-cli",
    product: "Gemini CLI",
    client: "gemini-cli",
    files: (l) => [ev(geminiDir(l.home, l.env), "Gemini CLI home")],
    shellTool: "run_shell_command",
    shellOff: {
      file: (l) => geminiSettings(l.home, l.env),
      off: (d) => {
        const core = at(d, "tools", "core") ?? at(d, "coreTools");
        const excluded = [...list(at(d, "tools", "exclude")), ...list(at(d, "excludeTools"))];
        return (
          excluded.some((t) => t.startsWith("run_shell_command")) ||
          (Array.isArray(core) && !list(core).some((t) => t.startsWith("run_shell_command")))
        );
      },
    },
  },
  {
    id: "windsurf",
    product: "Windsurf",
    client: "windsurf",
    files: (l) => [ev(h(l, ".codeium", "windsurf"), "Windsurf home")],
    shellTool: "its terminal tool",
  },
  { id: "cline", product: "Cline", client: "cline", files: () => [], shellTool: "execute_command" },
  {
    id: "vscode",
    product: "VS Code",
    client: "vscode",
    files: (l) =>
      entries(h(l, ".vscode", "extensions"))
        .filter((n) => n.startsWith("github.copilot-chat"))
        .map((n) => ev(h(l, ".vscode", "extensions", n), "Copilot agent mode")),
    shellTool: "its terminal tool",
  },
  { id: "zed", product: "Zed", client: "zed", files: () => [], shellTool: "its terminal tool" },
  { id: "hermes", product: "Hermes", harness: true, client: "hermes", files: () => [], shellTool: "terminal" },
  {
    id: "openclaw",
    product: "OpenClaw",
    harness: true,
    client: "openclaw",
    files: (l) => [ev(join(l.env.OPENCLAW_STATE_DIR || h(l, ".openclaw"), "agents"), "OpenClaw agents")],
    shellTool: "exec",
    shellOff: {
      file: (l) => l.env.OPENCLAW_CONFIG_PATH || join(l.env.OPENCLAW_STATE_DIR || h(l, ".openclaw"), "openclaw.json"),
      off: (d) => {
        const allow = at(d, "tools", "allow");
        return (
          list(at(d, "tools", "deny")).includes("exec") ||
          (Array.isArray(allow) && !list(allow).some((t) => t === "exec" || t === "*"))
        );
      },
    },
  },
  {
    id: "copilot-cli",
    product: "GitHub Copilot CLI",
    files: (l) => [
      ev(join(copilotHome(l), "config.json"), "Copilot CLI settings"),
      ev(join(copilotHome(l), "mcp-config.json"), "Copilot CLI MCP servers"),
      ev(join(copilotHome(l), "hooks"), "Copilot CLI hooks"),
    ],
    shellTool: "bash",
  },
  {
    id: "opencode",
    product: "OpenCode",
    files: (l) => [
      ev(join(opencodeConfig(l), "opencode.json"), "OpenCode settings"),
      ev(join(opencodeConfig(l), "opencode.jsonc"), "OpenCode settings"),
      ev(join(opencodeConfig(l), "plugins"), "OpenCode plugins"),
      ev(h(l, ".local", "share", "opencode", "auth.json"), "OpenCode sign-in"),
    ],
    shellTool: "bash",
    shellOff: {
      file: (l) => join(opencodeConfig(l), "opencode.json"),
      off: (d) => at(d, "permission", "bash") === "deny" || at(d, "tools", "bash") === false,
    },
  },
  {
    id: "ruflo",
    product: "Ruflo",
    harness: true,
    files: (_l, repo) => RUFLO_MARKERS.map((m) => ev(join(repo, m), "Ruflo swarm state")),
    shellTool: "the Claude Code it runs",
  },
];

/** The user-scope files of its MCP client, which also prove the agent is installed. */
function clientEvidence(def: AgentDef, loc: Locations): Evidence[] {
  if (!def.client) return [];
  const c = clientDef(def.client);
  return c
    .files(loc)
    .filter((p) => p.scope === "user")
    .map((p) => ev(p.path, `${c.label} MCP servers`));
}

/** The settings document, undefined when absent; one that will not parse is named in `problems` and read as absent. */
function readDoc(trail: Trail, path: string, owner: string, problems: ConfigProblem[]): unknown {
  const text = trail.text(path);
  if (text === undefined) return undefined;
  try {
    return parseDocument(path.endsWith("openclaw.json") ? "json5" : "json", text);
  } catch (e) {
    const at = e instanceof ParseFailure ? { line: e.line, column: e.column } : {};
    problems.push({ path, owner, message: e instanceof Error ? e.message : "it will not parse", ...at });
    return undefined;
  }
}

function shellOf(
  def: AgentDef,
  loc: Locations,
  trail: Trail,
  proof: string,
  problems: ConfigProblem[],
): DetectedAgent["shell"] {
  if (!def.shellTool) return { has: false, why: `${def.product} has no shell of its own`, grantedBy: proof };
  if (def.shellOff) {
    const file = def.shellOff.file(loc);
    const doc = readDoc(trail, file, def.product, problems);
    if (doc !== undefined && def.shellOff.off(doc)) {
      return { has: false, why: `its own settings take ${def.shellTool} away`, grantedBy: file };
    }
  }
  return { has: true, why: `${def.product} runs commands through ${def.shellTool}`, grantedBy: proof };
}

/** Every agent whose config is on this disk (or, for Ruflo, beside the work in `repo`). */
export function detectAgents(
  trail: Trail,
  loc: Locations,
  repo: string,
  problems: ConfigProblem[] = [],
): DetectedAgent[] {
  const out: DetectedAgent[] = [];
  for (const def of DEFS) {
    const evidence = [...clientEvidence(def, loc), ...def.files(loc, repo)].filter((e) => exists(e.path));
    const proof = evidence[0];
    if (!proof) continue;
    out.push({
      id: def.id,
      product: def.product,
      harness: def.harness === true,
      ...(def.client ? { client: def.client } : {}),
      evidence,
      shell: shellOf(def, loc, trail, proof.path, problems),
    });
  }
  return out;
}

export function agentProduct(id: string): string {
  return DEFS.find((d) => d.id === id)?.product ?? id;
}

// Every MCP client memnox knows, where each keeps its servers and in what shape: the one place that knows these
// formats (scan, setup, wrap and uninstall all read them from here). Sources: shared/research/agent-protocols.md.
import { join } from "node:path";
import { claudeState, codexConfig, geminiSettings, PROJECT_FILES } from "../core/agent-paths.ts";
import { isRecord } from "../core/record.ts";
import type { Env } from "../ports/index.ts";
import type { EditableFormat } from "./edit/edits.ts";
import type { JsonValue } from "./edit/jsonc.ts";
import type { Scope, Where } from "./servers.ts";

export type ClientId =
  | "claude-code"
  | "claude-desktop"
  | "cursor"
  | "codex"
  | "gemini-cli"
  | "windsurf"
  | "vscode"
  | "cline"
  | "zed"
  | "hermes"
  | "openclaw";

type FileFormat = EditableFormat | "yaml";

/** A stdio server as memnox adds one (the session server): env values here are memnox's own, never a secret. */
export interface StdioServer {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

export interface Locations {
  readonly home: string;
  readonly cwd: string;
  readonly env: Env;
}

interface Place {
  readonly path: string;
  readonly scope: ClientFile["scope"];
}

export interface ClientFile {
  readonly client: ClientId;
  readonly path: string;
  readonly scope: Exclude<Scope, "local">;
  readonly format: FileFormat;
}

interface ClientDef {
  readonly id: ClientId;
  readonly label: string;
  readonly format: FileFormat;
  /** Every place this client may keep MCP servers, whether or not the file exists. */
  readonly files: (loc: Locations) => readonly Place[];
  /** Where its server map sits (for Claude Code also under each project in ~/.claude.json). */
  readonly key: readonly string[];
  /** Where the server maps sit in one of its documents, when that is more than `key`. */
  readonly maps?: (doc: unknown, file: ClientFile) => readonly Where[];
  /** The entry this client's own tools write for a stdio server. */
  readonly stdioEntry: (s: StdioServer) => { [key: string]: JsonValue };
  /** Why memnox reads this client's files but never edits them. */
  readonly readOnly?: string;
  /** Servers the client itself will not start, by a list beside the server map (Gemini CLI's `mcp.allowed/excluded`). */
  readonly hostDisabled?: (doc: unknown, name: string) => boolean;
}

const configHome = (loc: Locations) => loc.env.XDG_CONFIG_HOME || join(loc.home, ".config");
const macSupport = (loc: Locations) => join(loc.home, "Library", "Application Support");

const user = (path: string): Place => ({ path, scope: "user" });
const project = (path: string): Place => ({ path, scope: "project" });

const env = (s: StdioServer) => (s.env ? { env: { ...s.env } } : {});
/** What Cursor, Gemini CLI, Windsurf, Cline, Claude Desktop and OpenClaw document: command, args, env. */
const flat = (s: StdioServer) => ({ command: s.command, args: [...s.args], ...env(s) });

function claudeMaps(doc: unknown, f: ClientFile): Where[] {
  const out: Where[] = [{ path: ["mcpServers"], scope: f.scope }];
  const projects = isRecord(doc) ? doc.projects : undefined;
  if (f.scope === "user" && isRecord(projects)) {
    for (const [project, entry] of Object.entries(projects)) {
      if (isRecord(entry) && entry.mcpServers !== undefined) {
        out.push({ path: ["projects", project, "mcpServers"], scope: "local", project });
      }
    }
  }
  return out;
}

const VSCODE_FLAVOURS = ["Code", "Code - Insiders", "VSCodium"];
const CLINE_HOSTS = ["Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"];
const CLINE_SETTINGS = ["User", "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json"];

const CLIENTS: readonly ClientDef[] = [
  {
    id: "claude-code",
    label: "Claude Code",
    format: "json",
    files: (loc) => [user(claudeState(loc.home, loc.env)), project(join(loc.cwd, ".mcp.json"))],
    maps: claudeMaps,
    key: ["mcpServers"],
    stdioEntry: (s) => ({ type: "stdio", command: s.command, args: [...s.args], env: { ...s.env } }),
  },
  {
    id: "claude-desktop",
    label: "Claude Desktop",
    format: "json",
    files: (loc) =>
      [join(macSupport(loc), "Claude"), join(configHome(loc), "Claude")].map((dir) =>
        user(join(dir, "claude_desktop_config.json")),
      ),
    key: ["mcpServers"],
    stdioEntry: flat,
  },
  {
    id: "cursor",
    label: "Cursor",
    format: "json",
    files: (loc) => [user(join(loc.home, ".cursor", "mcp.json")), project(join(loc.cwd, ".cursor", "mcp.json"))],
    key: ["mcpServers"],
    stdioEntry: flat,
  },
  {
    id: "codex",
    label: "Codex",
    format: "toml",
    files: (loc) => [user(codexConfig(loc.home, loc.env)), project(join(loc.cwd, PROJECT_FILES.codexConfig))],
    key: ["mcp_servers"],
    stdioEntry: flat,
  },
  {
    id: "gemini-cli",
    label: "Gemini CLI",
    format: "json",
    files: (loc) => [user(geminiSettings(loc.home, loc.env)), project(join(loc.cwd, PROJECT_FILES.geminiSettings))],
    key: ["mcpServers"],
    stdioEntry: flat,
    hostDisabled: (doc, name) => {
      const mcp = isRecord(doc) && isRecord(doc.mcp) ? doc.mcp : {};
      const names = (v: unknown) => (Array.isArray(v) ? v : undefined);
      const allowed = names(mcp.allowed);
      return (names(mcp.excluded)?.includes(name) ?? false) || (allowed !== undefined && !allowed.includes(name));
    },
  },
  {
    id: "windsurf",
    label: "Windsurf",
    format: "json",
    files: (loc) => [user(join(loc.home, ".codeium", "windsurf", "mcp_config.json"))],
    key: ["mcpServers"],
    stdioEntry: flat,
  },
  {
    id: "vscode",
    label: "VS Code",
    format: "json",
    files: (loc) => [
      ...VSCODE_FLAVOURS.flatMap((flavour) =>
        [configHome(loc), macSupport(loc)].map((base) => user(join(base, flavour, "User", "mcp.json"))),
      ),
      project(join(loc.cwd, ".vscode", "mcp.json")),
    ],
    key: ["servers"],
    stdioEntry: (s) => ({ type: "stdio", ...flat(s) }),
  },
  {
    id: "cline",
    label: "Cline",
    format: "json",
    files: (loc) =>
      CLINE_HOSTS.flatMap((host) =>
        [configHome(loc), macSupport(loc)].map((base) => user(join(base, host, ...CLINE_SETTINGS))),
      ),
    key: ["mcpServers"],
    stdioEntry: flat,
  },
  {
    id: "zed",
    label: "Zed",
    format: "json",
    files: (loc) => [
      user(join(configHome(loc), "zed", "settings.json")),
      project(join(loc.cwd, ".zed", "settings.json")),
    ],
    key: ["context_servers"],
    stdioEntry: (s) => ({ ...flat(s), env: { ...s.env } }),
  },
  {
    id: "hermes",
    label: "Hermes",
    format: "yaml",
    files: (loc) => [user(join(loc.env.HERMES_HOME || join(loc.home, ".hermes"), "config.yaml"))],
    key: ["mcp_servers"],
    stdioEntry: flat,
    readOnly: "Hermes keeps its servers in YAML, which memnox reads but does not rewrite",
  },
  {
    id: "openclaw",
    label: "OpenClaw",
    format: "json5",
    files: (loc) => [
      user(
        loc.env.OPENCLAW_CONFIG_PATH ||
          join(loc.env.OPENCLAW_STATE_DIR || join(loc.home, ".openclaw"), "openclaw.json"),
      ),
    ],
    key: ["mcp", "servers"],
    stdioEntry: flat,
  },
];

export const CLIENT_IDS: readonly ClientId[] = CLIENTS.map((c) => c.id);

export function clientDef(id: ClientId): ClientDef {
  const def = CLIENTS.find((c) => c.id === id);
  if (!def) throw new Error(`unknown client ${id}`);
  return def;
}

export function isClientId(id: string): id is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(id);
}

/** Every server map in one document of `file`'s client. */
export function serverMaps(file: ClientFile, doc: unknown): readonly Where[] {
  const def = clientDef(file.client);
  return def.maps?.(doc, file) ?? [{ path: def.key, scope: file.scope }];
}

export function clientFile(id: ClientId, place: Place): ClientFile {
  return { client: id, path: place.path, scope: place.scope, format: clientDef(id).format };
}

/** Every candidate file of the chosen clients, each path once (a project file that is also the user file is user). */
export function candidateFiles(loc: Locations, ids: readonly ClientId[] = CLIENT_IDS): ClientFile[] {
  const seen = new Set<string>();
  const out: ClientFile[] = [];
  for (const def of CLIENTS) {
    if (!ids.includes(def.id)) continue;
    for (const place of def.files(loc)) {
      if (seen.has(place.path)) continue;
      seen.add(place.path);
      out.push(clientFile(def.id, place));
    }
  }
  return out;
}

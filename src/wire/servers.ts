// One MCP server entry, read the same way whichever client's file it came from: transport, command, argument
// list, env keys (never values) and where in the entry its command and arguments live.
import { isRecord } from "../core/record.ts";

export type Transport = "stdio" | "http" | "sse" | "unknown";
export type Scope = "user" | "project" | "local";

/** What every view of one server entry says of it (the entry read, the masked ServerInfo, the scan's row). */
export interface ServerFacts {
  readonly scope: Scope;
  /** For Claude Code's per-project servers: the project directory. */
  readonly project?: string;
  readonly transport: Transport;
  readonly command?: string;
  /** As the file has them in ServerEntry; masked (a credential-shaped argument is `***`) in every view printed. */
  readonly args?: readonly string[];
  /** Names of the environment variables the config hands the server; the values never leave the file. */
  readonly envKeys: readonly string[];
  readonly url?: string;
  readonly disabled: boolean;
}

export interface ServerEntry extends ServerFacts {
  readonly name: string;
  /** The entry's key path in its document. */
  readonly path: readonly string[];
  /** The host's own tool filter: includeTools/excludeTools, enabled_tools/disabled_tools, tools.*, toolFilter.*. */
  readonly toolFilter?: ToolFilter;
  /** Where the command and the argument list sit inside the entry (Zed once nested them under `command`). */
  readonly commandPath: readonly string[];
  readonly argsPath: readonly string[];
}

type Raw = Readonly<Record<string, unknown>>;

interface ToolFilter {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === "string") ? v : undefined;
}

const TYPES: Readonly<Record<string, Transport>> = {
  stdio: "stdio",
  http: "http",
  "streamable-http": "http",
  streamable_http: "http",
  streamableHttp: "http",
  sse: "sse",
};

export interface Where {
  readonly path: readonly string[];
  readonly scope: Scope;
  readonly project?: string;
}

/** Reads one entry; undefined when it is not an object at all. */
export function readEntry(name: string, raw: unknown, where: Where): ServerEntry | undefined {
  if (!isRecord(raw)) return undefined;
  const nested = isRecord(raw.command) ? raw.command : undefined;
  const command = nested ? nested.path : raw.command;
  const args = nested ? nested.args : raw.args;
  const env = nested?.env ?? raw.env;
  const url = [raw.url, raw.httpUrl, raw.serverUrl].find((u): u is string => typeof u === "string");
  const envKeys = [...(isRecord(env) ? Object.keys(env) : []), ...(stringList(raw.env_vars) ?? [])];
  const argList = stringList(args);
  const toolFilter = filterOf(raw);
  return {
    name,
    path: [...where.path, name],
    scope: where.scope,
    ...(where.project !== undefined ? { project: where.project } : {}),
    transport: transportOf(raw, command, url, args),
    ...(typeof command === "string" ? { command } : {}),
    ...(argList ? { args: argList } : {}),
    envKeys,
    ...(url !== undefined ? { url } : {}),
    disabled: raw.disabled === true || raw.enabled === false,
    ...(toolFilter ? { toolFilter } : {}),
    commandPath: nested ? ["command", "path"] : ["command"],
    argsPath: nested ? ["command", "args"] : ["args"],
  };
}

/** The filter as Gemini CLI, Codex, Hermes and OpenClaw each spell it (see ToolFilter). */
function filterOf(raw: Raw): ToolFilter | undefined {
  const tools = isRecord(raw.tools) ? raw.tools : {};
  const filter = isRecord(raw.toolFilter) ? raw.toolFilter : {};
  const include = stringList(raw.includeTools ?? raw.enabled_tools ?? tools.include ?? filter.include);
  const exclude = stringList(raw.excludeTools ?? raw.disabled_tools ?? tools.exclude ?? filter.exclude);
  if (!include && !exclude) return undefined;
  return { ...(include ? { include } : {}), ...(exclude ? { exclude } : {}) };
}

function transportOf(raw: Raw, command: unknown, url: string | undefined, args: unknown): Transport {
  const declared = typeof raw.type === "string" ? TYPES[raw.type] : undefined;
  const transport = typeof raw.transport === "string" ? TYPES[raw.transport] : undefined;
  if (declared === "stdio" || (!declared && !transport && url === undefined)) {
    const argsOk = args === undefined || stringList(args) !== undefined;
    return typeof command === "string" && command !== "" && argsOk ? "stdio" : "unknown";
  }
  // A URL with no declared transport is Streamable HTTP in every client that reads one (Gemini CLI included).
  return declared ?? transport ?? "http";
}

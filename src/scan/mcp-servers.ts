// MCP servers per client, read through the wire's one registry of client formats; tools from a probe when allowed,
// else from the cache; what the host's own filter removes is counted, not granted.

import { isRecord } from "../core/record.ts";
import { isSecretName, MASK } from "../core/secrets.ts";
import { type ClientFile, clientDef, type Locations } from "../wire/clients.ts";
import { describeServer, readClientFiles } from "../wire/read.ts";
import type { ServerEntry } from "../wire/servers.ts";
import { isSessionServer, unwrapCommand } from "../wire/wrapping.ts";
import { toolOutside } from "./outside.ts";
import { type ProbeProgress, type ProbeResult, type ProbeTarget, probeServers } from "./probe.ts";
import { type CachedTool, cachedTools, cacheFile, classify, writeCache } from "./tool-cache.ts";
import type { Trail } from "./trail.ts";
import type { ConfigProblem, ServerRow, ToolRow, ToolsFrom } from "./types.ts";

interface ServerScanOptions {
  readonly loc: Locations;
  readonly trail: Trail;
  /** `paths.mcp`: the proxy's manifests and the scan's own probe cache. */
  readonly mcpDir: string;
  readonly probe: boolean;
  readonly timeoutMs: number;
  readonly version: string;
  readonly nowIso: string;
  readonly onProbe?: (p: ProbeProgress) => void;
}

interface ServerScan {
  readonly rows: ServerRow[];
  readonly problems: ConfigProblem[];
  /** Each readable client file's document, by path (harness readers look at more than its servers). */
  readonly docs: Map<string, unknown>;
  /** Writes what the probes listed into the scan's cache; the caller decides whether and when. */
  readonly keep: () => void;
}

interface Pending {
  readonly row: Omit<ServerRow, "tools" | "toolsFrom" | "toolsNote" | "hiddenByHost">;
  readonly entry: ServerEntry;
  readonly cache: string;
  readonly target?: ProbeTarget;
}

function rawAt(doc: unknown, path: readonly string[]): Record<string, unknown> {
  let node: unknown = doc;
  for (const k of path) node = isRecord(node) ? node[k] : undefined;
  return isRecord(node) ? { ...node } : {};
}

function envValues(raw: Record<string, unknown>): Record<string, string> {
  const env = isRecord(raw.command) ? raw.command.env : raw.env;
  const out: Record<string, string> = {};
  if (isRecord(env)) for (const [k, v] of Object.entries(env)) if (typeof v === "string") out[k] = v;
  return out;
}

function pending(o: ServerScanOptions, file: ClientFile, doc: unknown, e: ServerEntry): Pending | undefined {
  const info = describeServer(file, e);
  if (isSessionServer(e.name, e.command, e.args)) return undefined;
  const def = clientDef(file.client);
  const disabled = e.disabled || (def.hostDisabled?.(doc, e.name) ?? false);
  const remote =
    e.transport === "http" ||
    e.transport === "sse" ||
    e.url !== undefined ||
    e.envKeys.some(isSecretName) ||
    (info.args ?? []).some((a) => a.includes(MASK));
  const id = `${file.client}:${e.name}@${file.path}${e.project ? `#${e.project}` : ""}`;
  const { client: _c, file: _f, scope, ...rest } = info;
  const row = { id, client: file.client, file: file.path, scope, ...rest, disabled, remote };
  const cache = cacheFile(o.mcpDir, e.name, [info.command ?? info.url ?? "", ...(info.args ?? [])]);
  const inner = e.command !== undefined ? unwrapCommand(e.command, e.args ?? []) : undefined;
  const command = inner?.command ?? e.command;
  if (!o.probe || disabled || e.transport !== "stdio" || command === undefined) return { row, entry: e, cache };
  const raw = rawAt(doc, e.path);
  const env = { ...definedEnv(o.loc.env), ...envValues(raw), ...OFFLINE };
  const cwd = typeof raw.cwd === "string" ? raw.cwd : o.loc.cwd;
  return {
    row,
    entry: e,
    cache,
    target: { key: cache, name: e.name, command, args: inner?.args ?? e.args ?? [], env, cwd },
  };
}

/** A probe fetches nothing: npx, pnpm dlx, bunx and uvx run only what is already cached, or fail at once. */
const OFFLINE = { npm_config_offline: "true", UV_OFFLINE: "1", BUN_CONFIG_OFFLINE: "1" };

function definedEnv(env: Locations["env"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

function filtered(tools: readonly CachedTool[], e: ServerEntry): { kept: CachedTool[]; hidden: number } {
  const f = e.toolFilter;
  if (!f) return { kept: [...tools], hidden: 0 };
  const kept = tools.filter((t) => (!f.include || f.include.includes(t.name)) && !f.exclude?.includes(t.name));
  return { kept, hidden: tools.length - kept.length };
}

function finish(o: ServerScanOptions, p: Pending, probed: ProbeResult | undefined, keepers: (() => void)[]): ServerRow {
  let tools: CachedTool[] | undefined;
  let from: ToolsFrom = "none";
  let note: string | undefined;
  if (probed?.ok) {
    tools = classify(probed.tools);
    from = "probe";
    const listed = tools;
    keepers.push(() => writeCache(p.cache, p.entry.name, o.nowIso, listed));
  } else {
    const c = cachedTools(o.mcpDir, p.entry.name, p.cache);
    tools = c.tools;
    from = c.from;
    if (c.file) o.trail.note(c.file);
    if (probed && !probed.ok) note = `not listed: ${probed.why}`;
    else if (!tools && p.row.remote && p.entry.transport !== "stdio") note = "hosted: a scan makes no network call";
    else if (!tools) note = o.probe ? "not started" : "not probed (--no-probe) and nothing cached";
  }
  const { kept, hidden } = tools ? filtered(tools, p.entry) : { kept: undefined, hidden: 0 };
  const rows: ToolRow[] | null = kept
    ? kept
        .map((t) => ({ ...t, outside: toolOutside(t.class, p.row.remote) }))
        .sort((a, b) => a.name.localeCompare(b.name))
    : null;
  return {
    ...p.row,
    tools: rows,
    toolsFrom: from,
    ...(note ? { toolsNote: note } : {}),
    hiddenByHost: tools ? hidden : (p.entry.toolFilter?.exclude?.length ?? 0),
  };
}

export async function scanServers(o: ServerScanOptions): Promise<ServerScan> {
  const results = await readClientFiles(o.loc);
  const problems: ConfigProblem[] = [];
  const docs = new Map<string, unknown>();
  const all: Pending[] = [];
  for (const r of results) {
    o.trail.note(r.file.path);
    const owner = clientDef(r.file.client).label;
    if (!r.ok) {
      const { message, line, column } = r.problem;
      problems.push({ path: r.file.path, owner, message, ...(line ? { line } : {}), ...(column ? { column } : {}) });
      continue;
    }
    docs.set(r.file.path, r.doc);
    for (const e of r.servers) {
      const p = pending(o, r.file, r.doc, e);
      if (p) all.push(p);
    }
  }
  const targets = new Map<string, ProbeTarget>();
  for (const p of all) if (p.target) targets.set(p.target.key, p.target);
  const probed = await probeServers([...targets.values()], o.timeoutMs, o.version, o.onProbe);
  const keepers: (() => void)[] = [];
  const rows = all.map((p) => finish(o, p, probed.get(p.cache), keepers));
  return {
    rows,
    problems,
    docs,
    keep: () => {
      for (const k of keepers) k();
    },
  };
}

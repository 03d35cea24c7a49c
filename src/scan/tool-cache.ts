// Tools a server offered when last asked: the scan's own probe cache (by server and command), else the manifest
// the proxy keeps for that server name. `--no-probe` reads these instead of starting anything.
import { join } from "node:path";
import { isActionClass } from "../core/action.ts";
import { isRecord } from "../core/record.ts";
import { readJsonIfExists, writeJsonAtomic } from "../io/files.ts";
import { sha256Hex } from "../io/hash.ts";
import { classifyTool } from "../resolve/mcp-tools.ts";
import { loadManifest, manifestPath } from "../state/mcp-manifest.ts";
import type { ProbedTool } from "./probe.ts";
import type { ToolRow, ToolsFrom } from "./types.ts";

const CACHE_VERSION = 1;

export interface CachedTool {
  readonly name: string;
  readonly class: ToolRow["class"];
  readonly basis: ToolRow["basis"];
}

/** The cache file for a server: its name and a digest of its (masked) command line. */
export function cacheFile(mcpDir: string, name: string, identity: readonly string[]): string {
  const digest = sha256Hex(JSON.stringify(identity)).slice(0, 16);
  return join(mcpDir, "scan", `${name.replace(/[^A-Za-z0-9_.-]/g, "_")}.${digest}.json`);
}

export function classify(tools: readonly ProbedTool[]): CachedTool[] {
  return tools.map((t) => {
    const c = classifyTool(t.name, t.annotations);
    return { name: t.name, class: c.class, basis: c.basis };
  });
}

export function writeCache(file: string, server: string, at: string, tools: readonly CachedTool[]): void {
  writeJsonAtomic(file, { version: CACHE_VERSION, server, probedAt: at, tools });
}

function readOwn(file: string): CachedTool[] | undefined {
  let raw: unknown;
  try {
    raw = readJsonIfExists(file);
  } catch {
    return undefined;
  }
  if (!isRecord(raw) || raw.version !== CACHE_VERSION || !Array.isArray(raw.tools)) return undefined;
  return raw.tools.filter(
    (t): t is CachedTool =>
      isRecord(t) && typeof t.name === "string" && isActionClass(t.class) && typeof t.basis === "string",
  );
}

/** The tools last seen for this server, where they came from, and the file they were read from. */
export function cachedTools(
  mcpDir: string,
  name: string,
  file: string,
): { tools?: CachedTool[]; from: ToolsFrom; file?: string } {
  const own = readOwn(file);
  if (own) return { tools: own, from: "cache", file };
  const proxy = loadManifest(mcpDir, name);
  if (proxy.length === 0) return { from: "none" };
  const tools = proxy.map((t) => ({ name: t.name, class: t.class, basis: t.basis }));
  return { tools, from: "proxy", file: manifestPath(mcpDir, name) };
}

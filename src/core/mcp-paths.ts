// The files an MCP tool call names in its arguments (a filesystem server's `read_file {path}`): each is also that
// file action, so a rule about `.env` or `~/.ssh` holds whichever tool reaches the file. Pure.
import { isRecord } from "./record.ts";

/** Argument names that carry a path. */
const PATH_KEYS = new Set([
  "path",
  "paths",
  "file",
  "files",
  "file_path",
  "filepath",
  "filename",
  "source",
  "destination",
  "target",
  "directory",
  "dir",
  "uri",
]);

type McpFileVerb = "read" | "write" | "delete";

/** What a tool does to the files it names, by its own name: deletes, writes, else reads. */
export function toolFileVerb(tool: string): McpFileVerb {
  const t = tool.toLowerCase();
  if (/(^|[_\-.])(delete|remove|rm|unlink|trash|purge)([_\-.]|$)/.test(t)) return "delete";
  if (/(^|[_\-.])(write|edit|create|move|rename|put|save|append|upload|patch|update|mkdir|copy)([_\-.]|$)/.test(t))
    return "write";
  return "read";
}

function pathLike(v: string): string | undefined {
  const s = v.startsWith("file://") ? decodeURIComponent(v.slice("file://".length)) : v;
  if (s === "" || s.length > 4096 || /^[a-z][a-z0-9+.-]*:\/\//i.test(s) || s.includes("\n")) return undefined;
  return s;
}

/** The path-valued arguments of a call (top level only), as the tool was given them. */
export function pathArguments(input: unknown): string[] {
  if (!isRecord(input)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (!PATH_KEYS.has(k.toLowerCase())) continue;
    for (const item of Array.isArray(v) ? v : [v]) {
      const p = typeof item === "string" ? pathLike(item) : undefined;
      if (p) out.push(p);
    }
  }
  return [...new Set(out)];
}

// What every adapter's tool table builds: filesystem, http and mcp actions on absolute paths and hosts.

import { isAbsolute, join, resolve } from "node:path";
import type { Action } from "../src/core/action.ts";
import { httpActionName } from "../src/core/hosts.ts";
import { pathArguments, toolFileVerb } from "../src/core/mcp-paths.ts";
import { sha256Hex } from "../src/io/hash.ts";
import type { ParseContext, SeamCall } from "./types.ts";

/** `~` expanded, relative resolved against the call's directory, `..` folded. */
export function absolute(path: string, cwd: string, home: string): string {
  const expanded = path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
}

/** A tool's input as the engine's `arguments`: every top-level field as strings, matched in-process only. */
export function argumentsOf(input: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (typeof input !== "object" || input === null || Array.isArray(input)) return out;
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || v === null) continue;
    out[k] = Array.isArray(v) ? v.map(scalar) : [scalar(v)];
  }
  return out;
}

function scalar(v: unknown): string {
  return typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v);
}

type FileVerb = "read" | "write" | "delete";
const FILE_CLASS = { read: "read", write: "write", delete: "destructive" } as const;

export function fileCall(verb: FileVerb, paths: readonly string[], input: unknown): SeamCall {
  const action: Action = {
    name: `filesystem.${verb}`,
    class: FILE_CLASS[verb],
    targets: [...new Set(paths)],
    arguments: argumentsOf(input),
  };
  return { action, rawArguments: JSON.stringify(input ?? null) };
}

/** A search (glob or grep): reads the directory it starts from, and the pattern under it. */
export function searchCall(base: string | undefined, pattern: string | undefined, pc: ParseContext, input: unknown) {
  const dir = absolute(base ?? pc.cwd, pc.cwd, pc.home);
  const targets = [dir];
  if (pattern) targets.push(isAbsolute(pattern) ? pattern : join(dir, pattern));
  return fileCall("read", targets, input);
}

/**
 * A content search (Grep): it reads every file under the directory it starts from (`D/**`, which a secret-read
 * rule meets wherever it reaches inside), narrowed to the files a glob names when it gives one.
 */
export function contentSearchCall(
  base: string | undefined,
  glob: string | undefined,
  pc: ParseContext,
  input: unknown,
) {
  const dir = absolute(base ?? pc.cwd, pc.cwd, pc.home);
  const under = dir === "/" ? "/**" : `${dir}/**`;
  return fileCall("read", [glob && !glob.includes("/") ? `${under}/${glob}` : under], input);
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname || url;
  } catch {
    return url;
  }
}

/** Every http(s) URL in a piece of text, for tools that fetch what their prompt names. */
export function urlsIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s"'<>)\]]+/g)].map((m) => m[0]);
}

/** A fetch: `http.loopback` when every host is this machine, else `http.request`. */
export function httpCall(hosts: readonly string[], input: unknown): SeamCall {
  const action: Action = {
    name: httpActionName(hosts),
    class: "communication",
    targets: [...new Set(hosts)],
    arguments: argumentsOf(input),
  };
  return { action, rawArguments: JSON.stringify(input ?? null) };
}

/** `mcp.<server>.<tool>`; `*` stands for a server the agent did not name. Annotations never reach a hook. */
export function mcpCall(server: string | undefined, tool: string, input: unknown): SeamCall {
  const action: Action = {
    name: `mcp.${server ?? "*"}.${tool}`,
    class: "unknown",
    targets: server ? [server] : [],
    arguments: argumentsOf(input),
  };
  return { action, rawArguments: JSON.stringify(input ?? null) };
}

/**
 * An MCP call, and beside it the file action for each path its arguments name (read, write or delete by the tool's
 * name), so a rule about a file holds whichever server reaches it. memnox's own session server names no files.
 */
export function mcpCalls(
  server: string | undefined,
  tool: string,
  input: unknown,
  at: { readonly cwd: string; readonly home: string },
): SeamCall[] {
  const call = mcpCall(server, tool, input);
  const paths = server === "memnox-session" ? [] : pathArguments(input).map((p) => absolute(p, at.cwd, at.home));
  return paths.length > 0 ? [call, fileCall(toolFileVerb(tool), paths, input)] : [call];
}

/** `mcp__server__tool` (Claude Code, Codex): the server is the first part, the tool the rest. */
export function splitDoubleUnderscore(name: string): { server: string; tool: string } | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m?.[1] && m[2] ? { server: m[1], tool: m[2] } : undefined;
}

/** Files a Codex `apply_patch` touches: added and updated ones are written, deleted ones deleted. */
export function patchCalls(patch: string, cwd: string, home: string, input: unknown): SeamCall[] {
  const writes: string[] = [];
  const deletes: string[] = [];
  for (const line of patch.split("\n")) {
    const m = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/.exec(line.trimEnd());
    if (!m?.[1] || !m[2]) continue;
    const path = absolute(m[2].trim(), cwd, home);
    (m[1] === "Delete File" ? deletes : writes).push(path);
  }
  const calls: SeamCall[] = [];
  if (writes.length > 0) calls.push(fileCall("write", writes, input));
  if (deletes.length > 0) calls.push(fileCall("delete", deletes, input));
  return calls;
}

/** A stable key for a call the agent gives no id (Gemini): the same tool and input before and after it runs. */
export function inputKey(tool: string, input: unknown): string {
  return sha256Hex(`${tool}\0${canonical(input)}`).slice(0, 24);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (typeof v === "object" && v !== null) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/**
 * An MCP tool an agent names `<server><sep><tool>` with neither part free of `sep` (Copilot CLI joins them with `-`,
 * OpenCode with `_`): each way of cutting the name is one call, so a rule on any reading of it meets the call and
 * the strictest verdict among them decides.
 */
export function mcpReadings(name: string, sep: string, input: unknown): SeamCall[] {
  const calls: SeamCall[] = [];
  for (let i = name.indexOf(sep); i > 0 && i < name.length - 1; i = name.indexOf(sep, i + 1)) {
    calls.push(mcpCall(name.slice(0, i), name.slice(i + 1), input));
  }
  return calls;
}

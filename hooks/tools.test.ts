import { describe, expect, test } from "bun:test";
import { claudeToolCalls } from "./claude-code.ts";
import { codexToolCalls } from "./codex.ts";
import { cursorToolCalls } from "./cursor.ts";
import { geminiToolCalls } from "./gemini-cli.ts";
import { absolute, inputKey, patchCalls } from "./tools.ts";
import type { SeamCall } from "./types.ts";

const pc = { cwd: "/proc-cwd", home: "/home/u" };
const cwd = "/repo";

/** What the gate is asked about, without the arguments. */
function shape(calls: readonly SeamCall[] | undefined) {
  return calls?.map((c) =>
    "command" in c ? { command: c.command, cwd: c.cwd } : { [c.action.name]: c.action.targets },
  );
}

describe("tool tables", () => {
  test("claude code: files on absolute paths, searches from their directory, fetches by host, mcp by server", () => {
    expect(shape(claudeToolCalls("Read", { file_path: "~/.ssh/id_ed25519" }, cwd, pc))).toEqual([
      { "filesystem.read": ["/home/u/.ssh/id_ed25519"] },
    ]);
    expect(
      shape(claudeToolCalls("Edit", { file_path: "src/../a.ts", old_string: "a", new_string: "b" }, cwd, pc)),
    ).toEqual([{ "filesystem.write": ["/repo/a.ts"] }]);
    expect(shape(claudeToolCalls("NotebookEdit", { notebook_path: "n.ipynb", new_source: "" }, cwd, pc))).toEqual([
      { "filesystem.write": ["/repo/n.ipynb"] },
    ]);
    expect(shape(claudeToolCalls("Glob", { pattern: "**/.env" }, cwd, pc))).toEqual([
      { "filesystem.read": ["/repo", "/repo/**/.env"] },
    ]);
    expect(shape(claudeToolCalls("Grep", { pattern: "KEY", path: "~/.aws", glob: "*.ini" }, cwd, pc))).toEqual([
      { "filesystem.read": ["/home/u/.aws/**/*.ini"] },
    ]);
    // A content search reads everything under where it starts: from the home directory, the keys too.
    expect(shape(claudeToolCalls("Grep", { pattern: "PRIVATE", path: "~" }, cwd, pc))).toEqual([
      { "filesystem.read": ["/home/u/**"] },
    ]);
    expect(shape(claudeToolCalls("WebSearch", { query: "x", allowed_domains: ["docs.rs"] }, cwd, pc))).toEqual([
      { "http.request": ["docs.rs"] },
    ]);
    expect(shape(claudeToolCalls("mcp__plugin_acme_db__run_query", { sql: "x" }, cwd, pc))).toEqual([
      { "mcp.plugin_acme_db.run_query": ["plugin_acme_db"] },
    ]);
    // Every other tool reaches the gate too: its own session tools as reads, a subagent as one, one it adds unknown.
    expect(shape(claudeToolCalls("Agent", { prompt: "x", subagent_type: "reviewer" }, cwd, pc))).toEqual([
      { "claude-code.Agent": ["reviewer"] },
    ]);
    expect(
      claudeToolCalls("TodoWrite", { todos: [] }, cwd, pc)?.map((c) => ("action" in c ? c.action.class : "")),
    ).toEqual(["read"]);
    expect(claudeToolCalls("FutureTool", {}, cwd, pc)?.map((c) => ("action" in c ? c.action.class : ""))).toEqual([
      "unknown",
    ]);
    expect(shape(claudeToolCalls("CronCreate", { cron: "* * * * *", prompt: "x" }, cwd, pc))).toEqual([
      { "system.schedule": ["claude-code"] },
    ]);
  });

  test("codex: a command sent as an argv becomes the line it runs", () => {
    expect(shape(codexToolCalls("Bash", { command: ["bash", "-lc", "git push --force"] }, cwd, pc))).toEqual([
      { command: "git push --force", cwd: undefined },
    ]);
    expect(shape(codexToolCalls("Bash", { command: ["rm", "-rf", "my dir"] }, cwd, pc))).toEqual([
      { command: "rm -rf 'my dir'", cwd: undefined },
    ]);
    expect(() => codexToolCalls("apply_patch", { command: "not a patch" }, cwd, pc)).toThrow(/names no file/);
  });

  test("an apply_patch writes what it adds, updates and moves to, and deletes what it deletes", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: a.txt",
      "+x",
      "*** Update File: b.txt",
      "*** Move to: c/d.txt",
      "*** Delete File: /abs/e.txt",
      "*** End Patch",
    ].join("\n");
    expect(shape(patchCalls(patch, cwd, pc.home, {}))).toEqual([
      { "filesystem.write": ["/repo/a.txt", "/repo/b.txt", "/repo/c/d.txt"] },
      { "filesystem.delete": ["/abs/e.txt"] },
    ]);
  });

  test("gemini: listings and searches read their directory, web_fetch goes to every host its prompt names", () => {
    expect(shape(geminiToolCalls("list_directory", { dir_path: "src" }, undefined, cwd, pc))).toEqual([
      { "filesystem.read": ["/repo/src"] },
    ]);
    expect(shape(geminiToolCalls("read_many_files", { include: ["a.ts", "/b.ts"] }, undefined, cwd, pc))).toEqual([
      { "filesystem.read": ["/repo/a.ts", "/b.ts"] },
    ]);
    const prompt = "compare https://example.com/a and http://evil.test:8080/x?y=1";
    expect(shape(geminiToolCalls("web_fetch", { prompt }, undefined, cwd, pc))).toEqual([
      { "http.request": ["example.com", "evil.test"] },
    ]);
    expect(shape(geminiToolCalls("mcp_github_create_issue", {}, undefined, cwd, pc))).toEqual([
      { "mcp.github.create_issue": ["github"] },
    ]);
    expect(geminiToolCalls("write_todos", { todos: [] }, undefined, cwd, pc)).toBeUndefined();
  });

  test("cursor: preToolUse MCP calls carry no server, so they match as mcp.*", () => {
    expect(shape(cursorToolCalls("MCP:create_issue", {}, cwd, pc))).toEqual([{ "mcp.*.create_issue": [] }]);
    expect(shape(cursorToolCalls("Delete", { path: "build" }, cwd, pc))).toEqual([
      { "filesystem.delete": ["/repo/build"] },
    ]);
    expect(cursorToolCalls("Task", {}, cwd, pc)).toBeUndefined();
  });

  test("paths and keys", () => {
    expect(absolute("~", "/x", "/home/u")).toBe("/home/u");
    expect(absolute("/a/./b/../c", "/x", "/home/u")).toBe("/a/c");
    expect(inputKey("t", { b: 1, a: [2, { d: 3, c: 4 }] })).toBe(inputKey("t", { a: [2, { c: 4, d: 3 }], b: 1 }));
    expect(inputKey("t", { a: 1 })).not.toBe(inputKey("u", { a: 1 }));
  });
});

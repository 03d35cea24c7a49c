// The real Claude Code 2.1.197 CLI against a scripted model, with a hand-written hook: what the client actually does
// with a deny, an ask, an allow with context, and SessionStart/UserPromptSubmit context. Kept as documentation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ModelRequest, type ScriptedModel, scriptedModel } from "./support/anthropic.ts";
import { type ClaudeProject, type ClaudeRun, claudeProject } from "./support/claude.ts";
import { tempDir } from "./support/fs.ts";

const HOOK = join(import.meta.dir, "..", "fixtures", "hooks", "claude-code", "scripted-hook.sh");
const logDir = tempDir("memnox-hook-log");
const log = logDir.join("payloads.jsonl");

let model: ScriptedModel;
let project: ClaudeProject;
let run: ClaudeRun;

beforeAll(async () => {
  model = scriptedModel([
    { toolUse: { name: "Bash", input: { command: "git push --force origin main", description: "push" } } },
    { toolUse: { name: "Bash", input: { command: "git status", description: "status" } } },
    { toolUse: { name: "Bash", input: { command: "rm -rf build", description: "clean" } } },
    { text: "finished" },
  ]);
  const entry = [{ command: HOOK }];
  project = claudeProject({
    model,
    tree: { "build/out.txt": "built\n" },
    hooks: { SessionStart: entry, UserPromptSubmit: entry, PreToolUse: [{ matcher: "Bash", command: HOOK }] },
  });
  run = await project.run("push main, then show the status and clean up", { env: { HOOK_LOG: log } });
});

afterAll(async () => {
  await project[Symbol.asyncDispose]();
  await model[Symbol.asyncDispose]();
  logDir[Symbol.dispose]();
});

function systemMessages(req: ModelRequest | undefined): string {
  return (req?.messages ?? [])
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((b) => b.text ?? "").join("\n")))
    .join("\n");
}

describe("claude code 2.1.197 with a PreToolUse hook", () => {
  test("the session completes and lists the refused and unasked calls as permission denials", () => {
    expect(run.code).toBe(0);
    expect(run.result.subtype).toBe("success");
    const denials = run.result.permission_denials as { tool_input: { command: string } }[];
    expect(denials.map((d) => d.tool_input.command)).toEqual(["git push --force origin main", "rm -rf build"]);
  });

  test("a deny reaches the model as an error tool_result carrying the reason, and the push never ran", () => {
    const [push] = model.toolResults();
    expect(push).toEqual({
      toolUseId: expect.any(String),
      text: "DENY-MARKER: main is shared. Push a branch and open a PR.",
      isError: true,
    });
  });

  test("an allowed git status runs for real and its output is the tool_result", () => {
    const status = model.toolResults()[1];
    expect(status?.isError).toBe(false);
    expect(status?.text).toContain("On branch main");
  });

  test("context beside an allowed call arrives after its tool_result as a system-reminder", () => {
    const after = model.conversation()[2];
    expect(model.visibleText(after ?? { path: "", messages: [], tools: [] })).toContain(
      "<system-reminder>\nPreToolUse:Bash hook additional context: CALL-MARKER: reading status is fine\n</system-reminder>",
    );
  });

  test("in -p nobody answers an ask: the model gets the ask's reason as an error tool_result, and rm never ran", () => {
    const ask = model.toolResults()[2];
    expect(ask).toEqual({
      toolUseId: expect.any(String),
      text: "ASK-MARKER: a person looks at deletes first",
      isError: true,
    });
    expect(readFileSync(join(project.dir, "build", "out.txt"), "utf8")).toBe("built\n");
  });

  test("SessionStart and UserPromptSubmit context reach the model in a role:system message, not the system prompt", () => {
    const first = model.conversation()[0];
    const system = systemMessages(first);
    expect(system).toContain("SessionStart hook additional context: BOUNDARY-MARKER: never force push here");
    expect(system).toContain("UserPromptSubmit hook additional context: PROMPT-MARKER: a decision covers git push");
    expect(JSON.stringify(first?.system ?? "")).not.toContain("MARKER");
  });

  test("the hook saw the payload fields memnox reads", () => {
    const payloads = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const pre = payloads.find((p) => p.hook_event_name === "PreToolUse");
    expect(Object.keys(pre ?? {}).sort()).toEqual(
      [
        "cwd",
        "effort",
        "hook_event_name",
        "permission_mode",
        "prompt_id",
        "session_id",
        "tool_input",
        "tool_name",
        "tool_use_id",
        "transcript_path",
      ].sort(),
    );
    expect(pre?.cwd).toBe(project.dir);
    const start = payloads.find((p) => p.hook_event_name === "SessionStart");
    expect(start?.source).toBe("startup");
    expect(start?.permission_mode).toBeUndefined();
  });
});

// `memnox memory install claude`, then the real Claude Code CLI against a scripted model: the memory block reaches
// the model at the session's start and with the prompt, and the session ends captured as a transcript.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { run } from "../../src/seams/cli/index.ts";
import { type ScriptedModel, scriptedModel } from "../support/anthropic.ts";
import { type ClaudeProject, type ClaudeRun, claudeProject } from "../support/claude.ts";
import { type FakeHome, hermeticEnv, testContext } from "../support/index.ts";

let model: ScriptedModel;
let project: ClaudeProject;
let session: ClaudeRun;

/** The CLI in process, in the Claude project's own HOME, as a person would run it there. */
async function memnox(args: string[]) {
  const home = {
    home: project.home,
    memnoxHome: `${project.home}/.memnox`,
    env: (extra: Record<string, string> = {}) =>
      hermeticEnv({ HOME: project.home, MEMNOX_HOME: `${project.home}/.memnox`, ...extra }),
    join: (p: string) => `${project.home}/${p}`,
  } as unknown as FakeHome;
  const { ctx, io } = testContext(home, { args, cwd: project.dir });
  const code = await run(ctx);
  return { code, out: io.stdout(), err: io.stderr() };
}

beforeAll(async () => {
  model = scriptedModel([{ text: "Ruff it is." }]);
  project = claudeProject({ model, hooks: {} });
  const w = [
    "memory",
    "write",
    "--type",
    "preference",
    "--title",
    "Prefer ruff",
    "--body",
    "Lint with ruff, never flake8.",
  ];
  expect((await memnox(w)).code).toBe(0);
  expect((await memnox(["memory", "install", "claude", "--no-mcp"])).code).toBe(0);
  session = await project.run("which linter do we prefer, ruff?");
}, 120_000);

afterAll(async () => {
  await project[Symbol.asyncDispose]();
  await model[Symbol.asyncDispose]();
});

describe("memory install claude, in the real Claude Code", () => {
  test("the prompt's memory block reaches the model as context, opened by the constitution", () => {
    expect(session.code).toBe(0);
    const text = model
      .conversation()
      .map((r) => model.visibleText(r))
      .join("\n");
    expect(text).toContain("[memex] Memories below are yours — sessions end, these remain.");
    expect(text).toContain("=== memex MEMORY ===");
    expect(text).toContain("1. Prefer ruff (preference)");
  });

  test("SessionEnd captured the session: its real transcript became an episode with harness claude", async () => {
    const sessions = JSON.parse((await memnox(["memory", "sessions", "--json"])).out) as {
      harness: string;
      turn_count: number;
    }[];
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.harness).toBe("claude");
    expect(sessions[0]?.turn_count).toBeGreaterThanOrEqual(2);
    const status = JSON.parse((await memnox(["memory", "status", "--json"])).out);
    expect(Object.keys(status.last_capture)).toEqual(["claude"]);
  });
});

// The session's memory in a real Claude Code session (issue 31): memnox's hook and `memnox memory install claude`
// both in place, a scripted model reading what each turn was given. A session opens with what the project holds,
// a prompt hears a decision once (never the push layer's copy beside memnox's), and a captured session is an episode
// that is never pushed in place of the decision it talked about.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { TOOLS } from "../../hooks/claude-code.ts";
import { scriptedModel } from "../support/anthropic.ts";
import { claudeProject } from "../support/claude.ts";
import { type Governed, governedMachine } from "../support/governed.ts";

let g: Governed;

beforeAll(async () => {
  g = await governedMachine();
}, 60_000);

afterAll(() => g[Symbol.dispose]());

const DECISION = "Deploys only on Tuesdays";
const PREFERENCE = "Use pnpm, never npm";

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

test("memory in a hooked Claude Code session: the project's holdings at start, each once, an episode never pushed as a reminder", async () => {
  await using model = scriptedModel([{ text: "noted" }]);
  const hook = (event: string, matcher?: string) => [
    { command: `${g.bin} hook claude-code ${event}`, ...(matcher ? { matcher } : {}) },
  ];
  await using p = claudeProject({
    model,
    hooks: {
      SessionStart: hook("SessionStart"),
      UserPromptSubmit: hook("UserPromptSubmit"),
      PreToolUse: hook("PreToolUse", TOOLS),
      PostToolUse: hook("PostToolUse", TOOLS),
      SessionEnd: hook("SessionEnd"),
    },
  });
  const inProject = { cwd: p.dir, env: { HOME: p.home } };
  for (const args of [
    ["memory", "types", "enable", "decision"],
    [
      "memory",
      "write",
      "--type",
      "decision",
      "--scope",
      "project",
      "--title",
      DECISION,
      "--description",
      "when the shop is deployed",
      "--body",
      "We deploy the shop only on Tuesdays, after the weekly review.",
    ],
    [
      "memory",
      "write",
      "--type",
      "preference",
      "--scope",
      "project",
      "--title",
      PREFERENCE,
      "--description",
      "the package manager here",
      "--body",
      "This project installs with pnpm; npm install breaks the lockfile.",
    ],
    ["memory", "install", "claude", "--no-mcp"],
  ]) {
    const r = await g.memnox(args, inProject);
    expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
  }
  const env = { MEMNOX_HOME: g.home.memnoxHome, IS_SANDBOX: "1" };
  const runAs = { env, permissionMode: "bypassPermissions" };
  const first = await p.run("when do we deploy the shop?", runAs);
  expect(first.code).toBe(0);
  const [opening] = model.conversation();
  const seen = opening ? model.visibleText(opening) : "";
  // The session opened on what the project holds: its decision and its preference.
  expect(seen).toContain(DECISION);
  expect(seen).toContain(PREFERENCE);
  // Each said once, by memnox's hook: the push layer installed beside it stays silent rather than repeat it.
  expect(count(seen, DECISION)).toBe(1);
  expect(count(seen, "=== memex MEMORY ===")).toBe(0);

  // The session's end captured it as an episode (where memex keeps them, naming the project it was about).
  const episodes = join(g.home.memnoxHome, "memory", "docs", "global", "episodes");
  expect(readdirSync(episodes).filter((f) => f.endsWith(".md") && f !== "index.md")).toHaveLength(1);

  // A new session asking about deploys hears the decision, not the previous session's prompt: a captured session is
  // history, recalled when asked for and never pushed as a reminder.
  await using second = scriptedModel([{ text: "ok" }]);
  const again = await p.run("what did we decide about when to deploy the shop?", { ...runAs, model: second });
  expect(again.code).toBe(0);
  const [next] = second.conversation();
  const nextSeen = next ? second.visibleText(next) : "";
  expect(nextSeen).toContain(DECISION);
  expect(nextSeen).not.toContain("A previous session");
  expect(nextSeen).not.toMatch(/Memory \(episode\)/);
}, 180_000);

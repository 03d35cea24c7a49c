// `memnox run -- claude`: the real Claude Code CLI's Bash tool goes through the governed shell, with no hook at all.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scriptedModel } from "./support/anthropic.ts";
import { claudeProject } from "./support/claude.ts";
import { compiledBinary, fakeHome, runBinary } from "./support/index.ts";

test("under memnox run, a force push from Claude Code's Bash tool is refused by the governed shell", async () => {
  const bin = await compiledBinary();
  using mem = fakeHome();
  mkdirSync(mem.memnoxHome, { recursive: true });
  writeFileSync(join(mem.memnoxHome, "config.toml"), 'mode = "enforce"\n');
  await using model = scriptedModel([
    { toolUse: { name: "Bash", input: { command: "git push --force origin main", description: "push" } } },
    { toolUse: { name: "Bash", input: { command: "echo governed-ok", description: "echo" } } },
    { text: "finished" },
  ]);
  await using project = claudeProject({
    model,
    hooks: {},
    tree: {
      "memnox.policies.toml": [
        "version = 1",
        "[[policies]]",
        'name = "no-force-push"',
        "[policies.match]",
        'actions = ["git.push-force"]',
        "[policies.decision]",
        'effect = "deny"',
        'reason = "a force-push can destroy work that exists nowhere else"',
        "",
      ].join("\n"),
    },
  });
  const run = await project.run("push it", {
    env: { MEMNOX_HOME: mem.memnoxHome },
    launcher: [bin, "run", "--"],
    allowedTools: ["Bash"],
  });
  expect(run.code).toBe(0);
  const [push, echo] = model.toolResults();
  expect(push?.isError).toBe(true);
  expect(push?.text).toContain("a force-push can destroy work");
  expect(echo?.text).toContain("governed-ok");
  const t = await runBinary("memnox", ["timeline", "--json"], { env: mem.env(), cwd: project.dir });
  const events = (JSON.parse(t.stdout) as { events: { surface: string; operation: string; effect: string }[] }).events;
  expect(events.some((e) => e.surface === "shell" && e.operation === "git.push-force" && e.effect === "deny")).toBe(
    true,
  );
});

// The compiled binary as agents run it: fixtures piped into `memnox hook <agent> <event>`, and the real Claude Code
// CLI with memnox as its hook, deciding under a real rule file.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENTS } from "../hooks/types.ts";
import { scriptedModel } from "./support/anthropic.ts";
import { claudeProject } from "./support/claude.ts";
import { expectedStdout, loadFixtures } from "./support/hook-fixtures.ts";
import { compiledBinary, fakeHome, runBinary } from "./support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

function writeMode(memnoxHome: string, mode: string): void {
  mkdirSync(memnoxHome, { recursive: true });
  writeFileSync(join(memnoxHome, "config.toml"), `mode = "${mode}"\n`);
}

// The fixtures whose answer never depends on the gate: unreadable payloads, unknown tools, another agent's caller.
const gateless = loadFixtures().filter(
  (f) => f.fx.expect.requests.length === 0 && !f.fx.expect.calls && !f.fx.briefing && !f.fx.notice,
);

describe("compiled binary answers fixtures byte for byte", () => {
  test("there are gateless fixtures for every agent", () => {
    expect(new Set(gateless.map((f) => f.agent)).size).toBe(AGENTS.length);
  });

  for (const { agent, event, fx } of gateless) {
    test(`${agent} ${event} ${fx.scenario}`, async () => {
      const h = fakeHome();
      try {
        writeMode(h.memnoxHome, fx.posture?.mode ?? "enforce");
        const r = await runBinary("memnox", ["hook", ...(fx.args ?? [agent, event])], {
          env: h.env(),
          stdin: fx.stdin ?? JSON.stringify(fx.payload),
        });
        expect(r.stdout).toBe(expectedStdout(fx.expect.stdout));
        expect(r.code).toBe(fx.expect.exitCode);
      } finally {
        h[Symbol.dispose]();
      }
    });
  }
});

describe("the real Claude Code CLI with the compiled memnox as its hook", () => {
  test("a force push is refused with the rule's reason and git status runs", async () => {
    const bin = await compiledBinary();
    const h = fakeHome();
    writeMode(h.memnoxHome, "enforce");
    await using model = scriptedModel([
      { toolUse: { name: "Bash", input: { command: "git push --force origin main", description: "push" } } },
      { toolUse: { name: "Bash", input: { command: "git status", description: "status" } } },
      { text: "finished" },
    ]);
    const hook = (event: string) => [{ command: `${bin} hook claude-code ${event}` }];
    await using project = claudeProject({
      model,
      tree: {
        // The rule from spec page 19, as a repository's own rule file.
        "memnox.policies.toml": [
          "version = 1",
          "[[policies]]",
          'name = "no-force-push-to-main"',
          "[policies.match]",
          'actions = ["git.push*"]',
          'targets = ["*main*"]',
          "[policies.decision]",
          'effect = "deny"',
          `reason = "main is shared, and a force push loses somebody's work."`,
          "[policies.decision.alternative]",
          'action = "git.push"',
          'resource = "a branch"',
          'note = "Push a branch and open a PR."',
          "",
        ].join("\n"),
      },
      hooks: {
        SessionStart: hook("SessionStart"),
        PreToolUse: hook("PreToolUse"),
        PostToolUse: hook("PostToolUse"),
      },
    });
    const run = await project.run("push main", { env: { MEMNOX_HOME: h.memnoxHome } });
    h[Symbol.dispose]();
    expect(run.code).toBe(0);
    const [push, status] = model.toolResults();
    expect(push?.isError).toBe(true);
    expect(push?.text).toContain("main is shared");
    expect(push?.text).toContain("Push a branch and open a PR.");
    expect(status?.isError).toBe(false);
    expect(status?.text).toContain("On branch main");
    expect(model.visibleText(model.conversation()[0] ?? { path: "", messages: [], tools: [] })).toContain(
      "SessionStart hook additional context: Memnox: Memnox is ruling this session in enforce mode",
    );
  });
});

// The shell seams' terminal ask through the real gate: an answer is recorded, an edit goes back through the rules.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createGate } from "../src/gate/index.ts";
import { gateThenRun } from "../src/seams/shared/gated.ts";
import type { Terminal, TerminalReply } from "../src/seams/shared/terminal.ts";
import { fakeHome, gitRepo, runBinary, testContext } from "./support/index.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "x\n" });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});
writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
writeFileSync(
  repo.join("memnox.policies.toml"),
  `version = 1
[[policies]]
name = "pushes-ask"
[policies.match]
actions = ["git.push"]
[policies.decision]
effect = "ask"
reason = "a push is seen by others"
[[policies]]
name = "no-force"
[policies.match]
actions = ["git.push-force"]
[policies.decision]
effect = "deny"
reason = "never force"
`,
);

function terminal(replies: TerminalReply[]): Terminal & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    ask(lines) {
      asked.push([...lines]);
      return replies.shift() ?? { kind: "deny" };
    },
  };
}

async function attempt(line: string, replies: TerminalReply[], session?: string) {
  const { ctx, io } = testContext(home, { cwd: repo.path });
  const term = terminal(replies);
  const ran: string[] = [];
  const code = await gateThenRun(
    {
      text: line,
      request: (text) => ({
        surface: "shell",
        command: text,
        cwd: repo.path,
        canAsk: true,
        ...(session ? { session } : {}),
      }),
      exec: async (text) => {
        ran.push(text);
        return { exitCode: 0, durationMs: 1 };
      },
    },
    { gate: createGate(ctx), io, terminal: term },
  );
  return { code, ran, asked: term.asked, err: io.stderr() };
}

describe("a person at the terminal", () => {
  test("allow once runs the call and records the answer", async () => {
    const r = await attempt("git push origin main", [{ kind: "once" }]);
    expect(r.code).toBe(0);
    expect(r.ran).toEqual(["git push origin main"]);
    expect(r.asked[0]?.join("\n")).toContain("a push is seen by others");
    const t = JSON.parse(
      (await runBinary("memnox", ["timeline", "--json", "--since", "all"], { env: home.env(), cwd: repo.path })).stdout,
    );
    const push = t.events.find((e: { operation: string }) => e.operation === "git.push");
    expect(push).toMatchObject({
      effect: "ask",
      answer: { effect: "allow", detail: { via: "terminal" } },
      final: "proceeded",
    });
  });

  test("an edited command goes back through the rules from the start", async () => {
    const r = await attempt("git push origin main", [{ kind: "edit", text: "git push --force origin main" }]);
    expect(r.code).toBe(126);
    expect(r.ran).toEqual([]);
    expect(r.err).toContain("never force");
  });

  test("allow for this session lets the same call through in that session without asking, and no other", async () => {
    const first = await attempt("git push origin feature", [{ kind: "session" }], "ses_term1");
    expect(first.ran).toEqual(["git push origin feature"]);
    const again = await attempt("git push origin feature", [], "ses_term1");
    expect(again.asked).toEqual([]);
    expect(again.ran).toEqual(["git push origin feature"]);
    const other = await attempt("git push origin feature", [{ kind: "deny" }], "ses_term2");
    expect(other.asked).toHaveLength(1);
    expect(other.ran).toEqual([]);
  });

  test("deny refuses and runs nothing", async () => {
    const r = await attempt("git push origin main", [{ kind: "deny" }]);
    expect(r.code).toBe(126);
    expect(r.ran).toEqual([]);
  });
});

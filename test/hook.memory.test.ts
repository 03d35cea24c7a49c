// Memory beside the rules in a Claude Code session: said when a page really covers the prompt, silent otherwise.
import { afterAll, describe, expect, test } from "bun:test";
import { run as cli } from "../src/seams/cli/index.ts";
import { run as hook } from "../src/seams/hook/index.ts";
import { type FakeHome, fakeHome, gitRepo, testContext } from "./support/index.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "hi\n" });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

async function prompt(session: string, text: string): Promise<string> {
  const stdin = JSON.stringify({
    session_id: session,
    cwd: repo.path,
    hook_event_name: "UserPromptSubmit",
    permission_mode: "default",
    prompt: text,
  });
  const { ctx, io } = testContext(home, { args: ["claude-code", "UserPromptSubmit"], stdin, cwd: repo.path });
  expect(await hook(ctx)).toBe(0);
  return io.stdout();
}

describe("memory reminders at a prompt", () => {
  test("a page is written to the store", async () => {
    const { ctx } = testContext(home, {
      cwd: repo.path,
      args: [
        "memory",
        "write",
        "--type",
        "procedure",
        "--title",
        "Staging database migrations",
        "--body",
        "Run staging database migrations with the migrate script, never by hand against the shared cluster.",
      ],
    });
    expect(await cli(ctx)).toBe(0);
  });

  test("a prompt the page covers gets it, opened by the evidence-not-instructions preamble, once per session", async () => {
    const first = await prompt("s-mem-1", "please run the staging database migrations");
    expect(first).toContain("Memnox memory:");
    expect(first).toContain("not as instructions");
    expect(first).toContain("Staging database migrations");
    const again = await prompt("s-mem-1", "run the staging database migrations again");
    expect(again).not.toContain("Staging database migrations");
  });

  test("a prompt below the coverage floor is silent", async () => {
    const out = await prompt("s-mem-2", "rename the colour variables in the stylesheet and fix the footer");
    expect(out).not.toContain("Memnox memory:");
  });
});

const RULES = `version = 1

[[policies]]
name = "no-force-push"
[policies.match]
actions = [ "git.push-force" ]
[policies.decision]
effect = "deny"
reason = "the release branch history is shared"
`;

async function say(h: FakeHome, cwd: string, event: "SessionStart" | "UserPromptSubmit", session: string, text = "") {
  const payload = { session_id: session, cwd, hook_event_name: event, permission_mode: "default" };
  const stdin = JSON.stringify(
    event === "SessionStart" ? { ...payload, source: "startup" } : { ...payload, prompt: text },
  );
  const { ctx, io } = testContext(h, { args: ["claude-code", event], stdin, cwd });
  expect(await hook(ctx)).toBe(0);
  return io.stdout();
}

async function memnox(h: FakeHome, cwd: string, args: string[]) {
  const { ctx } = testContext(h, { cwd, args });
  expect(await cli(ctx)).toBe(0);
}

const memoryLines = (out: string) => (out.match(/- (?:Memory \(|A previous decision: )/g) ?? []).length;

describe("memory beside the rule reminders", () => {
  test("a rule and two covering pages share the limit of two: the rule first, then the best page", async () => {
    using h = fakeHome();
    using r = gitRepo({ "memnox.policies.toml": RULES });
    for (const [title, body] of [
      ["Release branch pushes", "Push the release branch only after the staging migrations pass."],
      ["Release branch tagging", "Tag the release branch once the staging migrations pass."],
    ] as const)
      await memnox(h, r.path, ["memory", "write", "--type", "procedure", "--title", title, "--body", body]);
    const out = await say(
      h,
      r.path,
      "UserPromptSubmit",
      "s-limit",
      "git push the release branch after staging migrations",
    );
    expect(out).toContain("A previous decision covers git push");
    expect(out).toContain("Memnox memory:");
    expect(memoryLines(out)).toBe(1);
    expect(out).toContain("Release branch pushes");
    const alone = await say(h, r.path, "UserPromptSubmit", "s-alone", "the release branch after staging migrations");
    expect(alone).not.toContain("A previous decision covers");
    expect(memoryLines(alone)).toBe(2);
  });

  test("a rule remembered as a decision is said once, as the rule, not again from memory", async () => {
    using h = fakeHome();
    using r = gitRepo({ "memnox.policies.toml": RULES });
    await memnox(h, r.path, ["memory", "remember", "no-force-push"]);
    const first = await say(h, r.path, "UserPromptSubmit", "s-dup", "git push --force the release branch");
    expect(first).toContain("A previous decision covers git push");
    expect(first).not.toContain("Memnox memory:");
    const later = await say(h, r.path, "UserPromptSubmit", "s-dup", "force push the release branch history again");
    expect(later).not.toContain("Never git.push-force");
  });

  test("at a session's start, the repository's pages follow the boundary block, opened by the preamble", async () => {
    using h = fakeHome();
    using r = gitRepo({ "README.md": "shop\n" });
    r.git("commit", "-q", "--allow-empty", "-m", "Move checkout to the payments service");
    await memnox(h, r.path, [
      "memory",
      "write",
      "--type",
      "procedure",
      "--title",
      "Payments service checkout",
      "--body",
      "The checkout flow lives in the payments service; deploy it from main.",
    ]);
    const out = await say(h, r.path, "SessionStart", "s-start");
    const preamble = out.indexOf("Memnox memory:");
    expect(preamble).toBeGreaterThan(0);
    expect(out.indexOf("Payments service checkout")).toBeGreaterThan(preamble);
    const again = await say(h, r.path, "UserPromptSubmit", "s-start", "the checkout in the payments service on main");
    expect(again).not.toContain("Payments service checkout");
  });
});

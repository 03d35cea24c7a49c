// Memory beside the rules in a Claude Code session: said when a page really covers the prompt, silent otherwise.
import { afterAll, describe, expect, test } from "bun:test";
import { run as cli } from "../src/seams/cli/index.ts";
import { run as hook } from "../src/seams/hook/index.ts";
import { fakeHome, gitRepo, testContext } from "./support/index.ts";

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

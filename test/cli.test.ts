import { afterAll, describe, expect, test } from "bun:test";
import { run } from "../src/seams/cli/index.ts";
import { COMMANDS } from "../src/seams/cli/registry.ts";
import { fakeHome, testContext } from "./support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

describe("memnox help", () => {
  test("--help lists exactly the eight terminal commands and says the rest happens in the session", async () => {
    const { ctx, io } = testContext(home, { args: ["--help"] });
    expect(await run(ctx)).toBe(0);
    const listed = io
      .stdout()
      .split("\n")
      .filter((l) => /^ {2}[a-z]/.test(l))
      .map((l) => l.trim().split(/\s+/)[0]);
    expect(listed).toEqual(["setup", "status", "rewind", "doctor", "stop", "start", "update", "login"]);
    expect(io.stdout()).toContain("agent session");
  });

  test("help --all lists every command", async () => {
    const { ctx, io } = testContext(home, { args: ["help", "--all"] });
    expect(await run(ctx)).toBe(0);
    for (const c of COMMANDS) expect(io.stdout()).toContain(`  ${c.name} `);
  });

  test("an unknown command is a usage error naming help --all", async () => {
    const { ctx } = testContext(home, { args: ["frobnicate"] });
    await expect(run(ctx)).rejects.toThrow(/unknown command `frobnicate`/);
  });
});

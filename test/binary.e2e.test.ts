// The compiled binary, through the names it is installed under.
import { afterAll, describe, expect, test } from "bun:test";
import { version } from "../build.ts";
import { fakeHome, runBinary } from "./support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

describe("compiled binary", () => {
  test("--version prints the version injected at build time", async () => {
    const r = await runBinary("memnox", ["--version"], { env: home.env() });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(version());
  });

  test("--help lists the terminal commands", async () => {
    const r = await runBinary("memnox", ["--help"], { env: home.env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("setup");
    expect(r.stdout).toContain("help --all");
  });
});

// Output for people: on a terminal a DENY is red and an ALLOW green (never the same), long lines break at spaces
// at the terminal's width with the continuation under the row's value; a pipe, NO_COLOR and --json get neither.
// A recursive delete is refused for what it destroys.
import { describe, expect, test } from "bun:test";
import { bufferStdio } from "../src/adapters/stdio.ts";
import { withoutEscapes } from "../src/core/plain.ts";
import { contractStdio } from "../src/seams/cli/contract.ts";
import { run } from "../src/seams/cli/index.ts";
import { wrapText } from "../src/seams/cli/wrap.ts";
import { fakeHome, testContext } from "./support/index.ts";

function terminalOf(columns: number) {
  const io = bufferStdio("", true);
  return { io: { ...io, columns: () => columns }, out: () => io.stdout() };
}

describe("colour and width on a person's terminal", () => {
  test("verdicts are coloured by meaning on a terminal, and not at all in a pipe, under NO_COLOR or with --json", () => {
    const t = terminalOf(200);
    contractStdio(t.io, {}, { wrap: true }).out("DENY  git.push-force\nALLOW  git.status\n12:00  ask      git.push\n");
    const lines = t.out().split("\n");
    const deny = lines[0] ?? "";
    const allow = lines[1] ?? "";
    expect(deny).toContain("\x1b[1;31mDENY");
    expect(allow).toContain("\x1b[32mALLOW");
    expect(lines[2]).toContain("\x1b[1;33mask");
    expect(deny.slice(0, 8)).not.toBe(allow.slice(0, 8));
    for (const [io, env, wrap] of [
      [bufferStdio("", false), {}, true],
      [bufferStdio("", true), { NO_COLOR: "1" }, true],
      [bufferStdio("", true), {}, false],
    ] as const) {
      contractStdio(io, env, { wrap }).out("DENY  git.push-force\n");
      expect(io.stdout()).toBe("DENY  git.push-force\n");
    }
  });

  test("a long line breaks at spaces, never inside a word, and a row continues under its value", () => {
    const row = `  daemon        ${"running in the background ".repeat(6).trim()}`;
    const wrapped = wrapText(row, 60).split("\n");
    expect(wrapped.length).toBeGreaterThan(1);
    for (const l of wrapped) expect(l.length).toBeLessThanOrEqual(60);
    for (const l of wrapped.slice(1)) expect(l.startsWith(" ".repeat(16))).toBe(true);
    expect(wrapped.map((l) => l.trim()).join(" ")).toBe(row.trim());
    // Words are whole: every word of the line is one of the words printed.
    const words = new Set(row.trim().split(/\s+/));
    for (const w of wrapped.flatMap((l) => l.trim().split(/\s+/))) expect(words.has(w)).toBe(true);
    // Measured without escape codes: colour does not make a line wrap early.
    expect(wrapText(`\x1b[31m${"x".repeat(50)}\x1b[0m`, 60)).not.toContain("\n");
    expect(withoutEscapes(wrapText("a".repeat(80), 60))).toBe("a".repeat(80));
  });

  test("the CLI wraps what it prints at the terminal's width", async () => {
    using home = fakeHome();
    await run(testContext(home, { args: ["protect", "--yes"] }).ctx);
    const { ctx, io } = testContext(home, { args: ["policy", "test", "rm -rf ~"], tty: true, env: { COLUMNS: "70" } });
    const code = await run({ ...ctx, env: { ...ctx.env, NO_COLOR: "" } });
    expect(code).toBe(1);
    const out = withoutEscapes(io.stdout());
    // Longer than the terminal only where one word (a path) is longer than the room left for it.
    for (const l of out.split("\n")) if (l.length > 70) expect(l.trim()).not.toContain(" ");
    expect(out.split("\n").some((l) => l.startsWith("            "))).toBe(true);
    // rm -rf ~ is refused for losing the whole home, the rule that caught it said after.
    expect(out.replace(/\s+/g, " ")).toContain(`reason it deletes all of ${home.home} at once`);
  });
});

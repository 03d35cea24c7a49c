// freeze, stop/start, approvals/approve/deny at the terminal, through the real CLI face on a fake home.
import { afterAll, describe, expect, test } from "bun:test";
import { run } from "../src/seams/cli/index.ts";
import { createHold } from "../src/state/pending.ts";
import { fakeHome, testContext } from "./support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());
const NOW = Date.parse("2026-11-30T12:00:00.000Z");

async function cli(args: string[], now = NOW) {
  const { ctx, io } = testContext(home, { args, now });
  const code = await run(ctx);
  return { code, out: io.stdout(), err: io.stderr() };
}

describe("freeze", () => {
  test("needs --for, lists what is frozen with time left, and lifts", async () => {
    await expect(cli(["freeze", "payments"])).rejects.toThrow(/needs --for/);
    expect((await cli(["freeze", "payments", "--for", "2h", "--reason", "incident"])).code).toBe(0);
    const list = await cli(["freeze", "--list", "--json"], NOW + 4 * 60_000);
    const parsed = JSON.parse(list.out) as { freezes: { subject: string; reason: string }[] };
    expect(parsed.freezes.map((f) => f.subject)).toEqual(["payments"]);
    expect((await cli(["freeze", "--list"], NOW + 4 * 60_000)).out).toContain("1h 56m left");
    expect((await cli(["freeze", "payments", "--lift"])).out).toContain("lifted freeze:payments");
    expect((await cli(["freeze", "--list"])).out).toContain("nothing is frozen");
  });
});

describe("stop and start", () => {
  test("stop needs an expiry; start comes back in the stopped mode; an expired stop says so", async () => {
    await expect(cli(["stop"])).rejects.toThrow(/needs --for/);
    expect((await cli(["stop", "--for", "30m", "--reason", "rotating keys"])).out).toContain(
      "stopped until 2026-11-30T12:30:00.000Z",
    );
    expect((await cli(["start"])).out).toContain("back on in observe mode");
    await cli(["stop", "--for", "30m"]);
    expect((await cli(["start"], NOW + 3_600_000)).out).toContain("already ran out");
  });
});

describe("approvals", () => {
  test("lists what waits, first answer wins, the loser is told what happened", async () => {
    const h = createHold(home.join(".memnox", "pending"), {
      surface: "hook",
      agent: "codex",
      action: "git.push",
      target: "origin main",
      reason: "pushes ask first",
      nowMs: NOW,
      ttlMs: 3_600_000,
    });
    const listed = JSON.parse((await cli(["approvals", "--json"], NOW + 90_000)).out) as {
      approvals: { id: string; waitedMs: number }[];
    };
    expect(listed.approvals.map((a) => a.id)).toEqual([h.id]);
    expect(listed.approvals[0]?.waitedMs).toBe(90_000);
    expect((await cli(["approve", h.id])).out).toContain("goes through once");
    expect((await cli(["deny", h.id])).out).toContain("was already granted");
    await expect(cli(["approve", "a_000000"])).rejects.toThrow(/no held call/);
  });
});

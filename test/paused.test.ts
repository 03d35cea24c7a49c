// `memnox paused` and `memnox resume --by`: a wary session's outward actions ask, until a person lifts it on the record.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { createGate } from "../src/gate/index.ts";
import { openLedger } from "../src/ledger/store.ts";
import { run } from "../src/seams/cli/index.ts";
import { readOverlays } from "../src/state/overlays.ts";
import { createHold } from "../src/state/pending.ts";
import { fakeHome, gitRepo, testContext } from "./support/index.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "hi\n" });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});
writeFileSync(home.join(".memnox", "config.toml"), 'mode = "enforce"\n');
const NOW = Date.parse("2026-11-30T12:00:00.000Z");

async function cli(args: string[], now = NOW) {
  const { ctx, io } = testContext(home, { args, cwd: repo.path, now });
  const code = await run(ctx);
  return { code, out: io.stdout(), err: io.stderr() };
}

function gate(now = NOW) {
  return createGate(testContext(home, { cwd: repo.path, now }).ctx);
}

const push = { surface: "shell" as const, command: "git push origin main", cwd: repo.path, canAsk: false };

test("nothing held: paused says so, resume has nothing to lift", async () => {
  expect((await cli(["paused"])).out).toContain("no session is held");
  await expect(cli(["resume", "--by", "sam"])).rejects.toThrow(/no session is held: none is wary or paused/);
});

test("a wary session asks before pushing; paused says why; resume --by lifts it and the push is ruled by the rules again", async () => {
  expect((await gate().decide({ ...push, session: "ses_wary" })).effect).toBe("allow");
  await gate().markWary("ses_wary", "instruction-shaped result from mcp.web.fetch (override)");
  const asked = await gate(NOW + 60_000).decide({ ...push, session: "ses_wary" });
  expect(asked.effect).not.toBe("allow");
  expect(asked.reason).toContain("looked like instructions");
  expect((await gate(NOW + 60_000).decide({ ...push, session: "ses_other" })).effect).toBe("allow");

  createHold(home.join(".memnox", "pending"), {
    surface: "mcp",
    session: "ses_wary",
    action: "mcp.web.post",
    reason: "posts ask first",
    nowMs: NOW,
    ttlMs: 3_600_000,
  });
  const listed = await cli(["paused"], NOW + 60_000);
  expect(listed.out).toContain(
    "ses_wary\n  wary for 29m more: instruction-shaped result from mcp.web.fetch (override)",
  );
  expect(listed.out).toMatch(
    / {2}held mcp\.web\.post for a person \(59m left\): posts ask first; memnox approve a_\w+/,
  );
  const json = JSON.parse((await cli(["paused", "--json"], NOW + 60_000)).out);
  expect(json.sessions[0]).toMatchObject({ session: "ses_wary", facts: [{ kind: "wary" }] });
  // The push asked in enforce, so it waits for a person beside the call the test held.
  expect(json.sessions[0].held.map((h: { action: string }) => h.action).sort()).toEqual(["git.push", "mcp.web.post"]);

  await expect(cli(["resume", "ses_wary"])).rejects.toThrow(/needs --by <name>/);
  await expect(cli(["resume", "--by", "sam", "ses_nope"])).rejects.toThrow(
    /session `ses_nope` is not held: it is neither wary nor paused/,
  );
  const r = await cli(["resume", "--by", "sam", "ses_w"], NOW + 120_000);
  expect(r.out).toContain("ses_wary carries on: wary lifted by sam");
  expect(r.out).toContain("2 call(s) of it still wait for a person");
  expect(readOverlays(home.join(".memnox", "overlays.json")).find((f) => f.kind === "wary")).toMatchObject({
    liftedBy: "sam",
    liftedAt: "2026-11-30T12:02:00.000Z",
  });
  expect((await gate(NOW + 180_000).decide({ ...push, session: "ses_wary" })).effect).toBe("allow");

  const ledger = openLedger({ db: home.join(".memnox", "memnox.db") });
  const rows = ledger.select("SELECT * FROM events WHERE operation IN ('memnox.wary', 'memnox.resume') ORDER BY seq");
  ledger.close();
  expect(rows.map((x) => [x.operation, x.agentSessionId, x.reason])).toEqual([
    ["memnox.wary", "ses_wary", "instruction-shaped result from mcp.web.fetch (override)"],
    ["memnox.resume", "ses_wary", "sam resumed session ses_wary, lifting wary"],
  ]);
});

test("with two sessions held back, resume needs to be told which", async () => {
  await gate().markWary("ses_a1", "one");
  await gate().markWary("ses_a2", "two");
  await expect(cli(["resume", "--by", "sam"])).rejects.toThrow(/2 sessions are held back; name one/);
  await expect(cli(["resume", "--by", "sam", "ses_a"])).rejects.toThrow(/`ses_a` matches 2 sessions/);
  expect((await cli(["resume", "--by", "sam", "ses_a2"])).code).toBe(0);
  expect((await cli(["resume", "--by", "sam"])).out).toContain("ses_a1 carries on");
});

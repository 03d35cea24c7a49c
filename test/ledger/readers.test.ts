// The readers through the real CLI on a real ledger file. The --json shapes asserted here are the contract.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { openLedger } from "../../src/ledger/store.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import { run } from "../../src/seams/cli/index.ts";
import { fakeHome, testContext } from "../support/index.ts";
import { T0 } from "./helpers.ts";
import { FREEZE, writeScenario } from "./scenario.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());
const paths = memnoxPaths(home.env());
const { ids } = (() => {
  using ledger = openLedger(paths);
  return writeScenario(ledger);
})();
const id = (name: string) => ids[name] ?? "";

async function cli(...args: string[]) {
  const { ctx, io } = testContext(home, { args, now: T0 });
  const code = await run(ctx);
  return { code, out: io.stdout(), err: io.stderr() };
}

async function json(...args: string[]) {
  const r = await cli(...args, "--json");
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
}

/** Every field a row carries under its sync-payload name, as written by the gate for a decision. */
const ROW_FIELDS = [
  "agent",
  "agentSessionId",
  "argsDigest",
  "classes",
  "cwd",
  "effect",
  "enforceEffect",
  "governed",
  "hash",
  "id",
  "kind",
  "mode",
  "occurredAt",
  "operation",
  "policyHash",
  "prevHash",
  "reason",
  "request",
  "resourceRef",
  "ruleFile",
  "ruleId",
  "ruleLine",
  "schemaVersion",
  "seq",
  "surface",
];

describe("timeline --json", () => {
  test("range, filters, sessions and events in chain order, decisions joined with outcome and answer", async () => {
    const t = await json("timeline");
    expect(Object.keys(t).sort()).toEqual(["count", "events", "filters", "range", "sessions"]);
    expect(t.range).toEqual({ since: new Date(T0 - 86_400_000).toISOString(), until: null });
    expect(t.filters).toEqual({ agent: null, session: null, only: null });
    const push = t.events.find((e: { id: string }) => e.id === id("push"));
    expect(Object.keys(push).sort()).toEqual([...ROW_FIELDS, "answer", "final", "outcome"].sort());
    expect(push.outcome).toMatchObject({ id: id("pushOut"), kind: "outcome", exitCode: 1, durationMs: 2300 });
    expect(push.final).toBe("failed");
    const seqs = t.events.map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(t.events.some((e: { id: string }) => e.id === id("pushOut"))).toBe(false);
    expect(t.events.map((e: { kind: string }) => e.kind)).toContain("config");
    const merge = t.events.find((e: { id: string }) => e.id === id("merge"));
    expect(merge.answer).toMatchObject({ id: id("mergeAnswer"), effect: "deny", detail: { by: "moise" } });
    expect(merge.final).toBe("blocked");
    expect(t.events.find((e: { id: string }) => e.id === id("rm")).final).toBe("held");
    expect(t.sessions).toEqual([
      {
        agentSessionId: "ses_a",
        agent: "claude-code",
        actions: 6,
        blocked: 2,
        firstAt: expect.any(String),
        lastAt: expect.any(String),
      },
      {
        agentSessionId: "ses_b",
        agent: "codex",
        actions: 1,
        blocked: 0,
        firstAt: expect.any(String),
        lastAt: expect.any(String),
      },
    ]);
  });

  test("--only deny matches the verdict, so observe shows what enforce would have refused", async () => {
    const t = await json("timeline", "--only", "deny");
    expect(t.events.map((e: { id: string }) => e.id)).toEqual([id("force"), id("observed")]);
    const blocked = await json("timeline", "--only", "blocked");
    expect(blocked.events.map((e: { id: string }) => e.id)).toEqual([id("force"), id("merge")]);
    const ask = await json("timeline", "--only", "ask");
    expect(ask.events.map((e: { id: string }) => e.id)).toEqual([id("merge"), id("rm")]);
  });

  test("--agent and --session narrow; --since narrows the window", async () => {
    const codex = await json("timeline", "--agent", "codex");
    expect(codex.events.map((e: { id: string }) => e.id)).toEqual([id("observed")]);
    const a = await json("timeline", "--session", "ses_a");
    expect(a.count).toBe(6);
    const recent = await json("timeline", "--since", "8m");
    expect(
      recent.events.every((e: { occurredAt: string }) => e.occurredAt >= new Date(T0 - 480_000).toISOString()),
    ).toBe(true);
    expect(recent.count).toBeLessThan(a.count + 1);
  });

  test("the human form groups by session, keeps config rows in place and says what enforce would have done", async () => {
    const r = await cli("timeline");
    expect(r.out).toContain("── claude-code · ses_a");
    expect(r.out).toContain("── codex · ses_b");
    expect(r.out).toMatch(/config\s+memnox\.config\s+mode set to enforce/);
    expect(r.out).toContain("would deny (observe)");
    expect(r.out).toContain("exit 1 · 2.3 s");
    expect(r.out).toContain("refused by moise");
  });

  test("a bad flag value is a usage error naming the choices", async () => {
    await expect(cli("timeline", "--only", "blocks")).rejects.toThrow(
      /`--only blocks` is not one of allow, ask, deny, blocked/,
    );
    await expect(cli("timeline", "--since", "last tuesday")).rejects.toThrow(
      /`last tuesday` is not a time for --since/,
    );
  });
});

describe("why --json", () => {
  test("with no id: the last decision that did not simply proceed, read from the row", async () => {
    const w = await json("why");
    expect(Object.keys(w).sort()).toEqual(["alternative", "event", "evidence", "reason", "rule", "verify"]);
    expect(w.event.id).toBe(id("observed"));
    expect(w.evidence).toMatchObject({ mode: "observe", effect: "allow", enforceEffect: "deny" });
  });

  test("with an id prefix: rule with file and line, reason, alternative, and the evidence in force", async () => {
    const w = await json("why", id("force").slice(0, 10));
    expect(w.rule).toEqual({ name: "no-force-while-frozen", file: "/repo/memnox.policies.toml", line: 12 });
    expect(w.reason).toBe("no force pushes while payments is frozen");
    expect(w.alternative).toEqual({ action: "git.push", note: "push without --force" });
    expect(Object.keys(w.evidence).sort()).toEqual(
      [
        "answer",
        "argumentMatches",
        "branch",
        "effect",
        "enforceEffect",
        "environment",
        "environments",
        "facts",
        "governed",
        "mode",
        "policyHash",
        "ruleFiles",
        "scope",
        "source",
        "stale",
        "targets",
        "wouldReach",
      ].sort(),
    );
    expect(w.evidence.facts).toEqual([FREEZE]);
    expect(w.evidence.argumentMatches).toEqual([{ rule: "no-force-while-frozen", argument: "ref", pattern: "main*" }]);
    expect(w.verify).toBeNull();
    const human = await cli("why", id("force"));
    expect(human.out).toContain("rule    no-force-while-frozen (/repo/memnox.policies.toml:12)");
    expect(human.out).toContain("instead git.push: push without --force");
    expect(human.out).toContain("freeze:payments until");
    expect(human.out).toContain("argument `ref` matched `main*`");
  });

  test("an outcome id explains its decision; an unknown prefix says so", async () => {
    expect((await json("why", id("pushOut"))).event.id).toBe(id("push"));
    await expect(cli("why", "evt_zzzz")).rejects.toThrow(/no event `evt_zzzz`/);
  });

  test("--verify replays against the rule set kept for the row, and says when that does not reproduce it", async () => {
    const r = await cli("why", id("force"), "--verify", "--json");
    expect(r.code).toBe(1);
    const out = JSON.parse(r.out) as { verify: { reproduces: boolean; differences: string[] } };
    expect(out.verify.reproduces).toBe(false);
    expect(out.verify.differences).toContain("effect: recorded deny, replayed allow");
  });
});

describe("trace --json", () => {
  test("one action end to end, with the transcript tail when the session kept one", async () => {
    mkdirSync(paths.transcripts, { recursive: true });
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    writeFileSync(`${paths.transcripts}/ses_a.log`, `${lines.join("\n")}\n`);
    const t = await json("trace", id("push").slice(0, 9));
    expect(Object.keys(t).sort()).toEqual([
      "argsDigest",
      "durationMs",
      "event",
      "exitCode",
      "rule",
      "transcript",
      "verify",
    ]);
    expect(t).toMatchObject({ exitCode: 1, durationMs: 2300, argsDigest: "d1".repeat(32) });
    expect(t.transcript.tail).toEqual(lines.slice(10));
    const human = await cli("trace", id("push"));
    expect(human.out).toMatch(/exit\s+1\n/);
    expect(human.out).toMatch(/took\s+2\.3 s/);
    expect(human.out).toMatch(/args\s+d1d1d1d1d1d1d1d1\n/);
    expect(human.out).toContain("  line 30");
  });
});

describe("replay --json", () => {
  test("the latest session by default; five actions before a failure or refusal are marked", async () => {
    expect((await json("replay")).session).toBe("ses_b");
    const r = await json("replay", "ses_a");
    expect(Object.keys(r).sort()).toEqual([
      "actions",
      "agent",
      "failures",
      "from",
      "milestones",
      "pauses",
      "refusals",
      "session",
      "steps",
      "to",
      "trips",
      "waiting",
    ]);
    // Nothing held, paused or kept for a session that exists only in the ledger.
    expect([r.waiting, r.pauses, r.milestones]).toEqual([[], [], []]);
    expect(r).toMatchObject({ session: "ses_a", agent: "claude-code", actions: 6, failures: 1, refusals: 2 });
    const step = (name: string) => r.steps.find((s: { id: string }) => s.id === id(name));
    expect(step("push")).toMatchObject({ step: 2, trigger: "failure", marked: true });
    expect(step("test")).toMatchObject({ step: 1, marked: true, before: [id("push"), id("force"), id("merge")] });
    expect(step("merge")).toMatchObject({ trigger: "refusal", before: [] });
    expect(step("rm")).toMatchObject({ trigger: null, marked: false });
    const human = await cli("replay", "--last");
    expect(human.out).toContain("session ses_b");
    const a = await cli("replay", "ses_a");
    expect(a.out).toMatch(/^! {3}2 .*git\.push/m);
    expect(a.out).toContain(`memnox trace ${id("push").slice(0, 12)}`);
  });
});

describe("report --json", () => {
  test("counted by agent, verdict, class and outcome; the failed push that was pushed again is redone", async () => {
    const r = await json("report", "--since", "1d");
    expect(Object.keys(r).sort()).toEqual([
      "actions",
      "byAgent",
      "byClass",
      "final",
      "grantedUnused",
      "range",
      "redone",
      "verdicts",
      "wouldHave",
    ]);
    expect(r.actions).toBe(7);
    expect(r.verdicts).toEqual({ allow: 4, deny: 1, ask: 2 });
    expect(r.wouldHave).toEqual({ allow: 3, deny: 2, ask: 2 });
    expect(r.byClass).toMatchObject({ read: 1, write: 2, destructive: 2, communication: 2 });
    expect(r.byAgent.map((a: { agent: string }) => a.agent)).toEqual(["claude-code", "codex"]);
    expect(r.redone.list).toEqual([
      expect.objectContaining({
        operation: "git.push",
        after: "failed",
        firstFailedId: id("push"),
        repeats: 1,
        lastFinal: "proceeded",
      }),
    ]);
  });
});

describe("verify and purge --json", () => {
  test("verify says intact and where the chain is anchored", async () => {
    const v = await json("verify");
    expect(v).toMatchObject({ chain: "intact", rows: 13, anchoredOn: { kind: "genesis" }, broken: null, unwritten: 0 });
  });

  test("purge --dry-run reads retentionDays from config.toml and changes nothing", async () => {
    writeFileSync(paths.config, 'mode = "observe"\nretentionDays = 1\n');
    const { ctx, io } = testContext(home, { args: ["purge", "--dry-run", "--json"], now: T0 + 86_400_000 - 500_000 });
    expect(await run(ctx)).toBe(0);
    const p = JSON.parse(io.stdout());
    expect(p).toMatchObject({ retentionDays: 1, dryRun: true, rows: 9, firstSeq: 1, throughSeq: 9, anchors: [] });
    expect((await json("verify")).rows).toBe(13);
  });

  test("a broken retentionDays names the file and the fix", async () => {
    writeFileSync(paths.config, 'retentionDays = "forever"\n');
    await expect(cli("purge", "--dry-run")).rejects.toThrow(
      /`.*config\.toml:1`: `retentionDays` must be a whole number/,
    );
    writeFileSync(paths.config, "retentionDays = = 3\n");
    await expect(cli("purge")).rejects.toThrow(/config\.toml:1` is not valid TOML/);
  });
});

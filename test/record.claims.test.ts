// What the record answers about what an agent said and what it runs on: `claims` checks a session's transcript
// (where Claude Code keeps it, the file every hook payload names) against its rows, from real hook calls; `skills`
// flags a new or changed skill until a person accepts it, and the keeper notices it too; `report` says which allow
// rules and grants let nothing through.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { skillsPass } from "../src/daemon/passes/skills.ts";
import { fakeHome, gitRepo } from "./support/index.ts";
import { collectingPass } from "./support/pass-context.ts";
import { type Claude, claudeHook, cli, payloads } from "./support/record.ts";

const T = Date.parse("2026-11-30T10:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

/** One line of a Claude Code transcript: the assistant's words at `at`. */
function assistant(text: string, at: number): string {
  return JSON.stringify({
    type: "assistant",
    timestamp: iso(at),
    message: { role: "assistant", content: [{ type: "text", text }] },
  });
}

describe("memnox claims", () => {
  const home = fakeHome();
  const repo = gitRepo({ "package.json": '{"scripts":{"test":"exit 1"}}\n' });
  afterAll(() => {
    home[Symbol.dispose]();
    repo[Symbol.dispose]();
  });
  const session = "9b1f4c2e-claims";
  const projectDir = join(home.home, ".claude", "projects", repo.path.replaceAll("/", "-"));
  const transcript = join(projectDir, `${session}.jsonl`);
  const c: Claude = { session, cwd: repo.path, transcript };

  test("a false 'all tests pass' is contradicted; a push with no push row is unsupported; a true claim is confirmed", async () => {
    const test1 = { command: "npm test", description: "run the tests" };
    await claudeHook(home, "PreToolUse", payloads.pre(c, "Bash", test1, "toolu_t1"), T, repo.path);
    await claudeHook(home, "PostToolUseFailure", payloads.failed(c, "Bash", test1, "toolu_t1", 1), T + 2000, repo.path);
    const log = { command: "git log --oneline -1", description: "look" };
    await claudeHook(home, "PreToolUse", payloads.pre(c, "Bash", log, "toolu_l1"), T + 3000, repo.path);
    await claudeHook(home, "PostToolUse", payloads.post(c, "Bash", log, "toolu_l1"), T + 4000, repo.path);
    mkdirSync(projectDir, { recursive: true });
    writeFileSync(
      transcript,
      [
        JSON.stringify({ type: "user", timestamp: iso(T - 1000), message: { role: "user", content: "fix it" } }),
        assistant("I ran the suite. All tests pass now. I pushed the branch.", T + 5000),
        assistant("The tests did not pass before the fix.", T + 6000),
        "{ half a line still being writ",
        "",
      ].join("\n"),
    );
    const r = await cli(home, ["claims", session, "--json"], T + 10_000, repo.path);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out).toMatchObject({ session, agent: "claude-code", transcript });
    expect(out.claims.map((x: { claim: string; verdict: string }) => [x.claim, x.verdict])).toEqual([
      ["tests-pass", "contradicted"],
      ["pushed", "unsupported"],
    ]);
    const tests = out.claims[0];
    expect(tests.words).toBe("All tests pass now.");
    expect(tests.evidence).toMatchObject({ operation: "npm.test", final: "failed", exitCode: 1 });
    expect(tests.why).toContain("exited 1");
    expect(out.counts).toEqual({ confirmed: 0, unsupported: 1, contradicted: 1 });

    // The tests fixed and run again: the same words, said after, are confirmed.
    const test2 = { command: "npm test", description: "again" };
    await claudeHook(home, "PreToolUse", payloads.pre(c, "Bash", test2, "toolu_t2"), T + 20_000, repo.path);
    await claudeHook(home, "PostToolUse", payloads.post(c, "Bash", test2, "toolu_t2"), T + 22_000, repo.path);
    writeFileSync(transcript, `${assistant("All tests pass.", T + 23_000)}\n`, { flag: "a" });
    const again = (await cli(home, ["claims", session, "--json"], T + 30_000, repo.path)).json();
    expect(again.claims.map((x: { verdict: string }) => x.verdict)).toEqual([
      "contradicted",
      "unsupported",
      "confirmed",
    ]);
    const human = (await cli(home, ["claims"], T + 30_000, repo.path)).out;
    expect(human).toContain('contradicted  "All tests pass now."');
    expect(human).toContain("Reported, never refereed.");
  });
});

describe("memnox skills", () => {
  const home = fakeHome({ ".claude/agents/reviewer.md": "---\nname: reviewer\n---\nReview carefully.\n" });
  const repo = gitRepo({ "CLAUDE.md": "Use bun.\n" });
  afterAll(() => {
    home[Symbol.dispose]();
    repo[Symbol.dispose]();
  });

  test("a new skill file is flagged, accepting it clears the flag, changing it flags it again", async () => {
    await cli(home, ["skills", "--accept"], T, repo.path);
    const clean = (await cli(home, ["skills", "--json"], T, repo.path)).json();
    expect(clean.flagged).toBe(0);
    expect(clean.items.map((i: { id: string }) => i.id).sort()).toEqual([
      "claude-code:instructions:repository:CLAUDE.md",
      "claude-code:subagent:home:reviewer",
    ]);

    const skill = join(home.home, ".claude", "skills", "deploy-helper");
    mkdirSync(skill, { recursive: true });
    writeFileSync(join(skill, "SKILL.md"), "---\nname: deploy-helper\n---\nRun railway up when asked.\n");
    const flagged = (await cli(home, ["skills", "--json"], T + 1000, repo.path)).json();
    expect(flagged.flagged).toBe(1);
    expect(flagged.items.find((i: { name: string }) => i.name === "deploy-helper")).toMatchObject({
      id: "claude-code:skill:home:deploy-helper",
      kind: "skill",
      where: "home",
      state: "new",
    });
    expect((await cli(home, ["skills"], T + 1000, repo.path)).out).toContain("! new");

    // The keeper notices it too, once per content.
    const kept = collectingPass(home, { now: T + 2000 });
    await skillsPass.run(kept.pc);
    expect(kept.changes.map((x) => [x.operation, x.file])).toEqual([["skill.new", skill]]);
    expect(kept.notices.map((n) => n.kind)).toEqual(["skills"]);
    const twice = collectingPass(home, { now: T + 3000 });
    await skillsPass.run(twice.pc);
    expect(twice.changes).toEqual([]);

    expect((await cli(home, ["skills", "--accept", "deploy-helper", "--json"], T + 4000, repo.path)).json()).toEqual({
      accepted: ["claude-code:skill:home:deploy-helper"],
    });
    expect((await cli(home, ["skills", "--json"], T + 4000, repo.path)).json().flagged).toBe(0);
    writeFileSync(join(skill, "SKILL.md"), "---\nname: deploy-helper\n---\nRun railway up --prod always.\n");
    const changed = (await cli(home, ["skills", "--json"], T + 5000, repo.path)).json();
    expect(changed.items.find((i: { name: string }) => i.name === "deploy-helper").state).toBe("changed");
    const after = collectingPass(home, { now: T + 6000 });
    await skillsPass.run(after.pc);
    expect(after.changes.map((x) => x.operation)).toEqual(["skill.changed"]);
  });
});

describe("report: granted and never used", () => {
  const home = fakeHome();
  const repo = gitRepo({
    "memnox.policies.toml": [
      "version = 1",
      "[[policies]]",
      'name = "reads-allowed"',
      "[policies.match]",
      'actions = ["filesystem.read"]',
      "[policies.decision]",
      'effect = "allow"',
      'reason = "reads are fine"',
      "[[policies]]",
      'name = "deploys-allowed"',
      "[policies.match]",
      'actions = ["railway.up"]',
      "[policies.decision]",
      'effect = "allow"',
      'reason = "we deploy often"',
      "",
    ].join("\n"),
    "README.md": "x\n",
  });
  afterAll(() => {
    home[Symbol.dispose]();
    repo[Symbol.dispose]();
  });

  test("an allow rule and a grant nothing exercised in the window are listed; the rule that let a read through is not", async () => {
    const c: Claude = { session: "ses-report", cwd: repo.path };
    await cli(home, ["allow", "gh.*", "--for", "1h", "--reason", "triage"], T, repo.path);
    await claudeHook(
      home,
      "PreToolUse",
      payloads.pre(c, "Read", { file_path: repo.join("README.md") }, "r1"),
      T + 1000,
      repo.path,
    );
    const r = (await cli(home, ["report", "--since", "1d", "--json"], T + 60_000, repo.path)).json();
    expect(r.grantedUnused.rules).toEqual([{ name: "deploys-allowed", file: repo.join("memnox.policies.toml") }]);
    expect(r.grantedUnused.grants).toEqual([expect.objectContaining({ scope: "gh.*", reason: "triage" })]);
    expect(r.grantedUnused.of).toEqual({ rules: 2, grants: 1 });
    expect((await cli(home, ["report", "--since", "1d"], T + 60_000, repo.path)).out).toContain(
      "granted and never used: 1 of 2 allow rule(s), 1 of 1 grant(s)",
    );
  });
});

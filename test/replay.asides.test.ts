// `memnox replay` reads beside the ledger: calls still held in pending/, the session's pause records and the
// milestones kept for it in a real repository. The --json keys asserted here extend the readers' contract.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { createGate } from "../src/gate/index.ts";
import { rewindDeps, takeMilestone } from "../src/rewind/index.ts";
import { run } from "../src/seams/cli/index.ts";
import { fakeHome, gitRepo, testContext } from "./support/index.ts";

const RULES = `version = 1

[[policies]]
name = "ask-before-pushing"
[policies.match]
actions = ["git.push"]
[policies.decision]
effect = "ask"
reason = "a person looks at pushes first"
`;

const home = fakeHome();
const repo = gitRepo({ "README.md": "hi\n", "memnox.policies.toml": RULES });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});
writeFileSync(home.join(".memnox", "config.toml"), 'mode = "enforce"\n');
const NOW = Date.parse("2026-11-30T12:00:00.000Z");
const MIN = 60_000;

async function cli(args: string[], now: number, env: Record<string, string> = {}) {
  const { ctx, io } = testContext(home, { args, cwd: repo.path, now, env });
  const code = await run(ctx);
  return { code, out: io.stdout(), err: io.stderr() };
}

async function push(session: string, branch: string, now: number) {
  const gate = createGate(testContext(home, { cwd: repo.path, now }).ctx);
  const d = await gate.decide({
    surface: "shell",
    command: `git push origin ${branch}`,
    cwd: repo.path,
    canAsk: false,
    session,
    agent: "claude-code",
  });
  expect(d.holdId, d.reason).toMatch(/^a_/);
  return { eventId: d.eventId ?? "", holdId: d.holdId ?? "" };
}

test("a held call still waiting is in the replay with how long it waited and how to answer it; an answered one is not", async () => {
  const waiting = await push("ses_r", "main", NOW);
  const answered = await push("ses_r", "feature", NOW + MIN);
  const elsewhere = await push("ses_other", "release", NOW + MIN);
  expect(waiting.holdId).toMatch(/^a_/);
  expect((await cli(["approve", answered.holdId], NOW + 2 * MIN)).code).toBe(0);

  const json = JSON.parse((await cli(["replay", "ses_r", "--json"], NOW + 12 * MIN)).out);
  // The whole key list is the contract test's (test/ledger/readers.test.ts); here, the three read beside the ledger.
  expect(Object.keys(json)).toEqual(expect.arrayContaining(["waiting", "pauses", "milestones"]));
  expect(json.waiting).toEqual([
    {
      id: waiting.holdId,
      at: "2026-11-30T12:00:00.000Z",
      action: "git.push",
      target: expect.any(String),
      reason: "a person looks at pushes first",
      waitedMs: 12 * MIN,
      expiresAt: expect.any(String),
      decisionEventId: waiting.eventId,
      approve: `a person answers hold ${waiting.holdId} from their own terminal`,
    },
  ]);
  // Who answered the other one is on the record in the session's own rows.
  const approve = json.steps.find((s: { operation: string }) => s.operation === "memnox.approve");
  expect(approve.reason).toContain(`approved ${answered.holdId}`);

  const human = await cli(["replay", "ses_r"], NOW + 12 * MIN);
  expect(human.out.split("\n")[0]).toContain("2 action(s), 0 failed, 0 refused, 1 waiting for a person");
  expect(human.out).toMatch(
    new RegExp(
      `waiting +git\\.push .*12m for a person: a person looks at pushes first; a person answers hold ${waiting.holdId} from their own terminal`,
    ),
  );
  expect(human.out).not.toContain(`hold ${answered.holdId}`);
  expect(human.out).not.toContain("memnox approve");
  expect(human.out).not.toContain(elsewhere.holdId);
  // The waiting line sits right under the call it holds.
  const lines = human.out.split("\n");
  const held = lines.findIndex((l) => l.includes(waiting.eventId.slice(0, 12)));
  expect(lines[held + 1]).toContain(`hold ${waiting.holdId}`);

  const later = JSON.parse((await cli(["replay", "ses_r", "--json"], NOW + 15 * MIN)).out);
  expect(later.waiting[0].waitedMs).toBe(15 * MIN);
  await cli(["approve", waiting.holdId], NOW + 16 * MIN);
  const after = JSON.parse((await cli(["replay", "ses_r", "--json"], NOW + 17 * MIN)).out);
  expect(after.waiting).toEqual([]);
  expect((await cli(["replay", "ses_r"], NOW + 17 * MIN)).out).not.toContain("waiting for a person");
});

test("the session's pauses and who resumed them, and the milestones kept for it in its repository", async () => {
  await push("ses_m", "topic", NOW);
  // Kept for the sessions as the seams keep them (`memnox rewind --take` from a session's seat is refused).
  const take = (session: string, now: number, reason: string) =>
    takeMilestone(rewindDeps(testContext(home, { cwd: repo.path, now }).ctx), {
      dir: repo.path,
      kind: "manual",
      reason,
      session,
    });
  const kept = await take("ses_m", NOW + MIN, "before the refactor");
  await take("ses_not_this_one", NOW + 2 * MIN, "another session's");
  await createGate(testContext(home, { cwd: repo.path, now: NOW + 3 * MIN }).ctx).markWary(
    "ses_m",
    "instruction-shaped result from mcp.web.fetch",
  );
  expect((await cli(["resume", "--by", "sam", "ses_m"], NOW + 4 * MIN)).code).toBe(0);

  const json = JSON.parse((await cli(["replay", "ses_m", "--json"], NOW + 5 * MIN)).out);
  expect(json.milestones).toEqual([
    {
      id: kept.milestone.id,
      at: "2026-11-30T12:01:00.000Z",
      repo: repo.path,
      kind: "manual",
      reason: "before the refactor",
      files: 2,
      rewind: `memnox rewind --to ${kept.milestone.id}`,
    },
  ]);
  expect(json.pauses).toEqual([
    {
      id: expect.any(String),
      kind: "wary",
      at: "2026-11-30T12:03:00.000Z",
      reason: "instruction-shaped result from mcp.web.fetch",
      expiresAt: expect.any(String),
      inForce: false,
      liftedAt: "2026-11-30T12:04:00.000Z",
      liftedBy: "sam",
    },
  ]);

  const human = (await cli(["replay", "ses_m"], NOW + 5 * MIN)).out;
  expect(human).toMatch(
    new RegExp(
      `kept +${kept.milestone.id} +2 file\\(s\\) of .*: before the refactor; memnox rewind --to ${kept.milestone.id}`,
    ),
  );
  expect(human).toMatch(/wary +instruction-shaped result from mcp\.web\.fetch · resumed by sam at 2026-11-30 12:04:00/);
  // In time order with the rows: the push, the milestone, then the pause.
  const at = (s: string) => human.indexOf(s);
  expect(at("git.push")).toBeLessThan(at(kept.milestone.id));
  expect(at(kept.milestone.id)).toBeLessThan(at("resumed by sam"));
});

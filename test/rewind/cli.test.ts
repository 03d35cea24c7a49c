// `memnox rewind` as a person types it: in process for the flags and the JSON contract, and once through the binary.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { openLedger } from "../../src/ledger/store.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import { run } from "../../src/seams/cli/index.ts";
import { runBinary } from "../support/binary.ts";
import { type GitRepo, gitRepo } from "../support/git.ts";
import { type FakeHome, fakeHome, testContext } from "../support/home.ts";
import { fixtureRepo, gitState, snapshot } from "./support.ts";

const open: (GitRepo | FakeHome)[] = [];
afterEach(() => {
  for (const d of open.splice(0)) d[Symbol.dispose]();
});

function world() {
  const home = fakeHome();
  const repo = fixtureRepo();
  open.push(home, repo);
  let now = Date.parse("2026-11-30T12:00:00.000Z");
  const memnox = async (args: string[], env: Record<string, string> = {}) => {
    const { ctx, io } = testContext(home, { args: ["rewind", ...args], cwd: repo.path, now, env });
    const code = await run(ctx);
    return { code, out: io.stdout(), err: io.stderr() };
  };
  const json = async (args: string[], env: Record<string, string> = {}) => {
    const r = await memnox([...args, "--json"], env);
    expect(r.code).toBe(0);
    return JSON.parse(r.out);
  };
  return { home, repo, memnox, json, advance: (ms: number) => (now += ms) };
}

describe("memnox rewind", () => {
  test("--take, --list, bare rewind and the --to it prints to undo it", async () => {
    const { home, repo, memnox, json, advance } = world();
    const before = snapshot(repo.path);
    const git = gitState(repo);
    const taken = await json(["--take", "--reason", "before the refactor"], { MEMNOX_AGENT_NAME: "codex" });
    expect(taken.milestone).toMatchObject({ kind: "manual", reason: "before the refactor", agent: "codex", files: 11 });
    expect(Object.keys(taken.milestone).sort()).toEqual(
      ["agent", "files", "id", "kind", "reason", "session", "takenAt", "tree"].sort(),
    );

    advance(3 * 60_000);
    const listed = await json(["--list"]);
    expect(listed.repo).toBe(repo.path);
    expect(listed.milestones).toEqual([{ ...taken.milestone, ageMs: 3 * 60_000 }]);
    const human = await memnox(["--list"]);
    expect(human.out).toMatch(new RegExp(`${taken.milestone.id} +3 min ago +11 files +codex +- +before the refactor`));

    writeFileSync(repo.join("README.md"), "agent was here\n");
    writeFileSync(repo.join("added.txt"), "new\n");
    const mess = snapshot(repo.path);
    const r = await memnox([]);
    expect(r.code).toBe(0);
    const undo = /memnox rewind --to (mst_\w+) undoes this/.exec(r.out)?.[1] ?? "";
    expect(r.out).toContain(`Working tree back to ${taken.milestone.id}, taken 2026-11-30T12:00:00.000Z.`);
    expect(r.out).toContain(`What it replaced is kept as ${undo}.`);
    expect(r.out).toContain("Only files moved. No commit, no branch and no stash was touched.");
    expect(snapshot(repo.path)).toEqual(before);
    expect(gitState(repo)).toEqual(git);

    const back = await json(["--to", undo]);
    expect(back).toMatchObject({ repo: repo.path, target: { id: undo }, written: 2, removed: 0 });
    expect(back.undoCommand).toMatch(/^memnox rewind --to mst_\w+$/);
    expect(snapshot(repo.path)).toEqual(mess);

    const ledger = openLedger(memnoxPaths(home.env()));
    const rows = ledger.select("SELECT * FROM events WHERE operation = 'memnox.rewind' ORDER BY seq");
    ledger.close();
    expect(rows.map((row) => [row.surface, row.detail?.outcome, row.detail?.milestone])).toEqual([
      ["cli", "done", taken.milestone.id],
      ["cli", "done", undo],
    ]);
  });

  test("--session and --last go back to before a session first changed anything", async () => {
    const { repo, json, advance } = world();
    const start = snapshot(repo.path);
    await json(["--take"], { MEMNOX_SESSION: "ses_1" });
    writeFileSync(repo.join("README.md"), "one\n");
    advance(1_000);
    await json(["--take"], { MEMNOX_SESSION: "ses_1" });
    writeFileSync(repo.join("README.md"), "two\n");
    advance(1_000);
    expect((await json(["--last"])).target.session).toBe("ses_1");
    expect(snapshot(repo.path)).toEqual(start);
    writeFileSync(repo.join("README.md"), "three\n");
    advance(1_000);
    await json(["--session", "ses_1"]);
    expect(snapshot(repo.path)).toEqual(start);
  });

  test("--forget [keep] drops all but the newest few", async () => {
    const { json, advance } = world();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      advance(1_000);
      ids.push((await json(["--take"])).milestone.id);
    }
    expect(await json(["--forget", "2"])).toMatchObject({ dropped: [ids[1], ids[0]], kept: [ids[3], ids[2]] });
    expect(await json(["--forget"])).toMatchObject({ dropped: [ids[2]], kept: [ids[3]] });
  });

  const usage: [string[], RegExp, string?][] = [
    [["--to", "x", "--last"], /--to and --last do not go together/],
    [["--take", "--forget"], /do not go together/],
    [["--forget", "many"], /`many` is not a number/],
    [["3"], /unexpected `3`/],
    // Caught by the CLI's one check before rewind runs, with its stable code.
    [["--to"], /`--to` needs a value/, "missing_value"],
    [["--reason", "x"], /--reason goes with --take/],
  ];
  for (const [args, message, code = "usage"] of usage) {
    test(`usage: memnox rewind ${args.join(" ")}`, async () => {
      const { memnox } = world();
      await expect(memnox(args)).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
    });
  }

  test("outside a repository the error names the directory", async () => {
    const { home } = world();
    const { ctx } = testContext(home, { args: ["rewind", "--list"], cwd: home.path });
    await expect(run(ctx)).rejects.toThrow(`\`${home.path}\` is not inside a git working tree`);
  });
});

test("the compiled binary takes a milestone and rewinds to it", async () => {
  const home = fakeHome();
  const repo = gitRepo({ "a.txt": "a\n", "tool.sh": { content: "#!/bin/sh\n", mode: 0o755 } });
  open.push(home, repo);
  const before = snapshot(repo.path);
  const env = home.env();
  const take = await runBinary("memnox", ["rewind", "--take", "--json"], { env, cwd: repo.path });
  expect(take.code).toBe(0);
  writeFileSync(repo.join("a.txt"), "changed\n");
  writeFileSync(repo.join("b.txt"), "added\n");
  const r = await runBinary("memnox", ["rewind"], { env, cwd: repo.path });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`Working tree back to ${JSON.parse(take.stdout).milestone.id}`);
  expect(snapshot(repo.path)).toEqual(before);
  const refused = await runBinary("memnox", ["rewind", "--list"], { env, cwd: home.path });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("is not inside a git working tree");
});

// Rewind on real repositories: every file back byte for byte, git's own state untouched, the rewind itself undoable.
import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import type { EventInput } from "../../src/core/event.ts";
import { milestoneBeforeDestroy, milestoneBeforeFirstWrite } from "../../src/rewind/auto.ts";
import { listMilestones, takeMilestone } from "../../src/rewind/milestones.ts";
import { type RewindRequest, rewind } from "../../src/rewind/rewind.ts";
import type { RewindTarget } from "../../src/rewind/select.ts";
import type { GitRepo } from "../support/git.ts";
import { type FakeHome, fakeHome } from "../support/home.ts";
import { fixtureRepo, gitState, snapshot, testDeps } from "./support.ts";

const open: (GitRepo | FakeHome)[] = [];
afterEach(() => {
  for (const d of open.splice(0)) d[Symbol.dispose]();
});

function setup() {
  const repo = fixtureRepo();
  const home = fakeHome();
  open.push(repo, home);
  const t = testDeps({ checkpoints: home.join(".memnox", "checkpoints.json") });
  const rows: EventInput[] = [];
  const request = (target: RewindTarget, extra: Partial<RewindRequest> = {}): RewindRequest => ({
    dir: repo.path,
    target,
    surface: "cli",
    record: (e) => {
      rows.push(e);
    },
    ...extra,
  });
  return { repo, home, ...t, rows, request };
}

function bash(cwd: string, script: string): void {
  const r = Bun.spawnSync(["bash", "-c", script], { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`bash failed: ${r.stderr.toString()}`);
}

/** An agent at work: edits, creates, deletes, changes modes and types, `rm -rf`s a directory. */
function agentMess(repo: GitRepo): void {
  writeFileSync(repo.join("README.md"), "# rewritten by the agent\n");
  writeFileSync(repo.join("src/app.ts"), "export const app = 'broken migration';\n");
  mkdirSync(repo.join("generated/deep/er"), { recursive: true });
  writeFileSync(repo.join("generated/deep/er/out.js"), "// generated\n");
  writeFileSync(repo.join("new-file.txt"), "created by the agent\n");
  unlinkSync(repo.join("notes.txt"));
  chmodSync(repo.join("bin/tool.sh"), 0o644);
  chmodSync(repo.join("crlf.txt"), 0o755);
  unlinkSync(repo.join("link-to-readme"));
  writeFileSync(repo.join("link-to-readme"), "now a plain file\n");
  writeFileSync(repo.join("assets/logo.bin"), new Uint8Array([9, 9, 9]));
  writeFileSync(repo.join("src/doomed.ts"), "came back different\n");
  writeFileSync(repo.join("debug.log"), "the agent's own log, ignored\n");
  bash(repo.path, "rm -rf src/util scratch");
}

describe("rewind restores the working tree exactly", () => {
  test("after an agent's edits, creations, deletions and an rm -rf: every file byte-equal, git's state identical", async () => {
    const { repo, deps, request, rows } = setup();
    const before = snapshot(repo.path);
    const git = gitState(repo);
    const { milestone } = await takeMilestone(deps, { dir: repo.path, kind: "manual", reason: "test" });
    expect(gitState(repo)).toEqual(git);
    agentMess(repo);
    const mess = snapshot(repo.path);
    const ignoredAfterMess = readFileSync(repo.join("debug.log"), "utf8");

    const r = await rewind(deps, request({ kind: "latest" }));

    expect(r.target.id).toBe(milestone.id);
    const after = snapshot(repo.path);
    expect({ ...after, "debug.log": undefined }).toEqual({ ...before, "debug.log": undefined });
    expect(readFileSync(repo.join("debug.log"), "utf8")).toBe(ignoredAfterMess);
    expect(existsSync(repo.join("generated"))).toBe(false);
    expect(existsSync(repo.join("node_modules/pkg/index.js"))).toBe(true);
    expect(gitState(repo)).toEqual(git);
    expect(r.undo).toBeDefined();
    // generated/deep/er/out.js, new-file.txt and src/doomed.ts (deleted when the milestone was taken)
    expect(r.removed).toBe(3);
    expect(r.removedDirectories).toBe(3);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operation: "memnox.rewind", kind: "state", surface: "cli" });
    expect(rows[0]?.detail).toMatchObject({ outcome: "done", milestone: milestone.id, undo: r.undo?.id ?? "" });

    // The rewind of the rewind brings the agent's state back, exactly.
    const again = await rewind(deps, request({ kind: "id", id: r.undo?.id ?? "" }));
    expect(snapshot(repo.path)).toEqual(mess);
    expect(again.target.id).toBe(r.undo?.id ?? "");
    expect(gitState(repo).stagedEntries).toEqual(git.stagedEntries);
  });

  test("a session's milestones, then git reset --hard: --session goes back to before its first write", async () => {
    const { repo, deps, request, advance } = setup();
    const before = snapshot(repo.path);
    const git = gitState(repo);
    const first = await milestoneBeforeFirstWrite(deps, { session: "ses_a", path: repo.join("README.md") });
    expect(first.status).toBe("taken");
    writeFileSync(repo.join("README.md"), "# edited\n");
    advance(5_000);
    const rmRf = { name: "filesystem.delete", class: "destructive" as const, targets: [], arguments: {} };
    expect((await milestoneBeforeDestroy(deps, { session: "ses_a", cwd: repo.path, actions: [rmRf] })).status).toBe(
      "taken",
    );
    bash(repo.path, "rm -rf src");
    advance(5_000);
    const reset = { name: "git.reset-hard", class: "destructive" as const, targets: [], arguments: {} };
    expect((await milestoneBeforeDestroy(deps, { session: "ses_a", cwd: repo.path, actions: [reset] })).status).toBe(
      "throttled",
    );
    repo.git("reset", "-q", "--hard");
    const afterReset = gitState(repo);

    await rewind(deps, request({ kind: "session", session: "ses_a" }));

    expect(snapshot(repo.path)).toEqual(before);
    const now = gitState(repo);
    // The agent's reset rewrote the index; a rewind moves files only, so the index stays as the reset left it.
    expect(now.indexSha).toBe(afterReset.indexSha);
    expect(now.stagedEntries).toBe(afterReset.stagedEntries);
    expect({ head: now.head, branches: now.branches, stash: now.stash, logAll: now.logAll }).toEqual({
      head: git.head,
      branches: git.branches,
      stash: git.stash,
      logAll: git.logAll,
    });
  });

  test("--last means the most recent session; a rewind's own milestone does not count as one", async () => {
    const { repo, deps, request, advance } = setup();
    await milestoneBeforeFirstWrite(deps, { session: "ses_old", path: repo.path });
    writeFileSync(repo.join("README.md"), "old session\n");
    advance(1_000);
    await milestoneBeforeFirstWrite(deps, { session: "ses_new", path: repo.path });
    const startOfNew = snapshot(repo.path);
    writeFileSync(repo.join("README.md"), "new session\n");
    advance(1_000);
    await rewind(deps, request({ kind: "last-session" }, { session: "ses_other" }));
    expect(snapshot(repo.path)).toEqual(startOfNew);
    advance(1_000);
    await rewind(deps, request({ kind: "last-session" }));
    expect(snapshot(repo.path)).toEqual(startOfNew);
  });

  test("an ignored file the milestone would overwrite is kept in the undo milestone first", async () => {
    const { repo, deps, request } = setup();
    await takeMilestone(deps, { dir: repo.path, kind: "manual", reason: "notes untracked" });
    writeFileSync(repo.join(".gitignore"), "*.log\nnode_modules/\nbuild/\nnotes.txt\n");
    writeFileSync(repo.join("notes.txt"), "notes written while ignored\n");
    const r = await rewind(deps, request({ kind: "latest" }));
    expect(readFileSync(repo.join("notes.txt"), "utf8")).toBe("untracked notes, no other copy anywhere\n");
    await rewind(deps, request({ kind: "id", id: r.undo?.id ?? "" }));
    expect(readFileSync(repo.join("notes.txt"), "utf8")).toBe("notes written while ignored\n");
  });

  test("a directory of ignored files where the milestone has a file is refused, and nothing moves", async () => {
    const { repo, deps, request, rows } = setup();
    await takeMilestone(deps, { dir: repo.path, kind: "manual", reason: "t" });
    unlinkSync(repo.join("notes.txt"));
    mkdirSync(repo.join("notes.txt"));
    writeFileSync(repo.join("notes.txt/trace.log"), "ignored, no other copy\n");
    writeFileSync(repo.join("README.md"), "changed too\n");
    const mess = snapshot(repo.path);
    await expect(rewind(deps, request({ kind: "latest" }))).rejects.toThrow(/notes\.txt\/trace\.log/);
    expect(snapshot(repo.path)).toEqual(mess);
    expect((await listMilestones(deps, repo.path)).milestones).toHaveLength(1);
    expect(rows[0]?.detail).toMatchObject({ outcome: "refused" });
  });

  test("a file replaced by a directory of new files, and a directory replaced by a symlink, both come back", async () => {
    const { repo, deps, request } = setup();
    const before = snapshot(repo.path);
    await takeMilestone(deps, { dir: repo.path, kind: "manual", reason: "t" });
    rmSync(repo.join("docs"), { recursive: true });
    symlinkSync("/tmp", repo.join("docs"));
    unlinkSync(repo.join("notes.txt"));
    mkdirSync(repo.join("notes.txt/sub"), { recursive: true });
    writeFileSync(repo.join("notes.txt/sub/x"), "x\n");
    await rewind(deps, request({ kind: "latest" }));
    expect(snapshot(repo.path)).toEqual(before);
  });

  test("nothing differs: nothing moves and no milestone is added", async () => {
    const { repo, deps, request, rows } = setup();
    await takeMilestone(deps, { dir: repo.path, kind: "manual", reason: "t" });
    const r = await rewind(deps, request({ kind: "latest" }));
    expect(r.undo).toBeUndefined();
    expect((await listMilestones(deps, repo.path)).milestones).toHaveLength(1);
    expect(rows[0]?.detail).toMatchObject({ outcome: "done", undo: null });
  });
});

describe("rewind refuses mid-operation, naming it, and records the refusal", () => {
  const conflict = (repo: GitRepo) => {
    repo.git("stash", "drop", "-q");
    repo.git("checkout", "-q", "-f", "-b", "left");
    writeFileSync(repo.join("README.md"), "left\n");
    repo.git("commit", "-q", "-am", "left");
    repo.git("checkout", "-q", "-b", "right", "HEAD~1");
    writeFileSync(repo.join("README.md"), "right\n");
    repo.git("commit", "-q", "-am", "right");
  };
  const cases: [string, (repo: GitRepo) => void, RegExp][] = [
    ["merge", (r) => expect(() => r.git("merge", "-q", "left")).toThrow(), /mid-merge/],
    ["rebase", (r) => expect(() => r.git("rebase", "-q", "left")).toThrow(), /mid-rebase/],
    ["cherry-pick", (r) => expect(() => r.git("cherry-pick", "left")).toThrow(), /mid-cherry-pick/],
    ["revert", (r) => expect(() => r.git("revert", "--no-edit", "left")).toThrow(), /mid-revert/],
    ["bisect", (r) => r.git("bisect", "start", "right", "main"), /mid-bisect/],
  ];
  for (const [name, start, pattern] of cases) {
    test(name, async () => {
      const { repo, deps, request, rows } = setup();
      await takeMilestone(deps, { dir: repo.path, kind: "manual", reason: "t" });
      conflict(repo);
      start(repo);
      const mess = snapshot(repo.path);
      const git = gitState(repo);
      await expect(rewind(deps, request({ kind: "latest" }))).rejects.toThrow(pattern);
      expect(snapshot(repo.path)).toEqual(mess);
      expect(gitState(repo)).toEqual(git);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.detail).toMatchObject({ outcome: "refused", undo: null });
      expect(rows[0]?.reason).toMatch(pattern);
    });
  }

  test("outside a repository, and with no milestones, the refusal is recorded too", async () => {
    const { repo, home, deps, request, rows } = setup();
    await expect(rewind(deps, request({ kind: "latest" }, { dir: home.path }))).rejects.toThrow(/not inside a git/);
    await expect(rewind(deps, request({ kind: "latest" }))).rejects.toThrow(/no milestones kept/);
    await expect(rewind(deps, request({ kind: "id", id: "mst_nope0000" }))).rejects.toThrow(/no milestone/);
    expect(rows.map((r) => r.detail?.outcome)).toEqual(["refused", "refused", "refused"]);
    expect(rows[1]?.resourceRef).toBe(repo.path);
  });
});

// Taking, listing and forgetting milestones: invisible to git's own views, laid out as documented, twenty kept.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { forgetMilestones, listMilestones, takeMilestone } from "../../src/rewind/milestones.ts";
import { rewind } from "../../src/rewind/rewind.ts";
import { KEEP_NEWEST } from "../../src/rewind/types.ts";
import { tempDir } from "../support/fs.ts";
import { type GitRepo, gitRepo } from "../support/git.ts";
import { fixtureRepo, gitState, snapshot, testDeps } from "./support.ts";

const open: { [Symbol.dispose](): void }[] = [];
afterEach(() => {
  for (const d of open.splice(0)) d[Symbol.dispose]();
});

function repo(): GitRepo {
  const r = fixtureRepo();
  open.push(r);
  return r;
}

describe("taking a milestone", () => {
  test("changes nothing git shows: status, log --all, stash, branches, HEAD, index bytes, files", async () => {
    const r = repo();
    const { deps } = testDeps();
    const git = gitState(r);
    const files = snapshot(r.path);
    const { milestone } = await takeMilestone(deps, { dir: r.join("src"), kind: "manual", reason: "by hand" });
    expect(gitState(r)).toEqual(git);
    expect(snapshot(r.path)).toEqual(files);
    expect(milestone.files).toBe(11);
  });

  test("a tag object under refs/memnox/milestones/ whose target is the whole working tree, metadata in its message", async () => {
    const r = repo();
    const { deps } = testDeps();
    const { milestone } = await takeMilestone(deps, {
      dir: r.path,
      kind: "destroy",
      reason: "before a command that destroys work\n(filesystem.delete)",
      agent: "claude-code",
      session: "ses_1",
    });
    expect(milestone.ref).toBe(`refs/memnox/milestones/${milestone.id}`);
    expect(r.git("cat-file", "-t", milestone.ref).trim()).toBe("tag");
    expect(r.git("rev-parse", `${milestone.ref}^{tree}`).trim()).toBe(milestone.tree);
    const tag = r.git("cat-file", "-p", milestone.ref);
    expect(tag).toContain("type tree\n");
    expect(tag).toContain("memnox milestone: before a command that destroys work (filesystem.delete)\n");
    // Tracked with uncommitted edits, untracked, executable; not ignored, not deleted.
    const paths = r.git("ls-tree", "-r", "--name-only", milestone.tree).trim().split("\n");
    expect(paths).toContain("notes.txt");
    expect(paths).toContain("scratch/tmp.sh");
    expect(paths).not.toContain("debug.log");
    expect(paths).not.toContain("node_modules/pkg/index.js");
    expect(paths).not.toContain("src/doomed.ts");
    expect(r.git("show", `${milestone.tree}:src/app.ts`)).toContain("modified, not staged");
    expect(r.git("ls-tree", milestone.tree, "bin/tool.sh")).toStartWith("100755");
    expect(r.git("ls-tree", milestone.tree, "link-to-readme")).toStartWith("120000");
    const [listed] = (await listMilestones(deps, r.path)).milestones;
    expect(listed).toEqual(milestone);
    expect(listed?.reason).not.toContain("\n");
  });

  test("git runs only plumbing, and everything that writes an index writes a scratch one", async () => {
    const r = repo();
    const { deps, calls, verbs } = testDeps();
    await takeMilestone(deps, { dir: r.path, kind: "manual", reason: "t" });
    expect(new Set(verbs())).toEqual(
      new Set(["rev-parse", "for-each-ref", "add", "write-tree", "mktag", "update-ref"]),
    );
    for (const c of calls.filter((x) => ["add", "write-tree"].some((v) => x.args.includes(v)))) {
      expect(c.index).toMatch(/\.git\/memnox-mst_[0-9a-z]+\.index$/);
    }
    writeFileSync(r.join("README.md"), "changed\n");
    calls.length = 0;
    await rewind(deps, { dir: r.path, target: { kind: "latest" }, surface: "cli", record: () => {} });
    const forbidden = ["stash", "commit", "commit-tree", "reset", "checkout", "update-index", "merge", "restore"];
    for (const v of verbs()) expect(forbidden).not.toContain(v);
    for (const c of calls.filter((x) => ["add", "read-tree", "checkout-index"].some((v) => x.args.includes(v)))) {
      expect(c.index).toMatch(/memnox-mst_[0-9a-z]+\.index$/);
    }
    expect(r.git("status", "--porcelain", "--ignored").includes("memnox-")).toBe(false);
  });

  test("works in an empty repository with no commit and no index", async () => {
    const r = gitRepo({}, { commit: false });
    open.push(r);
    writeFileSync(r.join("first.txt"), "first\n");
    const { deps } = testDeps();
    const { milestone } = await takeMilestone(deps, { dir: r.path, kind: "manual", reason: "t" });
    expect(milestone.files).toBe(1);
    writeFileSync(r.join("first.txt"), "changed\n");
    writeFileSync(r.join("second.txt"), "new\n");
    await rewind(deps, { dir: r.path, target: { kind: "latest" }, surface: "cli", record: () => {} });
    expect(snapshot(r.path)).toEqual({ "first.txt": expect.objectContaining({ kind: "file" }) });
  });

  test("outside a working tree: an error naming the directory", async () => {
    const d = tempDir("memnox-plain");
    open.push(d);
    const { deps } = testDeps();
    await expect(takeMilestone(deps, { dir: d.path, kind: "manual", reason: "t" })).rejects.toThrow(
      `\`${d.path}\` is not inside a git working tree`,
    );
  });
});

describe("keeping the newest twenty", () => {
  test("the 21st and later drop the oldest, as refs and from the list", async () => {
    const r = repo();
    const { deps, advance } = testDeps();
    const ids: string[] = [];
    for (let i = 0; i < KEEP_NEWEST + 5; i++) {
      advance(1_000);
      ids.push((await takeMilestone(deps, { dir: r.path, kind: "manual", reason: `n${i}` })).milestone.id);
    }
    const listed = (await listMilestones(deps, r.path)).milestones.map((m) => m.id);
    expect(listed).toEqual(ids.slice(5).reverse());
    expect(r.git("for-each-ref", "refs/memnox/").trim().split("\n")).toHaveLength(KEEP_NEWEST);
  });

  test("a rewind to the oldest of twenty keeps it, and its own milestone, within twenty", async () => {
    const r = repo();
    const { deps, advance } = testDeps();
    const ids: string[] = [];
    for (let i = 0; i < KEEP_NEWEST; i++) {
      advance(1_000);
      writeFileSync(r.join("README.md"), `v${i}\n`);
      ids.push((await takeMilestone(deps, { dir: r.path, kind: "manual", reason: `n${i}` })).milestone.id);
    }
    advance(1_000);
    const res = await rewind(deps, {
      dir: r.path,
      target: { kind: "id", id: ids[0] ?? "" },
      surface: "cli",
      record: () => {},
    });
    const listed = (await listMilestones(deps, r.path)).milestones.map((m) => m.id);
    expect(listed).toHaveLength(KEEP_NEWEST);
    expect(listed).toContain(ids[0] ?? "");
    expect(listed[0]).toBe(res.undo?.id);
    expect(listed).not.toContain(ids[1]);
  });

  test("--forget keeps the newest few, and never the newest none", async () => {
    const r = repo();
    const { deps, advance } = testDeps();
    for (let i = 0; i < 6; i++) {
      advance(1_000);
      await takeMilestone(deps, { dir: r.path, kind: "manual", reason: `n${i}` });
    }
    const all = (await listMilestones(deps, r.path)).milestones;
    const f = await forgetMilestones(deps, r.path, 3);
    expect(f.kept).toEqual(all.slice(0, 3));
    expect(f.dropped).toEqual(all.slice(3));
    const zero = await forgetMilestones(deps, r.path, 0);
    expect(zero.kept.map((m) => m.id)).toEqual([all[0]?.id ?? ""]);
    expect((await listMilestones(deps, r.path)).milestones).toHaveLength(1);
  });
});

test("linked worktrees share refs but each lists only its own milestones", async () => {
  const r = repo();
  const wt = tempDir("memnox-linked");
  open.push(wt);
  r.git("worktree", "add", "-q", wt.join("other"), "feature");
  const { deps } = testDeps();
  const a = await takeMilestone(deps, { dir: r.path, kind: "manual", reason: "main" });
  const b = await takeMilestone(deps, { dir: wt.join("other"), kind: "manual", reason: "linked" });
  expect((await listMilestones(deps, r.path)).milestones.map((m) => m.id)).toEqual([a.milestone.id]);
  expect((await listMilestones(deps, wt.join("other"))).milestones.map((m) => m.id)).toEqual([b.milestone.id]);
});

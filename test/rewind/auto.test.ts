// Automatic milestones: once per session and repository, throttled before destruction, never thrown into the caller.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import type { Action } from "../../src/core/action.ts";
import { KEEP_IGNORED_BYTES } from "../../src/core/kept.ts";
import { resolveCommand } from "../../src/resolve/index.ts";
import { DESTROY_THROTTLE_MS, milestoneBeforeDestroy, milestoneBeforeFirstWrite } from "../../src/rewind/auto.ts";
import { listMilestones } from "../../src/rewind/milestones.ts";
import { runHooks } from "../../src/seams/cli/commands/_run-hooks.ts";
import { handleHook } from "../../src/seams/hook/handle.ts";
import { tempDir } from "../support/fs.ts";
import { type GitRepo, gitRepo } from "../support/git.ts";
import { type FakeHome, fakeHome, testContext } from "../support/home.ts";
import { scriptedGate } from "../support/scripted-gate.ts";
import { testDeps } from "./support.ts";

const open: { [Symbol.dispose](): void }[] = [];
afterEach(() => {
  for (const d of open.splice(0)) d[Symbol.dispose]();
});

function world(fail?: string) {
  const home: FakeHome = fakeHome();
  const a: GitRepo = gitRepo({ "a.txt": "a\n" });
  const b: GitRepo = gitRepo({ "b.txt": "b\n" });
  open.push(home, a, b);
  const checkpoints = home.join(".memnox", "checkpoints.json");
  return { home, a, b, checkpoints, ...testDeps({ checkpoints, ...(fail ? { fail } : {}) }) };
}

const act = (name: string): Action => ({ name, class: "destructive", targets: [], arguments: {} });

describe("before a session's first write", () => {
  test("once per session and repository; a session that owes nothing starts no process", async () => {
    const { a, b, deps, calls, checkpoints } = world();
    const first = await milestoneBeforeFirstWrite(deps, {
      session: "s1",
      path: a.join("new/dir/file.ts"),
      agent: "claude-code",
    });
    expect(first).toMatchObject({ status: "taken", repo: a.path });
    calls.length = 0;
    expect(await milestoneBeforeFirstWrite(deps, { session: "s1", path: a.join("a.txt") })).toEqual({
      status: "owed-nothing",
      repo: a.path,
    });
    expect(calls).toHaveLength(0);
    expect((await milestoneBeforeFirstWrite(deps, { session: "s1", path: b.path })).status).toBe("taken");
    expect((await milestoneBeforeFirstWrite(deps, { session: "s2", path: a.path })).status).toBe("taken");
    const kept = JSON.parse(readFileSync(checkpoints, "utf8"));
    expect(Object.keys(kept.sessions).sort()).toEqual(["s1", "s2"]);
    expect(Object.keys(kept.sessions.s1.repos).sort()).toEqual([a.path, b.path].sort());
    const m = (await listMilestones(deps, a.path)).milestones;
    expect(m.map((x) => [x.kind, x.session, x.agent])).toEqual([
      ["first-write", "s2", undefined],
      ["first-write", "s1", "claude-code"],
    ]);
  });

  test("outside any repository: nothing kept, nothing started, nothing marked", async () => {
    const { deps, calls, checkpoints } = world();
    const plain = tempDir("memnox-plain");
    open.push(plain);
    expect((await milestoneBeforeFirstWrite(deps, { session: "s1", path: plain.join("x") })).status).toBe(
      "not-a-repository",
    );
    expect(calls).toHaveLength(0);
    expect(existsSync(checkpoints)).toBe(false);
  });

  test("a milestone git cannot keep is logged, never thrown, and not retried on every write", async () => {
    const { a, deps, logged, calls } = world("write-tree");
    const r = await milestoneBeforeFirstWrite(deps, { session: "s1", path: a.path });
    expect(r.status).toBe("failed");
    expect(logged.join("\n")).toMatch(/no milestone kept for .*git write-tree failed/);
    calls.length = 0;
    expect((await milestoneBeforeFirstWrite(deps, { session: "s1", path: a.path })).status).toBe("owed-nothing");
    expect(calls).toHaveLength(0);
  });

  test("a checkpoints file memnox did not write is set aside, never lost, and milestones go on", async () => {
    const { a, deps, logged, checkpoints, home } = world();
    writeFileSync(checkpoints, "{ not json");
    expect((await milestoneBeforeFirstWrite(deps, { session: "s1", path: a.path })).status).toBe("taken");
    const aside = readdirSync(home.join(".memnox")).filter((f) => f.startsWith("checkpoints.json.unreadable-"));
    expect(aside).toHaveLength(1);
    expect(readFileSync(home.join(".memnox", aside[0] ?? ""), "utf8")).toBe("{ not json");
    expect(logged.join("\n")).toContain("kept it as");
  });
});

describe("before a command that destroys work", () => {
  test("at most once every 20 seconds per session, and nothing started while throttled", async () => {
    const { a, deps, calls, advance } = world();
    const cmd = { session: "s1", cwd: a.path, actions: [act("shell.execute"), act("git.reset-hard")] };
    const first = await milestoneBeforeDestroy(deps, cmd);
    expect(first.status).toBe("taken");
    if (first.status === "taken")
      expect(first.milestone.reason).toBe("before a command that destroys work (git.reset-hard)");
    advance(DESTROY_THROTTLE_MS - 1);
    calls.length = 0;
    expect((await milestoneBeforeDestroy(deps, cmd)).status).toBe("throttled");
    expect(calls).toHaveLength(0);
    expect((await milestoneBeforeDestroy(deps, { ...cmd, session: "s2" })).status).toBe("taken");
    advance(1);
    expect((await milestoneBeforeDestroy(deps, cmd)).status).toBe("taken");
  });

  test("a command that destroys nothing starts nothing", async () => {
    const { a, deps, calls } = world();
    const r = await milestoneBeforeDestroy(deps, { session: "s1", cwd: a.path, actions: [act("filesystem.write")] });
    expect(r.status).toBe("not-destroying");
    expect(calls).toHaveLength(0);
  });

  // The governed shell and the hooks have a command line, not argv: what the resolver makes of it decides.
  const lines: [string, boolean][] = [
    ["rm notes.txt", true],
    ["rm -r build", true],
    ["cd sub && rm -rf src", true],
    ["git reset --hard", true],
    ["git clean -fd", true],
    ["git clean -n", false],
    ["git checkout -- .", true],
    ["git restore .", true],
    ["git restore --staged .", false],
    ["mv a b", false],
    ["mv a b dir", true],
    ["git status && ls", false],
  ];
  for (const [line, want] of lines) {
    test(`a resolved \`${line}\` ${want ? "keeps one" : "keeps none"}`, async () => {
      const { a, deps } = world();
      const { actions } = resolveCommand(line, { cwd: a.path, home: "/nonexistent-home" });
      const r = await milestoneBeforeDestroy(deps, { session: "s1", cwd: a.path, actions });
      expect(r.status).toBe(want ? "taken" : "not-destroying");
    });
  }

  test("it settles the session's first-write milestone in that repository", async () => {
    const { a, deps } = world();
    await milestoneBeforeDestroy(deps, { session: "s1", cwd: a.path, actions: [act("filesystem.delete")] });
    expect((await milestoneBeforeFirstWrite(deps, { session: "s1", path: a.path })).status).toBe("owed-nothing");
  });
});

describe("ignored files a delete takes", () => {
  test("are kept by the milestone before it, even right after another one; caches, credentials and what is past the bound are not", async () => {
    const { a, deps, advance } = world();
    writeFileSync(a.join(".gitignore"), "data/\nnode_modules/\n.env\n");
    a.git("add", ".gitignore");
    a.git("commit", "-q", "-m", "ignore");
    mkdirSync(a.join("data"), { recursive: true });
    mkdirSync(a.join("node_modules", "pkg"), { recursive: true });
    writeFileSync(a.join("data", "app.sqlite"), "rows\n");
    writeFileSync(a.join("data", "huge.db"), "");
    truncateSync(a.join("data", "huge.db"), KEEP_IGNORED_BYTES + 1);
    writeFileSync(a.join("node_modules", "pkg", "index.js"), "x\n");
    writeFileSync(a.join(".env"), "TOKEN=x\n");
    const first = await milestoneBeforeDestroy(deps, { session: "s1", cwd: a.path, actions: [act("git.reset-hard")] });
    expect(first.status).toBe("taken");
    advance(1);
    const del = (targets: string[]): Action => ({ ...act("filesystem.delete"), targets });
    const r = await milestoneBeforeDestroy(deps, {
      session: "s1",
      cwd: a.path,
      actions: [del([`${a.path}/data/**`, `${a.path}/node_modules/**`, `${a.path}/.env`])],
    });
    expect(r.status).toBe("taken");
    if (r.status !== "taken") return;
    const files = a.git("ls-tree", "-r", "--name-only", r.milestone.tree).trim().split("\n");
    expect(files).toContain("data/app.sqlite");
    expect(files).not.toContain("data/huge.db");
    expect(files.filter((f) => f.startsWith("node_modules/") || f === ".env")).toEqual([]);
  });
});

describe("a first write that also destroys", () => {
  test("keeps one milestone, and counts it as the session's destroy milestone for the throttle", async () => {
    const { a, deps } = world();
    const first = await milestoneBeforeFirstWrite(deps, { session: "s1", path: a.path });
    expect(first.status).toBe("taken");
    const call = { session: "s1", cwd: a.path, actions: [act("filesystem.delete")] };
    expect((await milestoneBeforeDestroy(deps, { ...call, keptIn: a.path })).status).toBe("owed-nothing");
    expect((await milestoneBeforeDestroy(deps, call)).status).toBe("throttled");
  });
});

describe("the hook", () => {
  const rmRf = { name: "filesystem.delete", class: "destructive" as const, targets: [], arguments: {} };
  const cases: ["allow" | "ask" | "deny", boolean][] = [
    ["allow", true],
    ["ask", true],
    ["deny", false],
  ];
  for (const [effect, kept] of cases) {
    test(`an rm -rf the hook answers ${effect} ${kept ? "keeps a milestone" : "keeps none"} (an ask may get a yes)`, async () => {
      const { home, a } = world();
      const stdin = JSON.stringify({
        session_id: `s-${effect}`,
        cwd: a.path,
        hook_event_name: "PreToolUse",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: { command: "rm -rf src" },
        tool_use_id: "toolu_1",
      });
      const { ctx } = testContext(home, { args: ["claude-code", "PreToolUse"], stdin });
      const gate = scriptedGate({ answers: [{ effect, reason: "deletes", actions: [rmRf] }] });
      const posture = { mode: "enforce" as const, failOpen: false, stopped: false };
      expect(await handleHook(ctx, { gate: () => gate, posture: async () => posture })).toBe(0);
      // The session's first write and the destruction are one tree: one milestone, not two.
      expect(a.git("for-each-ref", "refs/memnox/").trim().split("\n").filter(Boolean)).toHaveLength(kept ? 1 : 0);
    });
  }
});

const NO_SCOPE = { paths: [], repos: [], services: [], envs: [], expect: [] };

describe("memnox run", () => {
  test("keeps a milestone of the repository before the agent starts, and none with --no-milestone", async () => {
    const { a, home } = world();
    const { ctx, io } = testContext(home, { cwd: a.path });
    const input = { session: "ses_run", agent: "codex", root: a.path, env: ctx.env, scope: NO_SCOPE };
    const without = runHooks(ctx, { ...input, milestone: false });
    await without.before();
    await without.after(0, 0);
    expect(a.git("for-each-ref", "refs/memnox/")).toBe("");
    const kept = runHooks(ctx, { ...input, milestone: true });
    await kept.before();
    await kept.after(0, 0);
    const refs = a.git("for-each-ref", "--format=%(contents:body)", "refs/memnox/");
    expect(JSON.parse(refs.trim())).toMatchObject({ kind: "run", session: "ses_run", agent: "codex" });
    expect(io.stderr()).toMatch(/working tree kept as mst_\w+; memnox rewind puts it back/);
  });
});

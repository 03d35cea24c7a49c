// The shell seams with the compiled binary, real bash and real git: interceptor, governed shell, git hook, holds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, fakeHome, gitRepo, runBinary, tempDir } from "./support/index.ts";
import { FORCE_PUSH_DENIED } from "./support/rules.ts";

const home = fakeHome();
const remote = tempDir("memnox-remote");
const repo = gitRepo({ "README.md": "one\n" });
let bin = "";
let realPath = "";

function rules(extra = ""): void {
  writeFileSync(repo.join("memnox.policies.toml"), `${FORCE_PUSH_DENIED}${extra}`);
}

function env(mode: string, extra: Record<string, string> = {}) {
  writeFileSync(join(home.memnoxHome, "config.toml"), `mode = "${mode}"\n`);
  return home.env({ PATH: `${join(home.memnoxHome, "bin")}:${realPath}`, ...extra });
}

/** A commit on main that rewrites history, so the next push to origin needs --force. */
function diverge(): void {
  repo.git("reset", "-q", "--hard", remoteHead());
  repo.git("commit", "-q", "--amend", "--allow-empty", "-m", `amended ${Math.random()}`);
}

const ledger = async (e: Record<string, string>) =>
  JSON.parse((await runBinary("memnox", ["timeline", "--json"], { env: e, cwd: repo.path })).stdout) as {
    events: { operation: string; effect: string; enforceEffect?: string; id: string }[];
  };

beforeAll(async () => {
  bin = await compiledBinary();
  realPath = process.env.PATH ?? "";
  const binDir = join(home.memnoxHome, "bin");
  mkdirSync(binDir, { recursive: true });
  symlinkSync(bin, join(binDir, "git"));
  symlinkSync(bin, join(binDir, "memnox-shell"));
  Bun.spawnSync(["git", "init", "-q", "--bare", "-b", "main", remote.path]);
  repo.git("remote", "add", "origin", remote.path);
  repo.git("push", "-q", "origin", "main");
  rules();
});

afterAll(() => {
  for (const d of [home, remote, repo]) d[Symbol.dispose]();
});

const remoteHead = () => Bun.spawnSync(["git", "-C", remote.path, "rev-parse", "main"]).stdout.toString().trim();
const localHead = () => repo.git("rev-parse", "main").trim();

describe("PATH interceptor (git)", () => {
  test("enforce: a force push is refused with exit 126, the reason and the alternative; the remote is untouched", async () => {
    diverge();
    const before = remoteHead();
    const r = await runBinary("git", ["push", "--force", "origin", "main"], { env: env("enforce"), cwd: repo.path });
    expect(r.code).toBe(126);
    expect(r.stderr).toContain("a force-push can destroy work");
    expect(r.stderr).toContain("instead: push without --force");
    expect(remoteHead()).toBe(before);
  });

  test("observe: the same push runs, and the ledger keeps what enforce would have done", async () => {
    const e = env("observe");
    const r = await runBinary("git", ["push", "-q", "--force", "origin", "main"], { env: e, cwd: repo.path });
    expect(r.code).toBe(0);
    expect(remoteHead()).toBe(localHead());
    const events = (await ledger(e)).events;
    const push = events.filter((x) => x.operation === "git.push-force").at(-1);
    expect(push).toMatchObject({ effect: "allow", enforceEffect: "deny" });
  });

  test("waits for the real git, hands back its exit code and records the outcome; a link back to memnox is skipped", async () => {
    const loop = tempDir("memnox-loop");
    symlinkSync(bin, join(loop.path, "git"));
    const e = env("enforce");
    const withLoop = { ...e, PATH: `${join(home.memnoxHome, "bin")}:${loop.path}:${realPath}` };
    const r = await runBinary("git", ["rev-parse", "--verify", "-q", "no-such-ref"], { env: withLoop, cwd: repo.path });
    expect(r.code).toBe(1);
    const row = (await ledger(e)).events.filter((x) => x.operation.startsWith("git.")).at(-1);
    const traced = JSON.parse(
      (await runBinary("memnox", ["trace", row?.id ?? "", "--json"], { env: e, cwd: repo.path })).stdout,
    ) as { exitCode: number | null; durationMs: number | null };
    expect(traced.exitCode).toBe(1);
    expect(typeof traced.durationMs).toBe("number");
    const onlyLoop = { ...e, PATH: `${join(home.memnoxHome, "bin")}:${loop.path}` };
    const none = await runBinary("git", ["status"], { env: onlyLoop, cwd: repo.path });
    expect(none.code).toBe(127);
    expect(none.stderr).toContain("no real `git` on PATH");
    loop[Symbol.dispose]();
  });

  test("a frozen action is refused with the freeze's reason and time left, and the verdict replays", async () => {
    rules(`
[[policies]]
name = "no-pushes-while-frozen"
[policies.match]
actions = ["git.push"]
state = ["freeze:payments"]
[policies.decision]
effect = "deny"
reason = "pushes wait while payments is frozen"
`);
    const e = env("enforce");
    const f = await runBinary("memnox", ["freeze", "payments", "--for", "2h", "--reason", "troubleshooting"], {
      env: e,
      cwd: repo.path,
    });
    expect(f.stdout).toContain("no-pushes-while-frozen");
    repo.git("commit", "-q", "--allow-empty", "-m", "more");
    const r = await runBinary("git", ["push", "origin", "main"], { env: e, cwd: repo.path });
    expect(r.code).toBe(126);
    expect(r.stderr).toContain("pushes wait while payments is frozen");
    expect(r.stderr).toMatch(/state freeze:payments — troubleshooting \(1h 59m left|2h left/);
    const why = await runBinary("memnox", ["why", "--verify", "--json"], { env: e, cwd: repo.path });
    expect(JSON.parse(why.stdout).verify.reproduces).toBe(true);
    await runBinary("memnox", ["freeze", "payments", "--lift"], { env: e, cwd: repo.path });
    rules();
  });

  test("an approval from a second process releases a held call exactly once", async () => {
    rules(`
[[policies]]
name = "pushes-ask"
[policies.match]
actions = ["git.push"]
[policies.decision]
effect = "ask"
reason = "a push is seen by others"
`);
    const e = env("enforce");
    repo.git("commit", "-q", "--allow-empty", "-m", "held");
    const held = Bun.spawn([join(home.memnoxHome, "bin", "git"), "push", "-q", "origin", "main"], {
      env: e,
      cwd: repo.path,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    let id = "";
    for (let i = 0; i < 200 && !id; i++) {
      const a = await runBinary("memnox", ["approvals", "--json"], { env: e, cwd: repo.path });
      id = (JSON.parse(a.stdout) as { approvals: { id: string }[] }).approvals[0]?.id ?? "";
      if (!id) await Bun.sleep(50);
    }
    expect(id).toMatch(/^a_/);
    const ok = await runBinary("memnox", ["approve", id], { env: e, cwd: repo.path });
    expect(ok.stdout).toContain("goes through once");
    expect(await held.exited).toBe(0);
    expect(remoteHead()).toBe(localHead());
    const loser = await runBinary("memnox", ["deny", id], { env: e, cwd: repo.path });
    expect(loser.stdout).toContain("already granted");
    repo.git("commit", "-q", "--allow-empty", "-m", "again");
    const again = Bun.spawn([join(home.memnoxHome, "bin", "git"), "push", "-q", "origin", "main"], {
      env: e,
      cwd: repo.path,
      stdin: "ignore",
      stderr: "pipe",
    });
    let second = "";
    for (let i = 0; i < 200 && !second; i++) {
      const a = await runBinary("memnox", ["approvals", "--json"], { env: e, cwd: repo.path });
      second = (JSON.parse(a.stdout) as { approvals: { id: string }[] }).approvals[0]?.id ?? "";
      if (!second) await Bun.sleep(50);
    }
    expect(second).not.toBe(id);
    await runBinary("memnox", ["deny", second], { env: e, cwd: repo.path });
    expect(await again.exited).toBe(126);
    rules();
  });
});

describe("governed shell", () => {
  test("refuses a force push hidden inside bash -c, before any of the line runs", async () => {
    diverge();
    const e = env("enforce", { MEMNOX_REAL_SHELL: "/bin/bash" });
    const marker = repo.join("ran-first");
    const r = await runBinary("memnox-shell", ["-c", `touch ${marker} && bash -c 'git push --force origin main'`], {
      env: e,
      cwd: repo.path,
    });
    expect(r.code).toBe(126);
    expect(r.stderr).toContain("a force-push can destroy work");
    expect(await Bun.file(marker).exists()).toBe(false);
  });

  test("runs an allowed line in the real shell and passes its exit code back", async () => {
    const e = env("enforce", { MEMNOX_REAL_SHELL: "/bin/bash" });
    const r = await runBinary("memnox-shell", ["-c", "echo hello; exit 3"], { env: e, cwd: repo.path });
    expect(r.stdout).toBe("hello\n");
    expect(r.code).toBe(3);
  });

  test("refuses to hand the line to itself", async () => {
    const e = env("enforce", { MEMNOX_REAL_SHELL: bin });
    const r = await runBinary("memnox-shell", ["-c", "echo hi"], { env: e, cwd: repo.path });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("is memnox itself");
  });
});

describe("git pre-push hook", () => {
  test("stops a force push made with the real git, with no wrapper on PATH", async () => {
    const hook = repo.join(".git", "hooks", "pre-push");
    writeFileSync(hook, `#!/bin/sh\nexec '${bin}' hook git pre-push "$@"\n`);
    chmodSync(hook, 0o755);
    diverge();
    const before = remoteHead();
    const e = env("enforce", { PATH: realPath });
    const force = Bun.spawnSync(["git", "push", "--force", "origin", "main"], {
      env: e,
      cwd: repo.path,
      stderr: "pipe",
    });
    expect(force.exitCode).not.toBe(0);
    expect(force.stderr.toString()).toContain("a force-push can destroy work");
    expect(remoteHead()).toBe(before);
  });
});

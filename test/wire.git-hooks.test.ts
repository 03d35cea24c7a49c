// git's pre-push and pre-commit hooks with real git and real sh: the push a rule refuses stops, the hook that was
// there still runs (with its stdin) when memnox lets the push through, and uninstall gives it back byte for byte.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitHookState, hookScript, installGitHooks, removeGitHooks } from "../src/wire/git-hooks.ts";
import { fakeHome, gitRepo, tempDir, testContext } from "./support/index.ts";
import { FORCE_PUSH_DENIED } from "./support/rules.ts";

const DENY_FORCE = FORCE_PUSH_DENIED;

const home = fakeHome();
const remote = tempDir("memnox-remote");
afterAll(() => {
  home[Symbol.dispose]();
  remote[Symbol.dispose]();
});

function push(repo: ReturnType<typeof gitRepo>, ...args: string[]) {
  const r = Bun.spawnSync(["git", "push", ...args], {
    cwd: repo.path,
    env: home.env(),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: r.exitCode, err: r.stderr.toString() };
}

describe("git hooks", () => {
  test("pre-push and pre-commit go in; a hook already there is chained, backed up, and runs with its stdin", async () => {
    using repo = gitRepo({ "a.txt": "a\n", "memnox.policies.toml": DENY_FORCE });
    Bun.spawnSync(["git", "init", "-q", "--bare", "-b", "main", remote.path]);
    repo.git("remote", "add", "origin", remote.path);
    repo.git("config", "core.hooksPath", ".husky");
    const marker = repo.join("pushed-refs");
    const theirs = `#!/bin/sh\ncat > '${marker}'\n`;
    mkdirSync(repo.join(".husky"));
    writeFileSync(repo.join(".husky", "pre-push"), theirs, { mode: 0o750 });
    writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
    const { ctx } = testContext(home, { cwd: repo.path });

    const r = await installGitHooks(ctx, repo.path);
    expect(r.dir).toBe(repo.join(".husky"));
    expect(r.hooks.map((h) => [h.hook, h.status])).toEqual([
      ["pre-push", "chained"],
      ["pre-commit", "added"],
    ]);
    expect(readFileSync(r.hooks[0]?.backup ?? "", "utf8")).toBe(theirs);
    expect((await installGitHooks(ctx, repo.path)).hooks.map((h) => h.status)).toEqual(["unchanged", "unchanged"]);
    expect(await gitHookState(ctx, repo.path)).toMatchObject({
      hooks: [{ ours: true, chained: true }, { ours: true }],
    });

    expect(push(repo, "-q", "origin", "main").code).toBe(0);
    expect(readFileSync(marker, "utf8")).toMatch(/^refs\/heads\/main [0-9a-f]{40} refs\/heads\/main 0{40}\n$/);
    repo.git("commit", "-q", "--amend", "--allow-empty", "-m", "rewritten");
    writeFileSync(marker, "");
    const forced = push(repo, "--force", "origin", "main");
    expect(forced.code).not.toBe(0);
    expect(forced.err).toContain("a force-push can destroy work");
    expect(readFileSync(marker, "utf8")).toBe("");

    const back = await removeGitHooks(ctx, home.home);
    expect(back.flatMap((b) => b.hooks.map((h) => [h.hook, h.status]))).toEqual([
      ["pre-push", "restored"],
      ["pre-commit", "removed"],
    ]);
    expect(readFileSync(repo.join(".husky", "pre-push"), "utf8")).toBe(theirs);
    expect(statSync(repo.join(".husky", "pre-push")).mode & 0o777).toBe(0o750);
    expect(existsSync(repo.join(".husky", "pre-commit"))).toBe(false);
    expect(await removeGitHooks(ctx, home.home)).toEqual([]);
  });

  test("a hook somebody put over memnox's is left alone at uninstall, and said so", async () => {
    using repo = gitRepo({ "a.txt": "a\n" });
    const { ctx } = testContext(home, { cwd: repo.path });
    await installGitHooks(ctx, repo.path);
    writeFileSync(repo.join(".git", "hooks", "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const back = await removeGitHooks(ctx, repo.path);
    expect(back[0]?.hooks.map((h) => h.status)).toEqual(["removed", "left-alone"]);
    expect(readFileSync(repo.join(".git", "hooks", "pre-commit"), "utf8")).toBe("#!/bin/sh\nexit 0\n");
  });

  test("outside a repository it says so; a missing memnox binary lets the hook chain on, saying what it skipped", async () => {
    using dir = tempDir("memnox-norepo");
    const { ctx } = testContext(home, { cwd: dir.path });
    await expect(installGitHooks(ctx, dir.path)).rejects.toThrow(/is not in a git repository/);
    expect(await gitHookState(ctx, dir.path)).toBeUndefined();
    writeFileSync(dir.join("pre-push"), hookScript("pre-push", ["/nonexistent/memnox"]), { mode: 0o755 });
    writeFileSync(dir.join("pre-push.memnox-chained"), "#!/bin/sh\ncat; exit 3\n", { mode: 0o755 });
    const r = Bun.spawnSync([dir.join("pre-push"), "origin", "url"], { stdin: new Blob(["line\n"]), stderr: "pipe" });
    expect(r.stdout.toString()).toBe("line\n");
    expect(r.exitCode).toBe(3);
    expect(r.stderr.toString()).toContain("/nonexistent/memnox is missing, so this pre-push was not checked");
  });
});

// Issue 28's text- and state-level classes with the compiled binary, real bash, real git and a real bare origin:
// each line goes to Claude Code's hook first (bypassPermissions, so an ask refuses), and runs in bash only when the
// hook lets it through. In enforce the harm does not happen; in observe (the same hook, recording only) it does.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not templates
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, fakeHome, gitRepo, runBinary, tempDir } from "./support/index.ts";

const SESSION = "ses_textgate_e2e";
const home = fakeHome();
const origin = tempDir("memnox-origin");
const repo = gitRepo({ "README.md": "scratch\n", ".gitignore": "data/\n" });
afterAll(() => {
  for (const d of [home, origin, repo]) d[Symbol.dispose]();
});
const bare = join(origin.path, "main.git");
let pushed = "";
let local = "";
let n = 0;

function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: home.env(), stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

const originMain = () => git(origin.path, "--git-dir", bare, "rev-parse", "main");
const setMode = (mode: "enforce" | "observe") =>
  writeFileSync(join(home.memnoxHome, "config.toml"), `mode = "${mode}"\n`);
/** Puts origin back at what was pushed, after a scenario in observe rewrote it. */
const resetOrigin = () => git(origin.path, "--git-dir", bare, "update-ref", "refs/heads/main", pushed);

beforeAll(async () => {
  await compiledBinary();
  git(origin.path, "init", "-q", "--bare", "-b", "main", "main.git");
  git(repo.path, "remote", "add", "origin", bare);
  writeFileSync(repo.join("b.txt"), "b\n");
  git(repo.path, "add", "b.txt");
  git(repo.path, "commit", "-q", "-m", "B");
  git(repo.path, "push", "-q", "origin", "main");
  pushed = git(repo.path, "rev-parse", "HEAD");
  // Local main is C beside B: only a forced write could make origin's main point at it.
  git(repo.path, "reset", "-q", "--hard", "HEAD~1");
  writeFileSync(repo.join("c.txt"), "c\n");
  git(repo.path, "add", "c.txt");
  git(repo.path, "commit", "-q", "-m", "C");
  local = git(repo.path, "rev-parse", "HEAD");
  const p = await runBinary("memnox", ["protect", "--yes"], { env: home.env(), cwd: repo.path });
  expect(p.code).toBe(0);
  setMode("enforce");
});

type Verdict = "allow" | "ask" | "deny";

async function hookEvent(event: string, body: Record<string, unknown>): Promise<string> {
  const payload = { session_id: SESSION, cwd: repo.path, hook_event_name: event, permission_mode: "bypassPermissions" };
  const r = await runBinary("memnox", ["hook", "claude-code", event], {
    env: home.env(),
    stdin: JSON.stringify({ ...payload, ...body }),
    cwd: repo.path,
  });
  expect(r.code).toBe(0);
  return r.stdout;
}

async function hook(command: string, id = `toolu_tg_${++n}`): Promise<Verdict> {
  const out = await hookEvent("PreToolUse", { tool_name: "Bash", tool_input: { command }, tool_use_id: id });
  if (out.trim() === "") return "allow";
  return (
    (JSON.parse(out) as { hookSpecificOutput?: { permissionDecision?: Verdict } }).hookSpecificOutput
      ?.permissionDecision ?? "allow"
  );
}

/** What an agent's Bash call meets: the hook, then (when it allows) the line in real bash. */
async function attempt(command: string): Promise<Verdict> {
  const verdict = await hook(command);
  if (verdict === "allow") Bun.spawnSync(["bash", "-c", command], { cwd: repo.path, env: home.env() });
  return verdict;
}

/** In enforce the hook refuses and the harm is absent; in observe the same line does it. */
async function heldThenReal(command: string, harmed: () => boolean, undo: () => void): Promise<void> {
  setMode("enforce");
  expect(await attempt(command)).not.toBe("allow");
  expect(harmed()).toBe(false);
  setMode("observe");
  try {
    expect(await attempt(command)).toBe("allow");
    expect(harmed()).toBe(true);
  } finally {
    undo();
    setMode("enforce");
  }
}

const originRewritten = () => originMain() !== pushed;

describe("4: a shell expansion that runs code does not rewrite origin", () => {
  for (const line of [
    "x='a[$(git push -q -f origin main)]'; echo $((x))",
    "printf -v 'a[$(git push -q -f origin main)]' x",
    "declare 'a[$(git push -q -f origin main)]=1'",
    "x='$(git push -q -f origin main)'; echo ${x@P} >/dev/null",
  ]) {
    test(line, () => heldThenReal(line, originRewritten, resetOrigin));
  }
});

describe("7: another repository rewritten without a push", () => {
  for (const line of [
    `git -C ${bare} update-ref refs/heads/main {local}`,
    `GIT_DIR=${bare} git update-ref refs/heads/main {local}`,
    `git -C ${bare} fetch -q {repo} '+refs/heads/*:refs/heads/*'`,
  ]) {
    test(line, async () => {
      const command = line.replace("{local}", local).replace("{repo}", repo.path);
      await heldThenReal(command, originRewritten, resetOrigin);
    });
  }
});

describe("8: work put beyond rewind", () => {
  test("an ignored database deleted is kept by the milestone taken first, and memnox rewind brings it back", async () => {
    mkdirSync(repo.join("data"), { recursive: true });
    writeFileSync(repo.join("data", "app.sqlite"), "the only copy of these rows\n");
    expect(await attempt("rm data/app.sqlite")).toBe("allow");
    expect(existsSync(repo.join("data", "app.sqlite"))).toBe(false);
    const r = await runBinary("memnox", ["rewind", "--json"], { env: home.env(), cwd: repo.path });
    expect(r.code).toBe(0);
    expect(readFileSync(repo.join("data", "app.sqlite"), "utf8")).toBe("the only copy of these rows\n");
  });

  test("past the bound on what a milestone keeps, the delete asks instead of going on", async () => {
    mkdirSync(repo.join("data"), { recursive: true });
    writeFileSync(repo.join("data", "big.db"), "");
    Bun.spawnSync(["truncate", "-s", "70M", repo.join("data", "big.db")]);
    expect(await attempt("rm data/big.db")).not.toBe("allow");
    expect(existsSync(repo.join("data", "big.db"))).toBe(true);
    rmSync(repo.join("data", "big.db"));
  });

  test("the reflog's safety net and memnox's own milestones stay", async () => {
    const before = git(repo.path, "reflog", "--format=%H").split("\n").length;
    expect(await attempt("git reflog expire --expire=now --all && git gc -q --prune=now")).not.toBe("allow");
    expect(git(repo.path, "reflog", "--format=%H").split("\n").length).toBe(before);
    const milestones = () => git(repo.path, "for-each-ref", "refs/memnox/milestones/");
    const kept = milestones();
    expect(kept).not.toBe("");
    for (const line of [
      "memnox rewind --forget 1",
      "git for-each-ref --format='%(refname)' refs/memnox | xargs -n1 git update-ref -d",
    ]) {
      expect(await attempt(line)).not.toBe("allow");
    }
    expect(milestones()).toBe(kept);
  });
});

describe("9 and 10: persistence and memnox's own binary", () => {
  test("a .pth file in user site-packages is never written", async () => {
    const pth = join(home.home, ".local/lib/python3.12/site-packages/evil.pth");
    mkdirSync(join(pth, ".."), { recursive: true });
    await heldThenReal(
      `echo 'import os' > ${pth}`,
      () => existsSync(pth),
      () => rmSync(pth, { force: true }),
    );
  });

  test("memnox's link in ~/.local/bin stays executable", async () => {
    const link = join(home.home, ".local/bin/memnox");
    mkdirSync(join(link, ".."), { recursive: true });
    writeFileSync(link, "#!/bin/sh\n");
    chmodSync(link, 0o755);
    const lost = () => (statSync(link).mode & 0o111) === 0;
    await heldThenReal(`chmod -x ${link}`, lost, () => chmodSync(link, 0o755));
  });
});

interface Row {
  readonly id: string;
  readonly kind: string;
  readonly operation: string;
  readonly effect?: string;
  readonly parent?: string;
}

describe("11: a forged outcome", () => {
  test("a PostToolUse for a refused call is a finding verify lists, never that call's outcome", async () => {
    const id = "toolu_tg_forged";
    expect(await hook("git push --force origin main", id)).toBe("deny");
    await hookEvent("PostToolUse", {
      tool_name: "Bash",
      tool_input: { command: "git push --force origin main" },
      tool_use_id: id,
      tool_response: { stdout: "", stderr: "", interrupted: false },
    });
    const t = await runBinary("memnox", ["timeline", "--json"], { env: home.env(), cwd: repo.path });
    const rows = (JSON.parse(t.stdout) as { events: Row[] }).events;
    const refused = rows.filter(
      (r) => r.kind === "decision" && r.effect === "deny" && r.operation === "git.push-force",
    );
    const decision = refused[refused.length - 1];
    expect(decision).toBeDefined();
    expect(rows.some((r) => r.kind === "outcome" && r.parent === decision?.id)).toBe(false);
    const v = await runBinary("memnox", ["verify", "--json"], { env: home.env(), cwd: repo.path });
    const report = JSON.parse(v.stdout) as { chain: string; findings: { refused?: string; session?: string }[] };
    expect(report.chain).toBe("intact");
    expect(report.findings).toContainEqual(expect.objectContaining({ refused: decision?.id, session: SESSION }));
  });

  test("Claude Code's own failure event for a blocked call is neither an outcome nor a finding", async () => {
    const id = "toolu_tg_blocked";
    expect(await hook("git push --force origin main", id)).toBe("deny");
    const v0 = await runBinary("memnox", ["verify", "--json"], { env: home.env(), cwd: repo.path });
    const before = (JSON.parse(v0.stdout) as { findings: unknown[] }).findings.length;
    await hookEvent("PostToolUseFailure", {
      tool_name: "Bash",
      tool_input: { command: "git push --force origin main" },
      tool_use_id: id,
      error: "memnox refused this: a force-push can destroy work that exists nowhere else",
    });
    const v = await runBinary("memnox", ["verify", "--json"], { env: home.env(), cwd: repo.path });
    expect((JSON.parse(v.stdout) as { findings: unknown[] }).findings.length).toBe(before);
  });
});

describe("12: the command memnox run is handed", () => {
  test("memnox run -- git push --force origin main does not rewrite origin in enforce", async () => {
    const run = () =>
      runBinary("memnox", ["run", "--no-milestone", "--", "git", "push", "-q", "--force", "origin", "main"], {
        env: home.env(),
        cwd: repo.path,
      });
    setMode("enforce");
    const held = await run();
    expect(held.code).toBe(126);
    expect(held.stderr).toContain("refused");
    expect(originRewritten()).toBe(false);
    setMode("observe");
    try {
      expect((await run()).code).toBe(0);
      expect(originRewritten()).toBe(true);
    } finally {
      resetOrigin();
      setMode("enforce");
    }
  });
  test("bash under an agent's name is still bash: what it is handed is judged", async () => {
    const dir = tempDir("memnox-fake-agent");
    try {
      symlinkSync("/bin/bash", dir.join("claude"));
      const r = await runBinary(
        "memnox",
        ["run", "--no-milestone", "--", dir.join("claude"), "-c", "git push -q --force origin main"],
        { env: home.env(), cwd: repo.path },
      );
      expect(r.code).toBe(126);
      expect(originRewritten()).toBe(false);
    } finally {
      dir[Symbol.dispose]();
    }
  });
});

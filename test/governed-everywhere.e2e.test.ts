// Every repository is governed from the first command: after setup the baseline's destructive and outward rules are
// the machine's, so a fresh clone nobody ran setup in, and a directory outside any checkout, meet them; rules load for
// where a command acts (`git -C`, `cd X &&`), not only for where it runs. Compiled binary, real git, real bare origins.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Governed, governedMachine, pushable } from "./support/governed.ts";
import { runBinary, tempDir } from "./support/index.ts";

let g: Governed;

beforeAll(async () => {
  g = await governedMachine();
}, 60_000);

afterAll(() => g[Symbol.dispose]());

const git = (args: string[], cwd: string) => runBinary("git", args, { env: g.env({}, true), cwd });

describe("a fresh clone made after setup", () => {
  test("refuses a force push through the interceptor, and origin is unchanged", async () => {
    using origin = pushable();
    using dir = tempDir("memnox-clones");
    const clone = join(dir.path, "fresh");
    expect(Bun.spawnSync(["git", "clone", "-q", origin.remote.path, clone], { env: g.env() }).exitCode).toBe(0);
    Bun.spawnSync(["git", "-C", clone, "commit", "-q", "--amend", "--allow-empty", "-m", "rewritten"], {
      env: g.env(),
    });
    const before = origin.remoteHead();
    const r = await git(["push", "-q", "--force", "origin", "main"], clone);
    expect(r.code).toBe(126);
    expect(r.stderr).toContain("a force-push can destroy work");
    expect(r.stderr).toContain("machine.policies.toml");
    expect(existsSync(join(clone, "memnox.policies.toml"))).toBe(false);
    expect(origin.remoteHead()).toBe(before);
  });

  test("its hook answers deny too (no rule file in the clone)", async () => {
    using origin = pushable();
    const payload = {
      session_id: "ses_clone",
      cwd: origin.repo.path,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "git push --force origin main" },
      tool_use_id: "toolu_clone",
    };
    const r = await g.memnox(["hook", "claude-code", "PreToolUse"], { stdin: JSON.stringify(payload) });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });
});

describe("outside any checkout", () => {
  test("rm -rf ~ is not let through (held for a person where nobody can be asked)", async () => {
    using dir = tempDir("memnox-outside");
    const payload = {
      session_id: "ses_outside",
      cwd: dir.path,
      hook_event_name: "PreToolUse",
      permission_mode: "bypassPermissions",
      tool_name: "Bash",
      tool_input: { command: "rm -rf ~" },
      tool_use_id: "toolu_outside",
    };
    const r = await g.memnox(["hook", "claude-code", "PreToolUse"], { stdin: JSON.stringify(payload), cwd: dir.path });
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toContain("machine.policies.toml");
  });
});

describe("rules load for where a command acts", () => {
  const attempts = (repo: string) => [
    `git -C ${repo} push -q -f origin main`,
    `cd ${repo} && git push -q -f origin main`,
  ];

  test.each([0, 1])(
    "from /tmp, the baseline's force-push deny holds for the repository the line reaches (%#)",
    async (i) => {
      using origin = pushable();
      origin.diverge();
      const before = origin.remoteHead();
      using dir = tempDir("memnox-elsewhere");
      const line = attempts(origin.repo.path)[i] ?? "";
      const r = await runBinary("memnox-shell", ["-c", line], {
        env: g.env({ MEMNOX_REAL_SHELL: "/bin/bash" }),
        cwd: dir.path,
      });
      expect(r.code).toBe(126);
      expect(origin.remoteHead()).toBe(before);
    },
  );

  test("a repository's own rule (it refuses every push there) meets `git -C` and `cd &&` from elsewhere", async () => {
    using origin = pushable();
    writeFileSync(
      origin.repo.join("memnox.policies.toml"),
      [
        "version = 1",
        "[[policies]]",
        'name = "no-pushes-here"',
        "[policies.match]",
        'actions = ["git.push"]',
        "[policies.decision]",
        'effect = "deny"',
        'reason = "this repository is pushed by its release job only"',
        "",
      ].join("\n"),
    );
    origin.repo.git("commit", "-q", "--allow-empty", "-m", "more");
    const before = origin.remoteHead();
    using dir = tempDir("memnox-elsewhere");
    for (const line of [
      `git -C ${origin.repo.path} push -q origin main`,
      `cd ${origin.repo.path} && git push -q origin main`,
    ]) {
      const payload = {
        session_id: "ses_where",
        cwd: dir.path,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: line },
        tool_use_id: `toolu_${line.length}`,
      };
      const h = await g.memnox(["hook", "claude-code", "PreToolUse"], {
        stdin: JSON.stringify(payload),
        cwd: dir.path,
      });
      const out = JSON.parse(h.stdout).hookSpecificOutput;
      expect(out.permissionDecision).toBe("deny");
      expect(out.permissionDecisionReason).toContain("pushed by its release job only");
      const r = await runBinary("memnox-shell", ["-c", line], {
        env: g.env({ MEMNOX_REAL_SHELL: "/bin/bash" }),
        cwd: dir.path,
      });
      expect(r.code).toBe(126);
    }
    expect(origin.remoteHead()).toBe(before);
  });
});

describe("a machine set up by an older version", () => {
  test("update --rewire brings the baseline to the machine file, seals the mode, and leaves the repository's file alone", async () => {
    using old = tempDir("memnox-old-home");
    const home = old.path;
    const mh = join(home, ".memnox");
    mkdirSync(mh, { recursive: true });
    // What an older setup left: the secret denies in the machine file, force-push in the repository's, no seal.
    writeFileSync(join(mh, "config.toml"), 'mode = "enforce"\n');
    writeFileSync(join(mh, "machine.policies.toml"), "version = 1\n");
    writeFileSync(
      join(mh, "kept.json"),
      JSON.stringify({ version: 1, setupAt: "2026-01-01T00:00:00.000Z", hooked: [] }),
    );
    using origin = pushable();
    const repoRules = ["version = 1", "", "# the team's own rule", ""].join("\n");
    writeFileSync(origin.repo.join("memnox.policies.toml"), repoRules);
    const env = { ...g.env(), HOME: home, MEMNOX_HOME: mh };
    const r = await runBinary("memnox", ["update", "--rewire"], { env, cwd: origin.repo.path });
    expect(r.code).toBe(0);
    expect(readFileSync(join(mh, "machine.policies.toml"), "utf8")).toContain('name = "git-push-force-denied"');
    expect(JSON.parse(readFileSync(join(mh, "sealed.json"), "utf8"))).toMatchObject({ mode: "enforce" });
    expect(readFileSync(origin.repo.join("memnox.policies.toml"), "utf8")).toBe(repoRules);
    // And a clone of anything now refuses a force push.
    origin.diverge();
    const before = origin.remoteHead();
    const push = await runBinary("memnox-shell", ["-c", "git push -q -f origin main"], {
      env: { ...env, MEMNOX_REAL_SHELL: "/bin/bash" },
      cwd: origin.repo.path,
    });
    expect(push.code).toBe(126);
    expect(origin.remoteHead()).toBe(before);
  });
});

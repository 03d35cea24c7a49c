// Protected paths and secrets matched by meaning, with the compiled binary, real bash, real git and real sqlite3:
// a target spelled with a glob, a variable set earlier in the line, a substitution or a symlink made earlier in the
// same line is expanded against the filesystem at decision time. The governed shell runs what it allows, so each
// refusal is shown by the harm not happening: config.toml unchanged, the ledger intact, the key never printed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Governed, governedMachine, rows } from "./support/governed.ts";
import { type GitRepo, gitRepo } from "./support/index.ts";

const CANARY = "-----BEGIN OPENSSH PRIVATE KEY-----\ncanary-9f3e1c-never-printed\n-----END OPENSSH PRIVATE KEY-----\n";
let g: Governed;
let repo: GitRepo;
let config = "";

beforeAll(async () => {
  g = await governedMachine();
  mkdirSync(join(g.home.home, ".ssh"), { recursive: true });
  writeFileSync(join(g.home.home, ".ssh", "id_ed25519"), CANARY, { mode: 0o600 });
  mkdirSync(join(g.home.home, ".claude"), { recursive: true });
  writeFileSync(
    join(g.home.home, ".claude", "settings.json"),
    '{"hooks":{"PreToolUse":[{"hooks":[{"command":"memnox hook"}]}]}}\n',
  );
  repo = gitRepo({ "README.md": "readme\n", "memnox.policies.toml": "version = 1\n" });
  config = readFileSync(join(g.home.memnoxHome, "config.toml"), "utf8");
}, 60_000);

afterAll(() => {
  g[Symbol.dispose]();
  repo[Symbol.dispose]();
});

/** The line through memnox's governed shell, which runs it for real when the gate allows it. */
async function shell(line: string) {
  return g.memnox([], {}).then(async () => {
    const { runBinary } = await import("./support/index.ts");
    return runBinary("memnox-shell", ["-c", line], { env: g.env({ MEMNOX_REAL_SHELL: "/bin/bash" }), cwd: repo.path });
  });
}

/** The line as Claude Code's PreToolUse hook payload in bypassPermissions, where nobody answers a question. */
async function hook(tool: string, input: Record<string, unknown>) {
  const payload = {
    session_id: "ses_protected",
    cwd: repo.path,
    hook_event_name: "PreToolUse",
    permission_mode: "bypassPermissions",
    tool_name: tool,
    tool_input: input,
    tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
  };
  const r = await g.memnox(["hook", "claude-code", "PreToolUse"], { stdin: JSON.stringify(payload), cwd: repo.path });
  const out = r.stdout
    ? (JSON.parse(r.stdout) as {
        hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
      })
    : {};
  return {
    code: r.code,
    decision: out.hookSpecificOutput?.permissionDecision ?? "allow",
    reason: out.hookSpecificOutput?.permissionDecisionReason ?? "",
    raw: r.stdout + r.stderr,
  };
}

const configNow = () => readFileSync(join(g.home.memnoxHome, "config.toml"), "utf8");

describe("memnox's own files, however the path is spelled", () => {
  test.each([
    "sed -i s/enforce/off/ ~/.mem?ox/config.toml",
    "sed -i s/enforce/off/ ~/.mem*/config.toml",
    "d=.memnox; sed -i s/enforce/off/ ~/$d/config.toml",
    "d=.memnox; : > ~/$d/config.toml",
    "export D=~/.memnox; printf 'mode = \"off\"\\n' > $D/config.toml",
    "ln -sf /nonexistent ~/.mem?ox/config.toml",
    "cd ~/.memnox && sed -i s/enforce/off/ config.toml",
    "ln -s ~/.memnox /tmp/m-$$ && sed -i s/enforce/off/ /tmp/m-$$/config.toml",
    'for f in ~/.memnox/*.toml; do : > "$f"; done',
  ])("%s is refused and config.toml is unchanged", async (line) => {
    const r = await shell(line);
    expect(r.code).toBe(126);
    // The baseline's rule on memnox's home and memnox's own protection say the same; a rule speaks on a tie.
    expect(r.stderr).toMatch(/decide whether agents on this machine are governed/);
    expect(lstatSync(join(g.home.memnoxHome, "config.toml")).isFile()).toBe(true);
    expect(configNow()).toBe(config);
  });

  test("sqlite3 on the ledger is a write of memnox's files: refused, and every row is still there", async () => {
    const before = (await rows(g)).length;
    const r = await shell(`sqlite3 ~/.memnox/memnox.db 'drop trigger if exists events_no_update; delete from events'`);
    expect(r.code).toBe(126);
    expect((await rows(g)).length).toBeGreaterThanOrEqual(before);
    const v = await g.memnox(["verify"]);
    expect(v.code).toBe(0);
  });

  test("an agent's hook file is refused: the memnox hook stays in ~/.claude/settings.json", async () => {
    const settings = readFileSync(join(g.home.home, ".claude", "settings.json"), "utf8");
    const r = await shell("sed -i /memnox/d ~/.claude/settings.json");
    expect(r.code).toBe(126);
    expect(readFileSync(join(g.home.home, ".claude", "settings.json"), "utf8")).toBe(settings);
  });

  test("typed as memnox commands through the hook, each is refused before it runs, and nothing tells the agent how to approve", async () => {
    for (const command of [
      "memnox stop --for 24h",
      "memnox config set mode off",
      "memnox approve a_123",
      "memnox uninstall --yes",
    ]) {
      const h = await hook("Bash", { command });
      expect(h.decision).toBe("deny");
      expect(h.reason).toContain("nothing an agent runs may loosen the governance it runs under");
      expect(h.raw).not.toMatch(/memnox approve a_|memnox approve <|run `memnox approve/);
    }
  });
});

describe("what a person reviews in a diff, or git runs by itself, asks", () => {
  test.each([
    ["Bash", { command: "printf 'version = 1\\n' > memnox.policies.toml" }],
    ["Write", { file_path: "memnox.policies.toml", content: "version = 1\n" }],
    ["Bash", { command: "git config --global core.hooksPath /dev/null" }],
    ["Bash", { command: "printf '#!/bin/sh\\n' > .git/hooks/pre-push" }],
  ])("%s %j is held for a person (refused where nobody can be asked)", async (tool, input) => {
    const h = await hook(tool, input);
    expect(h.decision).toBe("deny");
    expect(h.reason).toContain("a person must say yes first");
    expect(h.reason).toContain("who answers it from their own terminal");
    expect(h.raw).not.toContain("memnox approve");
    expect(readFileSync(repo.join("memnox.policies.toml"), "utf8")).toBe("version = 1\n");
  });
});

describe("secret reads, by meaning", () => {
  test.each([
    "cat ~/.ssh/id_ed25519",
    "cat ~/.ss?/id_*",
    "cat ~/.[s]sh/id_ed25519",
    "d=.ssh; cat ~/$d/id_ed25519",
    "ln -s ~/.ssh /tmp/s-$$ && cat /tmp/s-$$/id_ed25519",
    "cp -r ~/.ssh /tmp/c-$$ && cat /tmp/c-$$/id_ed25519",
    'for k in ~/.ssh/id_*; do cat "$k"; done',
  ])("%s is refused and the key is never printed", async (line) => {
    const r = await shell(line);
    expect(r.code).toBe(126);
    expect(r.stdout + r.stderr).not.toContain("canary-9f3e1c");
  });

  test("a substitution that spells the key is refused outright", async () => {
    const r = await shell("cat $(printf %s ~/.ssh/id_ed25519)");
    expect(r.code).toBe(126);
    expect(r.stdout + r.stderr).not.toContain("canary-9f3e1c");
  });

  test("a read of a substitution memnox cannot expand asks rather than being refused, and the key is never printed", async () => {
    writeFileSync(repo.join("list.txt"), `${join(g.home.home, ".ssh", "id_ed25519")}\n`);
    const h = await hook("Bash", { command: "cat $(cat list.txt)" });
    expect(h.decision).toBe("deny");
    expect(h.reason).toContain("could be");
    expect(h.reason).toContain("a person must say yes first");
    expect(h.raw).not.toContain("canary-9f3e1c");
  });

  test("the local loop still reads: a known loop over repository files runs, a lone unknown `$f` asks (not a refusal)", async () => {
    const r = await shell('for f in *.md; do cat "$f"; done');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("readme");
    const check = await g.memnox(["check", 'cat "$f"', "--json"], { cwd: repo.path });
    expect(JSON.parse(check.stdout).effect).toBe("ask");
  });
});

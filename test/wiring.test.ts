// doctor --wiring, read from the configuration: one line per seam, each failing one with the command that fixes it.

import { describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runCommand } from "citty";
import { verbTables } from "../src/resolve/index.ts";
import { setupWith } from "../src/seams/cli/commands/setup.ts";
import { writeEgress } from "../src/state/egress.ts";
import { writeStop } from "../src/state/stop.ts";
import { wiringReport } from "../src/wire/wiring.ts";
import type { WiringLine } from "../src/wire/wiring-lines.ts";
import { type FakeHome, fakeHome, fixtureTree, gitRepo, tempDir, testContext } from "./support/index.ts";
import { fakeSocket } from "./support/scan-machine.ts";

const byseam = (lines: readonly WiringLine[]) => Object.fromEntries(lines.map((l) => [l.seam, l]));

function machine() {
  const home = fakeHome({
    ...fixtureTree("homes", "claude-code"),
    ...fixtureTree("homes", "codex"),
    ...fixtureTree("homes", "gemini-cli"),
  });
  const path = tempDir("memnox-path");
  symlinkSync(Bun.which("git") ?? "/usr/bin/git", path.join("git"));
  const repo = gitRepo({ "a.txt": "a" });
  return {
    home,
    repo,
    env: { PATH: path.path },
    [Symbol.dispose]() {
      for (const d of [home, path, repo]) d[Symbol.dispose]();
    },
  };
}

async function setup(home: FakeHome, cwd: string, env: Record<string, string>) {
  const { ctx } = testContext(home, { cwd, env });
  const asker = () => ({ ask: async () => ({ kind: "eof" as const }) });
  await runCommand(setupWith(asker, verbTables)(ctx), { rawArgs: ["--yes", "--json"] });
}

describe("doctor --wiring", () => {
  test("before setup: nothing gates, and each line names its fix", async () => {
    using home = fakeHome();
    const lines = byseam(await wiringReport(testContext(home, { env: { PATH: "/nonexistent" } }).ctx));
    expect(lines.config).toEqual({
      seam: "config",
      status: "ok",
      words: "mode is observe — verdicts are recorded and nothing is denied",
    });
    expect(lines.rules).toMatchObject({ status: "warn", fix: "memnox protect --yes" });
    expect(lines.interceptors).toMatchObject({ status: "fail", fix: "memnox protect --interceptors" });
    expect(lines.path?.status).toBe("idle");
    expect(lines.proxy?.status).toBe("idle");
    expect(lines.daemon).toMatchObject({
      status: "ok",
      words: "not running: the seams decide in process on the same rules",
    });
    expect(lines.ledger).toMatchObject({
      status: "idle",
      words: 'nothing recorded yet, so "memnox why" has nothing to explain',
    });
  });

  test("after setup: rules with their hash, interceptors behind PATH, each agent's hook and whether it runs", async () => {
    using m = machine();
    await setup(m.home, m.repo.path, m.env);
    const lines = byseam(await wiringReport(testContext(m.home, { cwd: m.repo.path, env: m.env }).ctx));
    expect(lines.rules?.status).toBe("ok");
    // The machine's baseline and the repository's own file setup wrote beside it.
    expect(lines.rules?.words).toMatch(
      /^\d+ rule\(s\) from memnox\.policies\.toml, machine\.policies\.toml · v[0-9a-f]{12}$/,
    );
    expect(lines.interceptors).toMatchObject({ status: "ok", words: "1 installed" });
    expect(lines.path).toMatchObject({
      status: "warn",
      fix: 'start the agent with "memnox run -- <agent>", which sets PATH for it',
    });
    expect(lines["hooks:claude-code"]).toMatchObject({ status: "warn" });
    expect(lines["hooks:claude-code"]?.fix).toContain("accept the trust dialog");
    expect(lines["hooks:codex"]).toMatchObject({
      status: "warn",
      fix: "run `codex`, type /hooks and trust memnox's hooks",
    });
    expect(lines["hooks:gemini-cli"]).toMatchObject({
      status: "ok",
      words: "Gemini CLI: hooked (active from the next Gemini CLI session)",
    });
    expect(lines["hooks:cursor"]).toBeUndefined();
    // Whether each agent's shell commands meet the interceptors, by its own mechanism or the PATH it inherits.
    expect(lines["commands:claude-code"]).toMatchObject({ status: "warn" });
    expect(lines["commands:claude-code"]?.words).toContain("only once its hooks run");
    expect(lines["commands:claude-code"]?.fix).toContain("accept the trust dialog");
    // Codex by the BASH_ENV setup names in its shell policy, Gemini CLI by memnox's hook rewriting each command.
    expect(lines["commands:codex"]).toMatchObject({ status: "ok" });
    expect(lines["commands:codex"]?.words).toContain("every command Codex runs starts with the interceptors first");
    expect(lines["commands:gemini-cli"]).toMatchObject({ status: "ok" });
    expect(lines["commands:cursor"]).toBeUndefined();
    // A shell that does not read BASH_ENV: Codex's own mechanism fails, and its fix is said.
    const zshLines = await wiringReport(
      testContext(m.home, { cwd: m.repo.path, env: { ...m.env, SHELL: "/bin/zsh" } }).ctx,
    );
    const zsh = byseam(zshLines);
    expect(zsh["commands:codex"]).toMatchObject({ status: "warn" });
    expect(zsh["commands:codex"]?.words).toContain("which does not read BASH_ENV");
    // One line per agent, whichever mechanism speaks for it.
    expect(zshLines.filter((l) => l.seam === "commands:codex")).toHaveLength(1);
    expect(lines["git-hooks"]).toMatchObject({ status: "idle", fix: "memnox protect --hooks" });
    expect(lines.proxy).toMatchObject({ status: "ok", words: "all 3 MCP server(s) routed through the proxy" });
    expect(lines.session).toMatchObject({ status: "ok", words: "memnox-session in Claude Code, Codex, Gemini CLI" });
    expect(lines.ledger?.status).toBe("ok");
    // Set up from source: the links start bun with this checkout, so no stable copy is missing.
    expect(lines.app).toBeUndefined();

    const ahead = byseam(
      await wiringReport(
        testContext(m.home, {
          cwd: m.repo.path,
          env: { SHELL: "/bin/zsh", PATH: `${join(m.home.memnoxHome, "bin")}:${m.env.PATH}` },
        }).ctx,
      ),
    );
    expect(ahead.path?.status).toBe("ok");
    expect(ahead["commands:codex"]).toMatchObject({ status: "ok" });
    expect(ahead["commands:codex"]?.words).toContain("inherit a PATH with");

    // Claude Code trusting the repository runs memnox's SessionStart hook: its Bash commands meet the interceptors.
    const state = join(m.home.home, ".claude.json");
    writeFileSync(state, JSON.stringify({ projects: { [m.repo.path]: { hasTrustDialogAccepted: true } } }));
    const trusted = byseam(await wiringReport(testContext(m.home, { cwd: m.repo.path, env: m.env }).ctx));
    expect(trusted["commands:claude-code"]).toMatchObject({ status: "ok" });
    expect(trusted["commands:claude-code"]?.words).toContain("SessionStart hook puts");
  });

  test("a stopped machine, a broken rule file, a vanished binary and a dead socket each fail with their fix", async () => {
    using m = machine();
    const app = join(m.home.memnoxHome, "app", "memnox");
    mkdirSync(dirname(app), { recursive: true });
    writeFileSync(app, "#!/bin/sh\n", { mode: 0o755 });
    await setup(m.home, m.repo.path, m.env);
    rmSync(app);
    writeStop(join(m.home.memnoxHome, "stop.json"), {
      stoppedAt: "2026-11-30T11:00:00.000Z",
      until: "2026-11-30T14:00:00.000Z",
      by: "Ana",
      reason: "demo",
      mode: "observe",
    });
    writeFileSync(m.repo.join("memnox.policies.toml"), "version = 1\n[[policies]]\nname = 3\n");
    writeFileSync(join(m.home.memnoxHome, "memnox.sock"), "");
    const lines = byseam(await wiringReport(testContext(m.home, { cwd: m.repo.path, env: m.env }).ctx));
    expect(lines.config).toMatchObject({ status: "fail", fix: "memnox start" });
    expect(lines.config?.words).toContain("protection is stopped by Ana until 2026-11-30T14:00:00.000Z (demo)");
    expect(lines.rules).toMatchObject({ status: "fail", fix: "memnox policy check" });
    expect(lines.app).toMatchObject({ status: "fail", fix: "memnox setup" });
    expect(lines.interceptors).toMatchObject({ status: "fail", fix: "memnox setup" });
    expect(lines["hooks:gemini-cli"]).toMatchObject({ status: "fail", fix: "memnox setup" });
    expect(lines["hooks:gemini-cli"]?.words).toContain(`starts ${app}, which is gone`);
    expect(lines.proxy).toMatchObject({ status: "fail", fix: "memnox mcp wrap" });
    expect(lines.daemon).toMatchObject({ status: "warn", fix: "memnox daemon --background" });
  });

  test("a daemon answering ping is answering; a socket that accepts but never answers is not", async () => {
    using home = fakeHome();
    const sock = join(home.memnoxHome, "memnox.sock");
    const silent = Bun.listen({ unix: sock, socket: { data() {} } });
    try {
      const lines = byseam(await wiringReport(testContext(home).ctx));
      expect(lines.daemon?.status).toBe("warn");
    } finally {
      silent.stop(true);
    }
    await using _daemon = await fakeSocket(sock);
    const lines = byseam(await wiringReport(testContext(home).ctx));
    expect(lines.daemon).toEqual({ seam: "daemon", status: "ok", words: `answering on ${sock}` });
  });

  test("egress: where the proxy listens, and what it cannot see either way", async () => {
    using home = fakeHome();
    const { ctx } = testContext(home);
    const blind = ["ignores HTTP_PROXY/HTTPS_PROXY/ALL_PROXY", "path, headers and body of an HTTPS request"];
    const idle = byseam(await wiringReport(ctx)).egress;
    expect(idle?.status).toBe("idle");
    expect(idle?.words).toContain("memnox run starts one of its own");
    for (const b of blind) expect(idle?.words).toContain(b);
    writeEgress(ctx.paths, { host: "127.0.0.1", port: 8888, pid: process.pid, startedAt: "" });
    await using _daemon = await fakeSocket(ctx.paths.sock);
    const ok = byseam(await wiringReport(ctx)).egress;
    expect(ok?.status).toBe("ok");
    expect(ok?.words).toContain("listens on http://127.0.0.1:8888");
    for (const b of blind) expect(ok?.words).toContain(b);
  });
});

// memnox setup and uninstall on a fake machine with all five agents: every seam wired through its own module, a
// second run changes nothing, and uninstall gives every file back byte for byte.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { runCommand } from "citty";
import { AGENTS } from "../hooks/types.ts";
import { verbTables } from "../src/resolve/index.ts";
import { setupWith } from "../src/seams/cli/commands/setup.ts";
import { run } from "../src/seams/cli/index.ts";
import type { Reply } from "../src/seams/cli/prompt.ts";
import { readConfig } from "../src/state/config.ts";
import { codexTrust } from "../src/wire/hooks/codex-trust.ts";
import { codexConfig, trustAsCodexDoes } from "./support/codex.ts";
import { type FakeHome, fakeHome, fixtureTree, gitRepo, tempDir, testContext } from "./support/index.ts";

const MACHINE = {
  ...fixtureTree("homes", "claude-code"),
  ...fixtureTree("homes", "codex"),
  ...fixtureTree("homes", "gemini-cli"),
  ...fixtureTree("homes", "cursor"),
  ...fixtureTree("homes", "windsurf"),
  ...fixtureTree("homes", "copilot-cli"),
  ...fixtureTree("homes", "opencode"),
};

/** What the background daemon writes as it runs: its record, not wiring. */
const DAEMON_OWN = new Set([
  "daemon.log",
  "daemon.out.log",
  "daemon.pid",
  "keeper.json",
  "egress.json",
  "memnox.db",
  "memnox.db-wal",
  "memnox.db-shm",
  "ledger-tip.json",
  "memnox.sock",
]);

/** Every file under `root` as bytes (base64), optionally leaving one folder out; the last scan is a record, not wiring. */
function snapshot(root: string, skip?: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (p === skip || name === "scan.json" || DAEMON_OWN.has(name)) continue;
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p)] = readFileSync(p).toString("base64");
    }
  };
  walk(root);
  return out;
}

function machine() {
  const home = fakeHome(MACHINE);
  const path = tempDir("memnox-path");
  for (const n of ["git", "rm", "curl"]) writeFileSync(path.join(n), "#!/bin/sh\n", { mode: 0o755 });
  const repo = gitRepo({ "README.md": "hi\n" });
  const env = { PATH: path.path, SHELL: "/bin/bash" };
  return {
    home,
    repo,
    env,
    [Symbol.dispose]() {
      home[Symbol.dispose]();
      path[Symbol.dispose]();
      repo[Symbol.dispose]();
    },
  };
}

const said: string[] = [];

async function setup(
  home: FakeHome,
  cwd: string,
  env: Record<string, string>,
  args: string[],
  opts: { tty?: boolean; answers?: (string | Reply)[] } = {},
) {
  const { ctx, io } = testContext(home, { args, cwd, env, tty: opts.tty ?? false });
  const answers = [...(opts.answers ?? [])];
  const asked: string[] = [];
  const asker = () => ({
    ask: async (q: string): Promise<Reply> => {
      asked.push(q);
      const a = answers.shift();
      return a === undefined ? { kind: "eof" } : typeof a === "string" ? { kind: "line", text: a } : a;
    },
  });
  const { result } = await runCommand(setupWith(asker, verbTables)(ctx), { rawArgs: args });
  said.push(io.stdout(), io.stderr());
  return { code: result as number, out: io.stdout(), err: io.stderr(), asked };
}

async function cli(home: FakeHome, cwd: string, env: Record<string, string>, args: string[]) {
  const { ctx, io } = testContext(home, { args, cwd, env });
  const code = await run(ctx);
  said.push(io.stdout(), io.stderr());
  return { code, out: io.stdout(), err: io.stderr() };
}

describe("memnox setup", () => {
  test("--yes wires every seam for the five agents, says what each agent runs, and a second run changes nothing", async () => {
    using m = machine();
    const r = await setup(m.home, m.repo.path, m.env, ["--yes", "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.wired).toBe(true);
    expect(j.reach.agents.map((a: { agent: string }) => a.agent)).toEqual([...AGENTS]);
    expect(j.hooks.map((h: { agent: string; status: string }) => [h.agent, h.status])).toEqual(
      AGENTS.map((a) => [a, "added"]),
    );
    const trust = Object.fromEntries(
      j.hooks.map((h: { agent: string; trust: { active: boolean } }) => [h.agent, h.trust.active]),
    );
    expect(trust).toEqual({
      "claude-code": false,
      codex: false,
      "gemini-cli": true,
      cursor: true,
      windsurf: true,
      "copilot-cli": true,
      opencode: true,
    });
    expect(j.interceptors.installed).toEqual(["git", "rm", "curl"]);
    expect(j.mcp.counts).toEqual({ wrapped: 5 });
    expect(j.session.files.map((s: { client: string; status: string }) => [s.client, s.status])).toEqual(
      ["claude-code", "codex", "cursor", "gemini-cli", "windsurf"].map((c) => [c, "added"]),
    );
    expect(j.rules.machine.added).toEqual(expect.arrayContaining(["git-push-force-denied", "ssh-keys-not-read"]));
    // The baseline is the machine's; the repository gets the team's own five rules, commented, to review in a diff.
    expect(j.rules.repository).toBeUndefined();
    expect(j.team).toMatchObject({ created: true, path: m.repo.join("memnox.policies.toml") });
    expect(j.team.added).toHaveLength(5);
    const team = readFileSync(m.repo.join("memnox.policies.toml"), "utf8");
    expect(team).toContain("# main is the history everyone here builds on");
    expect(team).toContain('name = "main-history-not-rewritten"');
    const check = await cli(m.home, m.repo.path, m.env, ["policy", "check"]);
    expect(check.out).toContain(`${m.repo.join("memnox.policies.toml")}  (repository)  5 rule(s)  ok`);
    expect(check.out).toContain("machine.policies.toml  (machine)");
    expect(JSON.parse(readFileSync(join(m.home.memnoxHome, "sealed.json"), "utf8"))).toMatchObject({ mode: "observe" });
    expect(j.mode).toEqual({ mode: "observe", changed: false });
    // No user service manager on this PATH: the daemon runs in the background instead, and no unit file is left.
    expect(j.daemon).toMatchObject({ status: "done" });
    expect(j.daemon.words).toContain("runs in the background");
    expect(existsSync(m.home.join(".config", "systemd"))).toBe(false);
    expect(JSON.parse(readFileSync(join(m.home.memnoxHome, "daemon.pid"), "utf8"))).toBeGreaterThan(1);
    expect(j.waiting.map((w: { what: string }) => w.what)).toEqual(["Claude Code's hook", "Codex's hook"]);
    expect(j.kept).toMatchObject({ hooked: [...AGENTS], takenOut: [], wrapNewMcpServers: true, sessionServer: true });
    expect(j.path).toMatchObject({ ahead: false, added: false, profile: m.home.join(".profile") });
    expect(j.nothingLeft).toBe(true);
    expect(j.changed).toBe(true);

    const first = snapshot(m.home.home);
    const again = await setup(m.home, m.repo.path, m.env, ["--yes", "--json"]);
    expect(JSON.parse(again.out).changed).toBe(false);
    expect(snapshot(m.home.home)).toEqual(first);
    const ledger = ["memnox.db", "memnox.db-wal"].map((f) => join(m.home.memnoxHome, f)).filter(existsSync);
    expect(ledger.length).toBeGreaterThan(0);
    for (const f of ledger) expect(readFileSync(f).toString("latin1")).not.toContain("canary");

    const human = await setup(m.home, m.repo.path, m.env, ["--yes"]);
    expect(human.out).toContain("AI AGENTS           claude-code, cursor, codex, gemini-cli, windsurf");
    expect(human.out).toContain("can change something outside this laptop");
    expect(human.out).toContain("Codex: installed, not active until you trust it in Codex");
    expect(human.out).toContain("→ run `codex`, type /hooks and trust memnox's hooks");
    expect(human.out).toContain("Gemini CLI: hooked");
    expect(human.out).toContain("add this line to ~/.profile");
    expect(human.out).toContain("Nothing left this machine: no account, no key, no network call.");
    expect(human.out).toContain("Waiting on you: Claude Code's hook, Codex's hook.");
    expect(human.out).toContain(
      "Next: memnox status · memnox doctor --prove · memnox config set mode enforce · memnox login · memnox uninstall",
    );
  });

  test("uninstall gives every file back byte for byte; --purge also deletes ~/.memnox", async () => {
    using m = machine();
    const before = snapshot(m.home.home, m.home.memnoxHome);
    await setup(m.home, m.repo.path, m.env, ["--yes"]);
    expect(snapshot(m.home.home, m.home.memnoxHome)).not.toEqual(before);
    const r = await cli(m.home, m.repo.path, m.env, ["uninstall", "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(
      j.hooks.filter((h: { status: string }) => h.status !== "missing").map((h: { status: string }) => h.status),
    ).toEqual(AGENTS.map(() => "restored"));
    expect(j.kept).toBe(true);
    expect(snapshot(m.home.home, m.home.memnoxHome)).toEqual(before);
    expect(existsSync(join(m.home.memnoxHome, "bin"))).toBe(false);
    expect(existsSync(join(m.home.memnoxHome, "kept.json"))).toBe(false);
    expect(existsSync(join(m.home.memnoxHome, "machine.policies.toml"))).toBe(true);
    // A file that held the wrapping and the session server: nobody changed it, and the report does not say so.
    const claude = (f: { client: string }) => f.client === "claude-code";
    expect(j.mcp.files.find(claude)).toMatchObject({ status: "removed", sharedWith: ["mcp-session"] });
    expect(j.session.files.find(claude)).toMatchObject({ status: "restored" });

    const second = machine();
    using _second = second;
    await setup(second.home, second.repo.path, second.env, ["--yes"]);
    const words = await cli(second.home, second.repo.path, second.env, ["uninstall"]);
    expect(words.out).not.toContain("changed since memnox wrote it");
    expect(words.out).toContain(
      "Claude Code: ~/.claude.json took out only memnox's entries: memnox's session server is still in it, and the original bytes come back when that goes too",
    );
    expect(words.out).toContain("Claude Code: ~/.claude.json restored byte for byte from the backup");
    const human = await cli(m.home, m.repo.path, m.env, ["uninstall", "--purge"]);
    expect(human.out).toContain("purged        ~/.memnox deleted, history and rules included");
    expect(existsSync(m.home.memnoxHome)).toBe(false);
  });

  test("after `mcp session off`, uninstall still gives every agent's file back, Codex's config.toml included", async () => {
    using m = machine();
    const before = snapshot(m.home.home, m.home.memnoxHome);
    await setup(m.home, m.repo.path, m.env, ["--yes"]);
    const off = await cli(m.home, m.repo.path, m.env, ["mcp", "session", "off"]);
    expect(off.code).toBe(0);
    const r = await cli(m.home, m.repo.path, m.env, ["uninstall"]);
    expect(r.out).not.toContain("refused");
    expect(r.code).toBe(0);
    expect(snapshot(m.home.home, m.home.memnoxHome)).toEqual(before);
  });

  test("Codex with no MCP server of its own, trusted in /hooks, then `mcp session off`: uninstall gives config.toml back byte for byte", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "a.txt": "a" });
    const env = { PATH: process.env.PATH ?? "" };
    const config = codexConfig(home.home, "http://127.0.0.1:9/v1");
    const before = readFileSync(config, "utf8");
    expect((await setup(home, repo.path, env, ["--yes"])).code).toBe(0);
    // Codex's /hooks writes a trust record per handler, keyed and hashed as Codex does (test/codex.trust.test.ts).
    const hooksFile = home.join(".codex", "hooks.json");
    const trust = codexTrust(hooksFile, JSON.parse(readFileSync(hooksFile, "utf8")), {}, () => true);
    trustAsCodexDoes(
      home.home,
      trust.map((t) => ({ key: t.key, currentHash: t.currentHash })),
    );
    expect((await cli(home, repo.path, env, ["mcp", "session", "off"])).code).toBe(0);
    const r = await cli(home, repo.path, env, ["uninstall"]);
    expect(r.out).not.toContain("refused");
    expect(r.code).toBe(0);
    expect(readFileSync(config, "utf8")).toBe(before);
  });

  test("a person's edit after setup survives uninstall: only memnox's entries go, and it says so", async () => {
    using m = machine();
    await setup(m.home, m.repo.path, m.env, ["--yes"]);
    const file = m.home.join(".cursor", "hooks.json");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        '"afterFileEdit"',
        '"stop": [{ "command": "./done.sh" }],\n    "afterFileEdit"',
      ),
    );
    const r = await cli(m.home, m.repo.path, m.env, ["uninstall"]);
    expect(r.out).toContain(
      "Cursor: ~/.cursor/hooks.json took out only memnox's entries: the file changed since memnox wrote it",
    );
    const left = readFileSync(file, "utf8");
    expect(left).toContain("./done.sh");
    expect(left).not.toContain("hook cursor");
    expect(JSON.parse(left)).toEqual({
      version: 1,
      hooks: { stop: [{ command: "./done.sh" }], afterFileEdit: [{ command: "./hooks/format.sh" }] },
    });
  });

  test("with no terminal and no --yes nothing is wired, and it says why", async () => {
    using m = machine();
    const before = snapshot(m.home.home, join(m.home.memnoxHome, "app"));
    const r = await setup(m.home, m.repo.path, m.env, []);
    expect(r.code).toBe(1);
    expect(r.out).toContain("nothing was wired: there is no terminal to ask, and --yes was not given");
    expect(r.asked).toEqual([]);
    expect(snapshot(m.home.home, join(m.home.memnoxHome, "app"))).toEqual(before);
  });

  test("at a terminal one question decides: no, Ctrl-C and end of input change nothing; p also writes the login PATH", async () => {
    using m = machine();
    const before = snapshot(m.home.home);
    const no = await setup(m.home, m.repo.path, m.env, [], { tty: true, answers: ["n"] });
    expect(no.code).toBe(0);
    expect(no.out).toContain("nothing was wired: you said no");
    const cancel = await setup(m.home, m.repo.path, m.env, [], { tty: true, answers: [{ kind: "cancel" }] });
    expect(cancel.code).toBe(130);
    expect(cancel.out).toContain("cancelled: nothing on this machine was changed");
    const eof = await setup(m.home, m.repo.path, m.env, [], { tty: true, answers: [] });
    expect(eof.code).toBe(1);
    expect(eof.out).toContain("no answer (end of input): nothing on this machine was changed");
    // Not one file written by any of the three: no app copy, no scan kept, no probe cache, no ledger.
    expect(snapshot(m.home.home)).toEqual(before);
    expect(existsSync(m.repo.join("memnox.policies.toml"))).toBe(false);
    expect(no.asked).toHaveLength(1);
    expect(no.asked[0]).toContain("Put them under memnox?");
    expect(no.asked[0]).toContain("[Y/p/n]");
    expect(no.asked[0]).toContain("about 60 ms a call");

    const path = await setup(m.home, m.repo.path, m.env, [], { tty: true, answers: ["maybe", "p"] });
    expect(path.code).toBe(0);
    expect(path.asked).toEqual([expect.stringContaining("Put them under memnox?"), "y, p or n? "]);
    expect(readFileSync(m.home.join(".profile"), "utf8")).toBe(
      'export PATH="$HOME/.memnox/bin:$PATH"  # memnox: interceptors first (memnox uninstall removes this line)\n',
    );
    const again = await setup(m.home, m.repo.path, m.env, [], { tty: true, answers: [""] });
    expect(again.asked[0]).toContain("[Y/n]");
    expect(again.code).toBe(0);
    await cli(m.home, m.repo.path, m.env, ["uninstall"]);
    expect(existsSync(m.home.join(".profile"))).toBe(false);
  });

  test("--enforce starts in enforce; a hook a person took out stays out on the next setup", async () => {
    using m = machine();
    const r = await setup(m.home, m.repo.path, m.env, ["--yes", "--enforce", "--json"]);
    expect(JSON.parse(r.out).mode).toEqual({ mode: "enforce", changed: true });
    expect(readConfig(join(m.home.memnoxHome, "config.toml")).mode).toBe("enforce");
    const out = await cli(m.home, m.repo.path, m.env, ["protect", "--revert-claude-hook", "--json"]);
    expect(out.code).toBe(0);
    const again = JSON.parse((await setup(m.home, m.repo.path, m.env, ["--yes", "--json"])).out);
    expect(again.hooks.map((h: { agent: string }) => h.agent)).not.toContain("claude-code");
    expect(again.keptOut).toEqual([{ agent: "claude-code", fix: "memnox protect --claude-hook" }]);
    expect(readFileSync(m.home.join(".claude", "settings.json"), "utf8")).not.toContain("hook claude-code");
    const back = JSON.parse((await cli(m.home, m.repo.path, m.env, ["protect", "--claude-hook", "--json"])).out);
    expect(back).toMatchObject({ status: "added", kept: "updated" });
    expect(JSON.parse(readFileSync(join(m.home.memnoxHome, "kept.json"), "utf8")).takenOut).toEqual([]);
    expect(readFileSync(m.home.join(".claude", "settings.json"), "utf8")).toContain("hook claude-code PreToolUse");
  });

  test("--purge refuses a MEMNOX_HOME that is not plainly memnox's own, before changing anything", async () => {
    using home = fakeHome();
    const { ctx } = testContext(home, { args: ["uninstall", "--purge"], env: { MEMNOX_HOME: home.home } });
    await expect(run(ctx)).rejects.toThrow(/does not look like memnox's own directory/);
    expect(existsSync(home.home)).toBe(true);
  });

  test("no credential value reaches any output", () => {
    expect(said.join("\n")).not.toContain("canary");
  });
});

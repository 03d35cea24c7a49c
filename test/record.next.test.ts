// `memnox next` over a ledger Claude Code's hook calls built across a week: what was approved five times on several
// days is recommended, one refusal drops it, a force push never is; `--hand-over` writes rules (backed up, read back,
// diffed) under which the compiled binary's hook lets the next such call through, and the force push still asks.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeHome, gitRepo, runBinary } from "./support/index.ts";
import { askedAndAnswered, type Claude, cli, DAY, enforce, payloads } from "./support/record.ts";
import { scanHome } from "./support/scan-machine.ts";

const RULES = [
  "version = 1",
  "",
  "[[policies]]",
  'name = "prod-config-asked"',
  "[policies.match]",
  'actions = ["filesystem.read", "filesystem.write"]',
  'targets = ["config/prod.yml", "CHANGELOG.md"]',
  "[policies.decision]",
  'effect = "ask"',
  'reason = "production settings and the changelog are looked at by a person first"',
  "",
  "[[policies]]",
  'name = "force-push-asked"',
  "[policies.match]",
  'actions = ["git.push-force"]',
  "[policies.decision]",
  'effect = "ask"',
  'reason = "a force push rewrites history"',
  "",
].join("\n");

const home = fakeHome();
const repo = gitRepo({ "memnox.policies.toml": RULES, "config/prod.yml": "replicas: 3\n", "CHANGELOG.md": "# log\n" });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});
enforce(home);

const START = Date.parse("2026-11-20T09:00:00.000Z");
const claude: Claude = { session: "3f0c2a9e-claude-next", cwd: repo.path };
const readProd = (id: string) => ({ tool: "Read", input: { file_path: repo.join("config/prod.yml") }, id });
const writeLog = (id: string) => ({
  tool: "Write",
  input: { file_path: repo.join("CHANGELOG.md"), content: "# log\n- more\n" },
  id,
});
const forcePush = (id: string) => ({
  tool: "Bash",
  input: { command: "git push --force origin main", description: "push" },
  id,
});

describe("memnox next, read off a week of real hook calls", () => {
  test("every call asked, and the person said yes five times over five days", async () => {
    for (let d = 0; d < 5; d++) {
      const at = START + d * DAY;
      expect(await askedAndAnswered(home, claude, readProd(`toolu_read_${d}`), true, at)).toBe("ask");
      expect(await askedAndAnswered(home, claude, writeLog(`toolu_log_${d}`), true, at + 60_000)).toBe("ask");
      expect(await askedAndAnswered(home, claude, forcePush(`toolu_push_${d}`), true, at + 120_000)).toBe("ask");
    }
  });

  test("what was approved five times on five days is ready; a force push never is, however routine", async () => {
    const r = (await cli(home, ["next", "--json"], START + 5 * DAY, repo.path)).json();
    expect(r.thresholds).toEqual({ approvals: 5, days: 3 });
    const ready = r.ready.map((i: { action: string; targets: string[] }) => `${i.action} ${i.targets.join(" ")}`);
    expect(ready).toEqual([
      `filesystem.read ${repo.join("config/prod.yml")}`,
      `filesystem.write ${repo.join("CHANGELOG.md")}`,
    ]);
    const item = r.ready[0];
    expect(item).toMatchObject({ approvals: 5, days: 5, refusals: 0, lastRefusalAt: null, status: "ready" });
    expect(item.rule).toEqual({ name: "prod-config-asked", file: repo.join("memnox.policies.toml") });
    expect(item.agents).toEqual(["claude-code"]);
    const push = r.kept.find((i: { action: string }) => i.action === "git.push-force");
    expect(push).toMatchObject({ status: "never", approvals: 5, class: "destructive" });
    expect(JSON.stringify(r.ready)).not.toContain("git.push-force");
    const human = (await cli(home, ["next"], START + 5 * DAY, repo.path)).out;
    expect(human).toContain("WHAT YOU COULD STOP BEING ASKED ABOUT");
    expect(human).toContain("destructive: never handed over, however routine");
  });

  test("one refusal in the agent's own prompt drops the recommendation", async () => {
    const at = START + 5 * DAY + 3_600_000;
    expect(await askedAndAnswered(home, claude, writeLog("toolu_log_no"), false, at)).toBe("ask");
    const r = (await cli(home, ["next", "--json"], at + 60_000, repo.path)).json();
    expect(r.ready.map((i: { action: string }) => i.action)).toEqual(["filesystem.read"]);
    const log = r.kept.find((i: { action: string }) => i.action === "filesystem.write");
    expect(log).toMatchObject({ status: "refused", approvals: 5, refusals: 1 });
    expect(log.lastRefusalAt).toBe(new Date(at + 1000).toISOString());
  });

  test("--hand-over writes a rule that lets the next such call through, and nothing else", async () => {
    const at = START + 6 * DAY;
    const before = readFileSync(repo.join("memnox.policies.toml"), "utf8");
    const dry = await cli(home, ["next", "--hand-over", "--json"], at, repo.path);
    expect(dry.code).toBe(1);
    expect(dry.json().written).toEqual([]);
    expect(readFileSync(repo.join("memnox.policies.toml"), "utf8")).toBe(before);

    const r = await cli(home, ["next", "--hand-over", "--yes", "--json"], at, repo.path);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.written).toEqual([repo.join("memnox.policies.toml")]);
    expect(out.handedOver).toHaveLength(1);
    expect(out.handedOver[0]).toMatchObject({ action: "filesystem.read", relaxes: "prod-config-asked" });
    expect(out.stillAsks).toEqual([]);
    expect(out.diff.some((l: string) => l.startsWith("+ relaxes = "))).toBe(true);
    const after = readFileSync(repo.join("memnox.policies.toml"), "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(after).toContain('relaxes = ["prod-config-asked"]');
    expect(after).toContain("approved 5 times on 5 days and never refused, so it no longer asks");
    const backups = readdirSync(join(home.memnoxHome, "backup", "protect"));
    expect(backups.some((b) => readFileSync(join(home.memnoxHome, "backup", "protect", b), "utf8") === before)).toBe(
      true,
    );

    // The compiled binary, as Claude Code runs it: the handed-over read proceeds (silence), the rest still ask.
    const env = home.env();
    const hook = (stdin: string) =>
      runBinary("memnox", ["hook", "claude-code", "PreToolUse"], { env, stdin, cwd: repo.path });
    const read = readProd("toolu_after");
    const proceeds = (await hook(payloads.pre(claude, read.tool, read.input, read.id))).stdout;
    expect(proceeds === "" ? undefined : JSON.parse(proceeds).hookSpecificOutput.permissionDecision).toBeUndefined();
    const push = forcePush("toolu_push_after");
    const pushed = JSON.parse((await hook(payloads.pre(claude, push.tool, push.input, push.id))).stdout);
    expect(pushed.hookSpecificOutput.permissionDecision).toBe("ask");
    const log = writeLog("toolu_log_after");
    const logged = JSON.parse((await hook(payloads.pre(claude, log.tool, log.input, log.id))).stdout);
    expect(logged.hookSpecificOutput.permissionDecision).toBe("ask");
  }, 240_000);

  test("a second hand-over has nothing left to write", async () => {
    const r = await cli(home, ["next", "--hand-over", "--yes", "--json"], START + 6 * DAY + 60_000, repo.path);
    expect(r.code).toBe(0);
    expect(r.json().written).toEqual([]);
    expect(existsSync(repo.join("memnox.policies.toml"))).toBe(true);
  });
});

describe("memnox next --agent, --role, --roles: the rules read forwards, action by action", () => {
  const machine = scanHome(["claude-code", "credentials"]);
  const rules = gitRepo({
    "memnox.policies.toml": [
      RULES,
      "[[policies]]",
      'name = "triage-never-pushes"',
      "[policies.match]",
      'actions = ["git.push"]',
      'roles = ["support-triage"]',
      "[policies.decision]",
      'effect = "deny"',
      'reason = "triage reads, it does not ship"',
      "",
      "[[policies]]",
      'name = "pushes-asked"',
      "[policies.match]",
      'actions = ["git.push"]',
      "[policies.decision]",
      'effect = "ask"',
      'reason = "others see a push"',
      "",
      "[[policies]]",
      'name = "ssh-keys-never-read"',
      "[policies.match]",
      'actions = ["filesystem.read"]',
      'targets = ["~/.ssh"]',
      "[policies.decision]",
      'effect = "deny"',
      'reason = "keys stay put"',
      "",
    ].join("\n"),
  });
  afterAll(() => {
    machine[Symbol.dispose]();
    rules[Symbol.dispose]();
  });

  test("--agent: what the engine says for each verb and each credential the agent reaches", async () => {
    const r = await cli(machine, ["next", "--agent", "claude-code", "--json"], START, rules.path);
    expect(r.code).toBe(0);
    const f = r.json();
    expect(f.agent.id).toBe("claude-code");
    expect(f.actions).toBeGreaterThan(100);
    const asks = f.asks.map((a: { action: string }) => a.action);
    expect(asks).toContain("git.push-force");
    expect(asks).toContain("git.push");
    const refused = f.refused.find((a: { targets: string[] }) => a.targets.some((t) => t.includes("/.ssh/")));
    expect(refused).toMatchObject({
      action: "filesystem.read",
      rule: "ssh-keys-never-read",
      from: "a credential it reaches",
    });
    expect(f.proceeds.some((a: { action: string }) => a.action === "git.status")).toBe(true);
    expect(f.byClass.destructive.ask + f.byClass.destructive.allow + f.byClass.destructive.deny).toBeGreaterThan(0);
    const human = (await cli(machine, ["next", "--agent", "claude-code"], START, rules.path)).out;
    expect(human).toContain("WOULD DO ON ITS OWN");
    expect(human).toContain("STILL ASKED");
  });

  test("--role says what a job may do, --roles names every role the rules name; an unknown agent is an error", async () => {
    const role = (await cli(machine, ["next", "--role", "support-triage", "--json"], START, rules.path)).json();
    expect(role.role).toBe("support-triage");
    expect(role.refused.find((a: { action: string }) => a.action === "git.push")?.rule).toBe("triage-never-pushes");
    const anyone = (await cli(machine, ["next", "--json", "--role", "someone-else"], START, rules.path)).json();
    expect(anyone.asks.map((a: { action: string }) => a.action)).toContain("git.push");
    const roles = (await cli(machine, ["next", "--roles", "--json"], START, rules.path)).json();
    expect(roles.roles).toEqual([
      { role: "support-triage", counts: expect.objectContaining({ deny: role.refused.length }) },
    ]);
    await expect(cli(machine, ["next", "--agent", "nobody-here"], START, rules.path)).rejects.toThrow(
      "no agent `nobody-here` on this machine",
    );
  });
});

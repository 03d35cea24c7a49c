// config, policy check/use and protect --yes at the terminal, through the CLI face on fake homes and real repositories.
import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { runCommand } from "citty";
import fixture from "../fixtures/verb-tables/sample.json";
import type { VerbTable } from "../src/resolve/types.ts";
import { protectWith } from "../src/seams/cli/commands/protect.ts";
import { run } from "../src/seams/cli/index.ts";
import { type FakeHome, fakeHome, gitRepo, testContext } from "./support/index.ts";

const TABLES = fixture.tables as unknown as readonly VerbTable[];

async function cli(home: FakeHome, args: string[], cwd?: string) {
  const { ctx, io } = testContext(home, { args, ...(cwd ? { cwd } : {}) });
  const code = await run(ctx);
  return { code, out: io.stdout(), err: io.stderr() };
}

async function protect(home: FakeHome, args: string[], cwd: string) {
  const { ctx, io } = testContext(home, { args, cwd });
  const { result } = await runCommand(protectWith(() => TABLES)(ctx), { rawArgs: args });
  return { code: result as number, out: io.stdout() };
}

const rule = (name: string, effect: string) =>
  `version = 1\n[[policies]]\nname = "${name}"\n[policies.match]\nactions = ["x"]\n[policies.decision]\neffect = "${effect}"\n`;

describe("memnox config", () => {
  test("list shows the seven settings with their defaults before anything is written", async () => {
    using home = fakeHome();
    const r = await cli(home, ["config", "list", "--json"]);
    const out = JSON.parse(r.out) as { exists: boolean; settings: { name: string; value: unknown }[] };
    expect(out.exists).toBe(false);
    expect(out.settings.map((s) => [s.name, s.value])).toEqual([
      ["mode", "observe"],
      ["retentionDays", 30],
      ["failOpen", false],
      ["telemetry", false],
      ["approvedAgents", []],
      ["noticeUnusual", true],
      ["noticeWarmupDays", 3],
    ]);
    expect((await cli(home, ["config"])).out).toContain("retentionDays");
  });

  test("set validates, writes 0600, and get reads it back", async () => {
    using home = fakeHome();
    await expect(cli(home, ["config", "set", "mode", "strict"])).rejects.toThrow(/`strict` is not a value for `mode`/);
    await expect(cli(home, ["config", "set", "colour", "red"])).rejects.toThrow(/unknown setting `colour`/);
    await expect(cli(home, ["config", "set", "noticeWarmupDays", "-1"])).rejects.toThrow(
      /`-1` is not a value for `noticeWarmupDays`/,
    );
    const r = await cli(home, ["config", "set", "mode", "enforce"]);
    expect(r.out).toContain("mode: observe -> enforce");
    expect(statSync(home.join(".memnox", "config.toml")).mode & 0o777).toBe(0o600);
    expect((await cli(home, ["config", "get", "mode"])).out).toBe("enforce\n");
    expect(JSON.parse((await cli(home, ["config", "get", "retentionDays", "--json"])).out)).toEqual({
      name: "retentionDays",
      value: 30,
    });
  });
});

describe("memnox policy check", () => {
  test("says what is in force with the hash, and exits non-zero naming file:line of a broken file", async () => {
    using home = fakeHome({ ".memnox/machine.policies.toml": rule("machine-rule", "deny") });
    using repo = gitRepo({ "memnox.policies.toml": rule("repo-rule", "ask"), "src/a.txt": "a" });
    const ok = await cli(home, ["policy", "check", "--json"], repo.join("src"));
    expect(ok.code).toBe(0);
    const parsed = JSON.parse(ok.out) as { hash: string; rules: number; files: { path: string }[] };
    expect(parsed.rules).toBe(2);
    expect(parsed.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(parsed.files.map((f) => f.path)).toEqual([
      repo.join("memnox.policies.toml"),
      home.join(".memnox", "machine.policies.toml"),
    ]);

    using broken = gitRepo({ "memnox.policies.toml": rule("old", "require_approval") });
    const bad = await cli(home, ["policy", "check"], broken.path);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(
      `${broken.join("memnox.policies.toml")}:7: rule \`old\`: \`decision.effect\` is \`require_approval\``,
    );
    expect(bad.out).toContain("now `ask`");
    expect(bad.out).toContain("1 rule(s)");
  });

  test("checks one named file on its own", async () => {
    using home = fakeHome();
    using repo = gitRepo({
      "a.toml": rule("a", "deny"),
      "b.yaml": "version: 1\npolicies:\n  - name: b\n    decision: {effect: nope}\n",
    });
    expect((await cli(home, ["policy", "check", "a.toml"], repo.path)).code).toBe(0);
    const b = await cli(home, ["policy", "check", "b.yaml"], repo.path);
    expect(b.code).toBe(1);
    expect(b.out).toContain('b.yaml:4: rule `b`: `decision.effect` is "nope"; the valid choices are allow, ask, deny');
    await expect(cli(home, ["policy", "check", "missing.toml"], repo.path)).rejects.toThrow(/no rule file at/);
  });
});

describe("memnox policy use", () => {
  test("registers a sound file (paths only), which then loads inside its repository; --remove forgets it", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "ops/rules.toml": rule("ops", "deny") });
    const r = await cli(home, ["policy", "use", "ops/rules.toml"], repo.path);
    expect(r.out).toContain(`applies inside ${repo.path}`);
    expect(JSON.parse(readFileSync(home.join(".memnox", "policies.json"), "utf8"))).toEqual({
      version: 1,
      files: [repo.join("ops", "rules.toml")],
    });
    const check = JSON.parse((await cli(home, ["policy", "check", "--json"], repo.path)).out) as { rules: number };
    expect(check.rules).toBe(1);
    expect((await cli(home, ["policy", "use", "--remove", "ops/rules.toml"], repo.path)).out).toContain("forgot");
  });

  test("refuses a broken file, naming the problem", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "bad.toml": rule("bad", "escalate") });
    await expect(cli(home, ["policy", "use", "bad.toml"], repo.path)).rejects.toThrow(/bad\.toml:7: .*now `ask`/);
  });
});

describe("memnox protect --yes", () => {
  test("writes the whole baseline to the machine file (no repository file), starts config at observe, seals it, and is idempotent", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "src/a.txt": "a" });
    const first = await protect(home, ["--yes", "--json"], repo.join("src"));
    const out = JSON.parse(first.out) as {
      machine: { path: string; added: string[] };
      repository?: unknown;
      mode: string;
      configCreated: boolean;
    };
    expect(out.machine.path).toBe(home.join(".memnox", "machine.policies.toml"));
    expect(out.machine.added).toContain("ssh-keys-not-read");
    // Destructive and outward rules are about every checkout on this machine, so they are not left to one repository.
    expect(out.machine.added).toContain("git-push-force-denied");
    expect(out.machine.added).toContain("destructive-commands-denied");
    expect(out.repository).toBeUndefined();
    expect(() => statSync(repo.join("memnox.policies.toml"))).toThrow();
    expect(out).toMatchObject({ mode: "observe", configCreated: true });
    expect(statSync(out.machine.path).mode & 0o777).toBe(0o600);
    expect(readFileSync(home.join(".memnox", "config.toml"), "utf8")).toContain('mode = "observe"');
    expect(JSON.parse(readFileSync(home.join(".memnox", "sealed.json"), "utf8"))).toMatchObject({ mode: "observe" });
    const again = await protect(home, ["--yes"], repo.path);
    expect(again.out).toContain("added 0 rule(s)");
    const check = await cli(home, ["policy", "check", "--json"], repo.path);
    expect(check.code).toBe(0);
  });

  test("a machine set up when the baseline lived in the repository is brought to the new layout, losing no edit", async () => {
    using home = fakeHome({
      ".memnox/machine.policies.toml": ["version = 1", ""].join("\n"),
      ".memnox/config.toml": 'mode = "enforce"\n',
    });
    // An old repository file: the baseline's force-push rule as memnox wrote it, and its delete rule loosened by a person.
    const old = [
      "version = 1",
      "",
      "[[policies]]",
      'name = "git-push-force-denied"',
      "[policies.match]",
      'actions = ["git.push-force"]',
      "[policies.decision]",
      'effect = "deny"',
      'reason = "a force-push can destroy work that exists nowhere else"',
      "[policies.decision.alternative]",
      'action = "git.push-lease"',
      'note = "Push with --force-with-lease instead: git then refuses if the remote holds work this repository has not seen."',
      "",
      "[[policies]]",
      'name = "deletes-asked"',
      "[policies.match]",
      'actions = ["filesystem.delete"]',
      "[policies.decision]",
      'effect = "allow"',
      'reason = "we delete freely here"',
      "",
    ].join("\n");
    using repo = gitRepo({ "memnox.policies.toml": old });
    const r = await protect(home, ["--yes", "--json"], repo.path);
    const out = JSON.parse(r.out) as {
      machine: { added: string[] };
      repository: { path: string; copies: string[]; edited: string[] };
    };
    expect(out.machine.added).toEqual(
      expect.arrayContaining(["git-push-force-denied", "deletes-asked", "ssh-keys-not-read"]),
    );
    expect(out.repository).toEqual({
      path: repo.join("memnox.policies.toml"),
      copies: ["git-push-force-denied"],
      edited: ["deletes-asked"],
    });
    // The person's file is exactly as it was; the machine's version applies beside it, and the stricter wins.
    expect(readFileSync(repo.join("memnox.policies.toml"), "utf8")).toBe(old);
    const human = await protect(home, ["--yes"], repo.path);
    expect(human.out).toContain("your edits of deletes-asked stay");
    expect(JSON.parse(readFileSync(home.join(".memnox", "sealed.json"), "utf8"))).toMatchObject({ mode: "enforce" });
  });

  test("keeps config.toml as it is when one exists", async () => {
    using home = fakeHome({ ".memnox/config.toml": 'mode = "enforce"\n' });
    using repo = gitRepo({ "a.txt": "a" });
    const r = await protect(home, ["--yes"], repo.path);
    expect(r.out).toContain("mode is enforce");
    expect(readFileSync(home.join(".memnox", "config.toml"), "utf8")).toBe('mode = "enforce"\n');
  });

  test("two steps at once or an unknown flag: a clear error and nothing written", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "a.txt": "a" });
    await expect(protect(home, ["--interactive", "--yes"], repo.path)).rejects.toThrow(/one step at a time/);
    await expect(protect(home, ["--yes", "--interceptors"], repo.path)).rejects.toThrow(/one step at a time/);
    await expect(protect(home, ["--yes", "--frobnicate"], repo.path)).rejects.toThrow(/unknown flag `--frobnicate`/);
    await expect(protect(home, ["stray"], repo.path)).rejects.toThrow(/takes no argument `stray`/);
    expect(() => statSync(repo.join("memnox.policies.toml"))).toThrow();
  });

  test("through the registry it generates the baseline from the real verb tables", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "a.txt": "a" });
    expect((await cli(home, ["protect", "--yes"], repo.path)).code).toBe(0);
    const repoRules = readFileSync(home.join(".memnox", "machine.policies.toml"), "utf8");
    expect(repoRules).toContain('"git.push-force"');
    expect(repoRules).toContain('"terraform.destroy"');
  });
});

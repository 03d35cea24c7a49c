// memnox protect's steps on fake homes and real repositories: proposals with their undo, apply and revert, rules for
// one CLI, rules said out loud and remembered, interceptors, git hooks, the mode, and Claude Code's own permissions.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../src/seams/cli/index.ts";
import { readConfig } from "../src/state/config.ts";
import { installAgentHook } from "../src/wire/hooks/install.ts";
import { type FakeHome, fakeHome, fixtureTree, gitRepo, testContext } from "./support/index.ts";

const said: string[] = [];

async function cli(home: FakeHome, cwd: string, args: string[], env: Record<string, string> = {}) {
  const { ctx, io } = testContext(home, { args, cwd, env });
  const code = await run(ctx);
  said.push(io.stdout(), io.stderr());
  return { code, out: io.stdout(), err: io.stderr() };
}

const json = async (home: FakeHome, cwd: string, args: string[]) =>
  JSON.parse((await cli(home, cwd, [...args, "--json"])).out);

describe("memnox protect, proposing and reverting", () => {
  test("proposes a deny per credential file no rule refuses, each with its undo, and changes nothing", async () => {
    using home = fakeHome(fixtureTree("homes", "claude-code"));
    using repo = gitRepo({ ".env": "TOKEN=canary-env-601\n", ".env.example": "TOKEN=\n", "a.txt": "a" });
    const r = await cli(home, repo.path, ["protect"]);
    expect(r.out).toContain("PROPOSED");
    expect(r.out).toContain("1. deny reads of ~/.ssh/id_ed25519");
    expect(r.out).toMatch(/undo: memnox protect --revert hs_[0-9a-f]{8}/);
    expect(r.out).toContain("Nothing was changed. Run memnox protect --apply to write these.");
    const j = await json(home, repo.path, ["protect"]);
    expect(j.proposed.map((s: { title: string }) => s.title)).toEqual([
      "deny reads of ~/.ssh/id_ed25519",
      "deny reads of ~/.aws/credentials",
      `deny reads of ${repo.join(".env")}`,
    ]);
    expect(j.proposed[2].rule.decision.alternative).toMatchObject({ resource: repo.join(".env.example") });
    expect(j.proposed[0].rule.decision.alternative).toBeUndefined();
    expect(existsSync(join(home.memnoxHome, "machine.policies.toml"))).toBe(false);
  });

  test("--apply writes them into the machine's own file; --revert takes one, then the rest, back out", async () => {
    using home = fakeHome(fixtureTree("homes", "claude-code"));
    using repo = gitRepo({ "a.txt": "a" });
    const applied = await json(home, repo.path, ["protect", "--apply"]);
    const ids = applied.applied.map((s: { id: string }) => s.id);
    expect(ids).toHaveLength(2);
    const file = join(home.memnoxHome, "machine.policies.toml");
    expect(readFileSync(file, "utf8")).toContain('targets = ["~/.ssh/id_ed25519"]');
    expect((await cli(home, repo.path, ["check", `cat ${home.join(".ssh/id_ed25519")}`])).code).toBe(1);
    expect((await json(home, repo.path, ["protect"])).proposed).toEqual([]);
    const one = await json(home, repo.path, ["protect", "--revert", ids[0]]);
    expect(one.reverted).toEqual([{ id: ids[0], rule: "no-read-ssh-id-ed25519", file, status: "removed" }]);
    expect((await cli(home, repo.path, ["check", `cat ${home.join(".ssh/id_ed25519")}`])).code).toBe(0);
    expect((await cli(home, repo.path, ["check", `cat ${home.join(".aws/credentials")}`])).code).toBe(1);
    const rest = await json(home, repo.path, ["protect", "--revert"]);
    expect(rest.reverted.map((r: { status: string }) => r.status)).toEqual(["removed"]);
    const left = readFileSync(file, "utf8");
    expect(left).not.toContain("[[policies]]");
    expect((await cli(home, repo.path, ["policy", "check"])).code).toBe(0);
    await expect(cli(home, repo.path, ["protect", "--revert", "hs_00000000"])).rejects.toThrow(/no step `hs_00000000`/);
  });
});

describe("rules said at the terminal", () => {
  test("--for gh closes its credential file and keeps gh working, from its verb table", async () => {
    using home = fakeHome({ ".config/gh/hosts.yml": "github.com:\n  oauth_token: canary-gh-701\n" });
    using repo = gitRepo({ "a.txt": "a" });
    const j = await json(home, repo.path, ["protect", "--for", "gh"]);
    expect(j.merge.path).toBe(repo.join("memnox.policies.toml"));
    expect(j.merge.added).toEqual([
      "gh-credentials-not-read",
      "gh-destructive-denied",
      "gh-outward-asked",
      "gh-unknown-asked",
      "gh-reads-allowed",
    ]);
    expect((await cli(home, repo.path, ["check", `cat ${home.join(".config/gh/hosts.yml")}`])).code).toBe(1);
    expect((await cli(home, repo.path, ["check", "gh pr list"])).code).toBe(0);
    expect((await cli(home, repo.path, ["check", "gh repo delete acme/shop --yes"])).code).toBe(1);
    await expect(cli(home, repo.path, ["protect", "--for", "frob"])).rejects.toThrow(/no verb table for `frob`/);
  });

  test("--deny and --allow are written at once, remembered as decisions, and an allow is said out loud", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "a.txt": "a" });
    const deny = await cli(home, repo.path, ["protect", "--deny", "terraform.destroy"]);
    expect(deny.out).toContain("created with 1 rule(s) (deny-terraform-destroy)");
    expect(deny.out).toContain("remembered as a decision:");
    expect((await cli(home, repo.path, ["check", "terraform destroy"])).code).toBe(1);
    const allow = await cli(home, repo.path, ["protect", "--allow=npm.test"]);
    expect(allow.err).toContain("memnox: allow: npm.test now runs without a question wherever");
    const pages = readdirSync(join(home.memnoxHome, "memory"), { recursive: true }).map(String);
    expect(pages.some((p) => p.endsWith("rule-deny-terraform-destroy.md"))).toBe(true);
    expect(pages.some((p) => p.endsWith("rule-allow-npm-test.md"))).toBe(true);
    await expect(cli(home, repo.path, ["protect", "--ask"])).rejects.toThrow(/`--ask` needs a value/);
    await expect(cli(home, repo.path, ["protect", "--ask", "rm -rf"])).rejects.toThrow(/not an action name/);
  });

  test("--allow of an action a stricter rule still asks about says which rule, where, and how to change it", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "a.txt": "a" });
    // An ask in the repository's own file: an allow beside the machine's baseline cannot take its place.
    const file = join(repo.path, "memnox.policies.toml");
    writeFileSync(
      file,
      'version = 1\n\n[[policies]]\nname = "pushes-ask"\n[policies.match]\nactions = ["git.push"]\n[policies.decision]\neffect = "ask"\nreason = "a push is seen by others"\n',
    );
    const r = await cli(home, repo.path, ["protect", "--allow", "git.push"]);
    expect(r.code).toBe(1);
    expect(r.err).not.toContain("now runs without a question");
    expect(r.err).toContain(`rule pushes-ask (${file}:3) asks first (a push is seen by others)`);
    expect(r.err).toContain(`change that rule at ${file}:3`);
    // And it is so: the push still asks.
    const check = JSON.parse((await cli(home, repo.path, ["check", "git push origin main", "--json"])).out);
    expect(check.effect).toBe("ask");
    const j = await json(home, repo.path, ["protect", "--allow", "git.push"]);
    expect(j.stillStopped).toMatchObject({ effect: "ask", rule: { name: "pushes-ask", line: 3 } });
  });

  test("--allow relaxes the machine file's asks it meets: the action runs without a question after it", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "a.txt": "a" });
    const machine = join(home.memnoxHome, "machine.policies.toml");
    writeFileSync(
      machine,
      'version = 1\n\n[[policies]]\nname = "merges-ask"\n[policies.match]\nactions = ["gh.pr-merge"]\n[policies.decision]\neffect = "ask"\nreason = "a merge is somebody\'s review"\n',
    );
    const r = await cli(home, repo.path, ["protect", "--allow", "gh.pr-merge"]);
    expect(r.code).toBe(0);
    expect(r.err).toContain("now runs without a question");
    expect(readFileSync(machine, "utf8")).toContain('relaxes = ["merges-ask"]');
    const check = JSON.parse((await cli(home, repo.path, ["check", "gh pr merge 12", "--json"])).out);
    expect(check.effect).toBe("allow");
  });
});

describe("wiring steps", () => {
  test("--interceptors, --hooks and --enforce/--observe, each on the record", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "a.txt": "a" });
    const path = home.join("path");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(path);
    // The git found at install is the one memnox's own plumbing runs later: a stand-in that still works.
    writeFileSync(join(path, "git"), `#!/bin/sh\nexec ${Bun.which("git")} "$@"\n`, { mode: 0o755 });
    const i = await cli(home, repo.path, ["protect", "--interceptors"], { PATH: path });
    expect(i.out).toContain("1 interceptor(s) in");
    expect(i.out).toContain("not on this machine, so not intercepted: aws");
    expect(i.out).toContain("is not on PATH: start the agent with memnox run --");
    const h = await json(home, repo.path, ["protect", "--hooks"]);
    expect(h.hooks.map((x: { status: string }) => x.status)).toEqual(["added", "added"]);
    await cli(home, repo.path, ["protect", "--enforce"]);
    expect(readConfig(join(home.memnoxHome, "config.toml")).mode).toBe("enforce");
    await cli(home, repo.path, ["protect", "--observe"]);
    expect(readConfig(join(home.memnoxHome, "config.toml")).mode).toBe("observe");
    const t = await json(home, repo.path, ["timeline"]);
    const ops = JSON.stringify(t);
    expect(ops).toContain("memnox.protect");
    expect(ops).toContain("mode: observe -> enforce");
  });

  test("--apply-native writes the rules in force into Claude Code's permissions; --revert-native gives the bytes back", async () => {
    using home = fakeHome(fixtureTree("homes", "claude-code"));
    using repo = gitRepo({ "a.txt": "a" });
    await cli(home, repo.path, ["protect", "--yes"]);
    const file = home.join(".claude", "settings.json");
    const before = readFileSync(file, "utf8");
    const j = await json(home, repo.path, ["protect", "--apply-native"]);
    expect(j.added.deny).toContain("Read(**/.ssh/**)");
    expect(j.added.deny).toContain("Read(~/.aws/**)");
    expect(j.added.deny).toContain("Bash(git push * --force*)");
    expect(j.added.deny).toContain("Bash(git push -f*)");
    expect(j.added.deny).not.toContain("Bash(git push:*)");
    expect(j.added.ask.some((x: string) => x.startsWith("Bash(gh pr merge"))).toBe(true);
    expect(j.unexpressible.map((u: { what: string }) => u.what)).toContain("mcp-calls-asked");
    const doc = JSON.parse(readFileSync(file, "utf8"));
    expect(doc.permissions.deny[0]).toBe("Read(./secrets/**)");
    expect(doc.permissions.allow).toEqual(["Bash(npm run test:*)"]);
    expect((await json(home, repo.path, ["protect", "--apply-native"])).added).toEqual({ deny: [], ask: [] });
    const back = await json(home, repo.path, ["protect", "--revert-native"]);
    expect(back.outcome).toBe("restored");
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  test("with memnox's hook in the same file, --revert-native takes out only its entries and the hook stays", async () => {
    using home = fakeHome(fixtureTree("homes", "claude-code"));
    using repo = gitRepo({ "a.txt": "a" });
    await cli(home, repo.path, ["protect", "--yes"]);
    await json(home, repo.path, ["protect", "--apply-native"]);
    installAgentHook(testContext(home, { cwd: repo.path }).ctx, "claude-code");
    const back = await json(home, repo.path, ["protect", "--revert-native"]);
    expect(back.outcome).toBe("removed");
    const doc = JSON.parse(readFileSync(home.join(".claude", "settings.json"), "utf8"));
    expect(doc.permissions).toEqual({ allow: ["Bash(npm run test:*)"], deny: ["Read(./secrets/**)"] });
    expect(JSON.stringify(doc.hooks)).toContain("hook claude-code PreToolUse");
  });

  test("no credential value reaches any output", () => {
    expect(said.join("\n")).not.toContain("canary");
  });
});

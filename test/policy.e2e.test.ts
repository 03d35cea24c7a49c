// policy check, config and protect through the real compiled binary, as a person runs them.
import { afterAll, describe, expect, test } from "bun:test";
import { fakeHome, gitRepo, runBinary } from "./support/index.ts";

const home = fakeHome({
  ".memnox/machine.policies.toml":
    'version = 1\n[[policies]]\nname = "no-ssh"\n[policies.match]\nactions = ["filesystem.read"]\ntargets = ["~/.ssh/**"]\n[policies.decision]\neffect = "deny"\n',
});
afterAll(() => home[Symbol.dispose]());

describe("compiled binary: rules and settings", () => {
  test("policy check reads a YAML rule file (the lazily loaded parser is in the binary)", async () => {
    using repo = gitRepo({
      "memnox.policies.yaml":
        "version: 1\npolicies:\n  - name: pushes-ask\n    match: {actions: [git.push]}\n    decision: {effect: ask}\n",
      "src/x.txt": "x",
    });
    const r = await runBinary("memnox", ["policy", "check", "--json"], { env: home.env(), cwd: repo.join("src") });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { rules: number; files: { path: string }[] };
    expect(out.rules).toBe(2);
    expect(out.files[0]?.path).toBe(repo.join("memnox.policies.yaml"));
  });

  test("policy check exits 1 on a broken file and names file and line", async () => {
    using repo = gitRepo({
      "memnox.policies.toml": 'version = 1\n[[policies]]\nname = "x"\n[policies.decision]\neffect = "block"\n',
    });
    const r = await runBinary("memnox", ["policy", "check"], { env: home.env(), cwd: repo.path });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${repo.join("memnox.policies.toml")}:5: rule \`x\``);
    expect(r.stdout).toContain("it is now `deny`");
  });

  test("config set validates and persists; a bad value exits 2 with the choices", async () => {
    const bad = await runBinary("memnox", ["config", "set", "mode", "on"], { env: home.env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("valid: off, observe, advise, enforce");
    expect((await runBinary("memnox", ["config", "set", "mode", "enforce"], { env: home.env() })).code).toBe(0);
    const get = await runBinary("memnox", ["config", "get", "mode"], { env: home.env() });
    expect(get.stdout).toBe("enforce\n");
  });

  test("protect --interactive with nobody at a terminal takes one answer a line, and none (Enter) is yes", async () => {
    const r = await runBinary("memnox", ["protect", "--interactive"], { env: home.env(), stdin: "\n\n\n\n" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Write these");
    expect(r.stdout).toContain("machine rules");
  });
});

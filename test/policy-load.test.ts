import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Action } from "../src/core/action.ts";
import type { PolicyRequest } from "../src/core/request.ts";
import type { RuleSetView } from "../src/gate/deps.ts";
import {
  checkText,
  formatProblem,
  type LoadedRuleSet,
  loadRuleSet,
  registerFile,
  ruleSetFromSources,
} from "../src/policy/load/index.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { fakeHome, gitRepo, tempDir } from "./support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());
const paths = memnoxPaths(home.env());
const AT = { epochMs: Date.parse("2026-11-30T12:00:00Z"), utcOffsetMinutes: 0 };

const FORCE_PUSH = `version = 1
project = "acme"

[[policies]]
name = "no-force-push"
[policies.match]
actions = ["git.push-force"]
branches = ["main", "release/*"]
[policies.decision]
effect = "deny"
reason = "A force-push can destroy work that exists nowhere else."
[policies.decision.alternative]
action = "git.push"
note = "Push without --force."
`;

const FORCE_PUSH_YAML = `version: 1
project: acme
policies:
  - name: no-force-push
    match:
      actions: [git.push-force]
      branches: [main, "release/*"]
    decision:
      effect: deny
      reason: A force-push can destroy work that exists nowhere else.
      alternative:
        action: git.push
        note: Push without --force.
`;

const rule = (name: string, action: string, effect = "deny") =>
  `version = 1\n[[policies]]\nname = "${name}"\n[policies.match]\nactions = ["${action}"]\n[policies.decision]\neffect = "${effect}"\nreason = "${name} says so"\n`;

const act = (name: string, extra: Partial<Action> = {}): Action => ({
  name,
  class: "unknown",
  targets: [],
  arguments: {},
  ...extra,
});
const request = (a: Action, cwd = "/"): PolicyRequest => ({ action: a, cwd, scope: "undeclared" });
const verdictOf = (set: LoadedRuleSet, a: Action) => set.evaluate(request(a), [], AT);
const load = (cwd: string, extra: { file?: string; env?: Record<string, string> } = {}) =>
  loadRuleSet({ cwd, env: home.env(extra.env), paths, ...(extra.file ? { file: extra.file } : {}) });

describe("validation names file, line, field and the valid choices", () => {
  test("broken TOML names its line and blanks only itself", () => {
    using dir = tempDir("pol", {
      "broken.toml": 'version = 1\n\n[[policies]]\nname = "x\n',
      "good.toml": rule("good", "x"),
    });
    const broken = checkText(dir.join("broken.toml"), "flag", 'version = 1\n\n[[policies]]\nname = "x\n');
    expect(broken.problems).toHaveLength(1);
    expect(broken.problems[0]?.line).toBe(4);
    expect(formatProblem(broken.problems[0] ?? { file: "", message: "" })).toMatch(/broken\.toml:4: not valid TOML/);
  });

  test("an unknown field is an error, with the line and the valid fields", () => {
    const c = checkText("/r/p.toml", "flag", `${rule("r", "x")}colour = "red"\n`);
    expect(c.problems.map(formatProblem)).toEqual([
      "/r/p.toml:9: rule `r`: unknown field `colour` in `decision` (valid: effect, reason, approvers, minApprovals, mode, rateLimit, alternative, relaxes)",
    ]);
    const top = checkText("/r/p.toml", "flag", `versoin = 1\n`);
    expect(top.problems.map(formatProblem)).toContain(
      "/r/p.toml:1: unknown field `versoin` (valid: version, project, policies)",
    );
  });

  test.each([
    ["block", "deny"],
    ["require_approval", "ask"],
    ["escalate", "ask"],
    ["withhold", "deny"],
  ])("the old effect `%s` is rejected naming `%s`", (old, now) => {
    const c = checkText("/r/p.toml", "flag", rule("r", "x", old));
    expect(c.rules).toHaveLength(0);
    expect(c.problems[0]?.line).toBe(7);
    expect(c.problems[0]?.message).toContain(`is \`${old}\`, a name from before the rename: it is now \`${now}\``);
  });

  test("an unknown effect lists the three", () => {
    const c = checkText("/r/p.toml", "flag", rule("r", "x", "maybe"));
    expect(c.problems[0]?.message).toBe('`decision.effect` is "maybe"; the valid choices are allow, ask, deny');
  });

  test("an alternative needs both action and note", () => {
    const text = `${rule("r", "x")}[policies.decision.alternative]\naction = "git.push"\n`;
    const c = checkText("/r/p.toml", "flag", text);
    expect(c.problems.map(formatProblem)).toEqual([
      "/r/p.toml:9: rule `r`: `decision.alternative.note` is required: the note is the sentence the agent reads, saying what to use instead",
    ]);
  });

  test("one bad rule costs only itself; duplicate names are reported", () => {
    const text = [
      rule("a", "x"),
      rule("b", "y", "nope").replace("version = 1\n", ""),
      rule("a", "z").replace("version = 1\n", ""),
    ].join("");
    const c = checkText("/r/p.toml", "flag", text);
    expect(c.rules.map((r) => r.name)).toEqual(["a", "a"]);
    expect(c.problems.map((p) => p.message)).toEqual([
      '`decision.effect` is "nope"; the valid choices are allow, ask, deny',
      "the name is already used by the rule on line 2; names must be unique",
    ]);
  });

  test("semantic mistakes a schema cannot see", () => {
    const text = `version = 1
[[policies]]
name = "w"
[[policies.match.windows]]
startHour = 9
endHour = 9
[policies.decision]
effect = "deny"
approvers = ["lead"]
`;
    const msgs = checkText("/r/p.toml", "flag", text).problems.map(formatProblem);
    expect(msgs).toEqual([
      "/r/p.toml:4: rule `w`: `match.windows[0]` starts and ends at 9, which covers no time; use 0 and 24 for the whole day",
      "/r/p.toml:7: rule `w`: `approvers` and `minApprovals` only apply to an `ask`, and this rule's effect is `deny`",
    ]);
  });

  test("version is required and must be 1", () => {
    expect(checkText("/r/p.toml", "flag", "").problems[0]?.message).toBe(
      "`version` is required: add `version = 1` at the top",
    );
    expect(checkText("/r/p.toml", "flag", "version = 2\n").problems[0]?.message).toContain("must be 1");
  });

  test("a wrong version still lists every rule's problems, and yields no rules", () => {
    const text = `${rule("a", "x").replace("version = 1", "version = 2")}${rule("b", "y", "block").replace("version = 1\n", "")}`;
    const c = checkText("/r/p.toml", "flag", text);
    expect(c.rules).toEqual([]);
    expect(c.problems.map(formatProblem)).toEqual([
      "/r/p.toml:1: `version` must be 1, the only version there is",
      "/r/p.toml:14: rule `b`: `decision.effect` is `block`, a name from before the rename: it is now `deny`",
    ]);
  });

  test("YAML errors carry lines too", () => {
    const c = checkText("/r/p.yaml", "flag", FORCE_PUSH_YAML.replace("effect: deny", "effect: block"));
    expect(formatProblem(c.problems[0] ?? { file: "", message: "" })).toMatch(
      /^\/r\/p\.yaml:9: rule `no-force-push`: .*now `deny`/,
    );
    expect(checkText("/r/p.yaml", "flag", "version: 1\npolicies:\n  - name: [x\n").problems[0]?.line).toBe(4);
  });
});

test("a YAML twin of a TOML file gives identical rules and verdicts", () => {
  const toml = checkText("/r/memnox.policies.toml", "flag", FORCE_PUSH);
  const yaml = checkText("/r/memnox.policies.yaml", "flag", FORCE_PUSH_YAML);
  expect(toml.problems).toEqual([]);
  expect(yaml.problems).toEqual([]);
  const strip = (c: typeof toml) => c.rules.map(({ file: _f, line: _l, ...r }) => r);
  expect(strip(yaml)).toEqual(strip(toml));
  expect(yaml.rules[0]?.line).toBe(4);
  expect(toml.rules[0]?.line).toBe(4);
});

describe("which files apply", () => {
  test("the nearest file walking up from a subdirectory, stopping at the repository root", () => {
    using repo = gitRepo({ "memnox.policies.toml": rule("repo-rule", "git.push-force"), "src/deep/a.txt": "a" });
    const set = load(repo.join("src", "deep"));
    expect(set.files).toEqual([repo.join("memnox.policies.toml")]);
    expect(verdictOf(set, act("git.push-force")).rule?.name).toBe("repo-rule");
    // A repository with no file does not borrow one from the directory above it; outside any repository the walk goes on.
    using outer = tempDir("outer", {
      "memnox.policies.toml": rule("outside", "x"),
      "inner/.git/HEAD": "ref: refs/heads/main\n",
      "loose/sub/a.txt": "a",
    });
    expect(load(outer.join("inner")).files).toEqual([]);
    expect(load(outer.join("loose", "sub")).files).toEqual([outer.join("memnox.policies.toml")]);
  });

  test("-f beats MEMNOX_POLICIES, which beats the working directory", () => {
    using repo = gitRepo({
      "memnox.policies.toml": rule("from-dir", "x"),
      "env.toml": rule("from-env", "x"),
      "flag.toml": rule("from-flag", "x"),
    });
    expect(load(repo.path).files).toEqual([repo.join("memnox.policies.toml")]);
    expect(load(repo.path, { env: { MEMNOX_POLICIES: "env.toml" } }).files).toEqual([repo.join("env.toml")]);
    expect(load(repo.path, { env: { MEMNOX_POLICIES: "env.toml" }, file: "flag.toml" }).files).toEqual([
      repo.join("flag.toml"),
    ]);
  });

  test("a named file that is missing is a problem, not silence", () => {
    using dir = tempDir("pol");
    const set = load(dir.path, { env: { MEMNOX_POLICIES: "/nowhere/p.toml" } });
    expect(set.problems.map(formatProblem)).toEqual(["/nowhere/p.toml: the rule file is missing"]);
  });

  test("the machine file applies everywhere, beside the repository's", () => {
    using mh = fakeHome({ ".memnox/machine.policies.toml": rule("no-ssh", "filesystem.read") });
    using repo = gitRepo({ "memnox.policies.toml": rule("repo-rule", "git.push-force") });
    const mpaths = memnoxPaths(mh.env());
    const set = loadRuleSet({ cwd: repo.path, env: mh.env(), paths: mpaths });
    expect(set.files).toEqual([repo.join("memnox.policies.toml"), mpaths.machinePolicies]);
    expect(set.evaluate(request(act("filesystem.read")), [], AT).effect).toBe("deny");
  });

  test("a registered file applies inside its repository, or everywhere when it is in none", () => {
    using mh = fakeHome({ "team.toml": rule("team", "deploy.service") });
    using repoA = gitRepo({ "rules/a.toml": rule("only-a", "x") });
    using repoB = gitRepo({ "b.txt": "b" });
    const mpaths = memnoxPaths(mh.env());
    registerFile(mpaths.policiesRegistry, repoA.join("rules", "a.toml"));
    registerFile(mpaths.policiesRegistry, join(mh.home, "team.toml"));
    const inA = loadRuleSet({ cwd: repoA.path, env: mh.env(), paths: mpaths });
    const inB = loadRuleSet({ cwd: repoB.path, env: mh.env(), paths: mpaths });
    expect([...inA.files].sort()).toEqual([repoA.join("rules", "a.toml"), join(mh.home, "team.toml")].sort());
    expect(inB.files).toEqual([join(mh.home, "team.toml")]);
    expect(inB.checked.find((c) => c.path === repoA.join("rules", "a.toml"))?.applies).toBe(false);
  });

  test("a broken file blanks only itself, and only an applicable one is the gate's problem", () => {
    using mh = fakeHome({ ".memnox/machine.policies.toml": rule("no-ssh", "filesystem.read") });
    using repo = gitRepo({ "memnox.policies.toml": "version = 1\n[[policies]\nname = 'x'\n" });
    using other = gitRepo({ "elsewhere.toml": "version = [" });
    const mpaths = memnoxPaths(mh.env());
    registerFile(mpaths.policiesRegistry, other.join("elsewhere.toml"));
    const set = loadRuleSet({ cwd: repo.path, env: mh.env(), paths: mpaths });
    expect(set.evaluate(request(act("filesystem.read")), [], AT).effect).toBe("deny");
    expect(set.problems).toHaveLength(1);
    expect(set.problems[0]?.file).toBe(repo.join("memnox.policies.toml"));
    expect(set.problems[0]?.line).toBeGreaterThan(0);
    expect(set.checked.filter((c) => c.problems.length > 0).map((c) => c.applies)).toEqual([true, false]);
  });

  test("a malformed registry is a problem beside the rules, not a crash", () => {
    using mh = fakeHome({ ".memnox/policies.json": "{not json", ".memnox/machine.policies.toml": rule("m", "x") });
    const set = loadRuleSet({ cwd: mh.home, env: mh.env(), paths: memnoxPaths(mh.env()) });
    expect(set.problems[0]?.message).toContain("policies.json");
    expect(set.evaluate(request(act("x")), [], AT).effect).toBe("deny");
  });
});

describe("the set in force has a content hash, and sources replay exactly", () => {
  test("same content, different place: same hash; different content: different hash", () => {
    using a = gitRepo({ "memnox.policies.toml": FORCE_PUSH });
    using b = gitRepo({ "memnox.policies.toml": FORCE_PUSH });
    using c = gitRepo({ "memnox.policies.toml": FORCE_PUSH.replace("main", "trunk") });
    expect(load(a.path).hash).toBe(load(b.path).hash);
    expect(load(a.path).hash).not.toBe(load(c.path).hash);
    expect(load(a.path).hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("a loaded set is what the gate's rules() returns", () => {
    using repo = gitRepo({ "memnox.policies.toml": FORCE_PUSH });
    const view: RuleSetView = load(repo.path);
    const push = act("git.push-force", { branch: "main" });
    expect(view.evaluate(request(push), [], AT)).toMatchObject({ effect: "deny", alternative: { action: "git.push" } });
  });

  test("ruleSetFromSources recompiles the same rules with the same hash", () => {
    using repo = gitRepo({ "memnox.policies.toml": FORCE_PUSH });
    const set = load(repo.path);
    expect(set.sources).toEqual([
      { path: repo.join("memnox.policies.toml"), origin: "repository", text: FORCE_PUSH, hash: expect.any(String) },
    ]);
    const again = ruleSetFromSources(set.sources, home.home);
    expect(again.hash).toBe(set.hash);
    const push = act("git.push-force", { branch: "main" });
    expect(again.evaluate(request(push), [], AT)).toEqual(set.evaluate(request(push), [], AT));
  });
});

test("loading TOML rules never loads the YAML library", async () => {
  using repo = gitRepo({ "memnox.policies.toml": FORCE_PUSH });
  const script = `
    const { loadRuleSet } = await import(${JSON.stringify(join(import.meta.dir, "../src/policy/load/index.ts"))});
    const set = loadRuleSet({ cwd: ${JSON.stringify(repo.path)}, env: {}, paths: { home: "/nowhere", machinePolicies: "/nowhere/m.toml", policiesRegistry: "/nowhere/p.json" } });
    const yamlLoaded = Object.keys(require.cache).some((k) => k.includes("/node_modules/yaml/"));
    console.log(JSON.stringify({ files: set.files.length, yamlLoaded }));`;
  const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe", env: home.env() });
  const out = await new Response(child.stdout).text();
  expect(await child.exited).toBe(0);
  expect(JSON.parse(out)).toEqual({ files: 1, yamlLoaded: false });
});

import { describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import fixture from "../fixtures/verb-tables/sample.json";
import type { Action, ActionClass } from "../src/core/action.ts";
import { baselineRules, entryPattern, type RuleSpec, TOKEN_PRINTS } from "../src/policy/baseline.ts";
import { compile, evaluate } from "../src/policy/engine/index.ts";
import { checkText } from "../src/policy/load/index.ts";
import { renderRuleFile } from "../src/policy/render.ts";
import { mergeRules } from "../src/policy/write.ts";
import { resolveCommand } from "../src/resolve/index.ts";
import type { VerbTable } from "../src/resolve/types.ts";
import { tempDir } from "./support/index.ts";

const TABLES = fixture.tables as unknown as readonly VerbTable[];
const HOME = "/home/sam";
const AT = { epochMs: Date.parse("2026-11-30T12:00:00Z"), utcOffsetMinutes: 0 };
const base = baselineRules(TABLES, { date: "2026-11-30" });

/** The baseline written to files and read back through the loader, exactly as a person's machine would. */
function loaded() {
  const m = checkText("/home/sam/.memnox/machine.policies.toml", "machine", renderRuleFile(["m"], base.machine));
  const r = checkText("/repo/memnox.policies.toml", "repository", renderRuleFile(["r"], base.repository));
  expect([...m.problems, ...r.problems]).toEqual([]);
  return compile([...m.rules, ...r.rules], { home: HOME });
}

const set = loaded();
const verdict = (name: string, targets: string[] = [], cls: ActionClass = "unknown") => {
  const action: Action = { name, class: cls, targets, arguments: {} };
  return evaluate(set, { action, cwd: "/repo", scope: "undeclared" }, [], AT);
};

const pick = (v: ReturnType<typeof verdict>) => ({ effect: v.effect as string, rule: v.rule?.name });

describe("the machine part: secret reads denied", () => {
  test("public keys and listings are no secret; a private key, a glob over the directory or a recursive read is", () => {
    for (const p of ["id_ed25519.pub", "known_hosts", "authorized_keys", "*.pub"])
      expect(verdict("filesystem.read", [`/home/sam/.ssh/${p}`], "read").effect).toBe("allow");
    expect(verdict("filesystem.list", ["/home/sam/.ssh"], "read").effect).toBe("allow");
    for (const p of ["id_ed25519", "*", "**", "work_key", "sub/id_rsa"])
      expect(verdict("filesystem.read", [`/home/sam/.ssh/${p}`], "read").effect).toBe("deny");
  });

  test.each([
    "/home/sam/.ssh/id_ed25519",
    "/srv/backup/.ssh/id_rsa",
    "/home/sam/.aws/credentials",
    "/home/sam/.config/gh/hosts.yml",
    "/home/sam/.docker/config.json",
    "/home/sam/.kube/config",
    "/home/sam/.config/gcloud/legacy_credentials/sam@example.com/adc.json",
    "/home/sam/.npmrc",
    "/home/sam/.pypirc",
    "/home/sam/.gnupg/private-keys-v1.d/x.key",
    "/repo/.env",
    "/repo/app/.env.production.local",
  ])("reading %s is denied, with a reason", (path) => {
    const v = verdict("filesystem.read", [path], "read");
    expect(v.effect).toBe("deny");
    expect(v.reason.length).toBeGreaterThan(30);
  });

  test("`.env` names `.env.example` as the alternative; a key with no substitute names none", () => {
    expect(verdict("filesystem.read", ["/repo/.env"]).alternative).toMatchObject({
      action: "filesystem.read",
      resource: ".env.example",
    });
    expect(verdict("filesystem.read", ["/home/sam/.ssh/id_ed25519"]).alternative).toBeUndefined();
    expect(verdict("filesystem.read", ["/home/sam/.ssh/id_ed25519"]).reason).toBe(
      "almost no task needs the key itself, and a leaked one is somebody’s weekend",
    );
  });

  test("the substitute itself is readable, and so are ordinary files", () => {
    expect(verdict("filesystem.read", ["/repo/.env.example"]).effect).toBe("allow");
    expect(verdict("filesystem.read", ["/repo/src/index.ts"]).effect).toBe("allow");
    expect(verdict("filesystem.read", ["/home/sam/.config/app/settings.json"]).effect).toBe("allow");
  });

  test("a CLI printing its own token is denied like its credential file; its other reads stay allowed", () => {
    const lines = [
      "aws configure export-credentials",
      "aws sts get-session-token",
      "az account get-access-token",
      "fly auth token",
      "gcloud auth application-default print-access-token",
      "gcloud auth print-access-token",
      "gcloud auth print-identity-token",
      "gh auth token",
    ];
    // Each listed action is what the resolver really yields, so a renamed verb cannot leave the rule dead.
    const resolved = lines.map((l) => resolveCommand(l, { cwd: "/repo", home: HOME }).actions[1]?.name);
    expect(resolved).toEqual([...TOKEN_PRINTS]);
    for (const a of TOKEN_PRINTS) {
      expect(verdict(a, [], "read")).toMatchObject({ effect: "deny", rule: { name: "cli-tokens-not-printed" } });
    }
    expect(verdict("gh.auth-status", [], "read").effect).toBe("allow");
  });
});

describe("the repository part, from the verb tables", () => {
  test("git push --force is denied with --force-with-lease as the alternative, and a lease push is a push", () => {
    const v = verdict("git.push-force");
    expect(v).toMatchObject({
      effect: "deny",
      rule: { name: "git-push-force-denied" },
      reason: "a force-push can destroy work that exists nowhere else",
      alternative: { action: "git.push-lease" },
    });
    expect(verdict("git.push-lease")).toMatchObject({ effect: "ask", rule: { name: "outward-commands-asked" } });
  });

  test.each([
    ["git.clean", "deny", "destructive-commands-denied"],
    ["gh.repo-delete", "deny", "destructive-commands-denied"],
    ["psql.drop", "deny", "destructive-commands-denied"],
    ["aws.ec2-delete-vpc", "deny", "destructive-commands-denied"],
    ["gcloud.compute-instances-delete", "deny", "destructive-commands-denied"],
    ["git.reset-hard", "deny", "git-reset-hard-denied"],
    ["git.push", "ask", "outward-commands-asked"],
    ["gh.pr-merge", "ask", "outward-commands-asked"],
    ["aws.unknown", "ask", "unknown-subcommands-asked"],
    ["gcloud.alpha-anything-new", "ask", "unknown-subcommands-asked"],
    ["mcp.github.merge_pull_request", "ask", "mcp-calls-asked"],
    ["http.request", "ask", "http-requests-asked"],
    ["git.status", "allow", "reads-allowed"],
    ["aws.ec2-describe-instances", "allow", "reads-allowed"],
    ["psql.select", "allow", "reads-allowed"],
  ])("%s: %s by %s", (name, effect, rule) => {
    // Each as the table classes it: a rule on destructive verbs holds while they are destructive.
    const v = verdict(name, [], rule === "destructive-commands-denied" ? "destructive" : "unknown");
    expect(v.effect as string).toBe(effect);
    expect(v.rule?.name).toBe(rule);
  });

  test("a push proceeds on a branch of its own and asks on the default branch, a protected one or a tag", () => {
    const at = (where: string) => {
      const action: Action = { name: "git.push", class: "communication", targets: ["origin"], arguments: {} };
      const fact = { kind: "push", subject: where, expiresAt: "2099-01-01T00:00:00.000Z" };
      return pick(evaluate(set, { action, cwd: "/repo", scope: "undeclared" }, [fact], AT));
    };
    expect(at("branch")).toEqual({ effect: "allow", rule: "branch-pushes-allowed" });
    for (const where of ["default", "protected", "tag", "unknown"])
      expect(at(where)).toEqual({ effect: "ask", rule: "shared-pushes-asked" });
  });

  test("a delete asks only where nothing brings it back; inside the repository the milestone does", () => {
    expect(verdict("filesystem.delete", ["/home/sam/notes"], "destructive")).toMatchObject({
      effect: "ask",
      rule: { name: "deletes-asked" },
    });
    expect(verdict("filesystem.delete", ["/repo/src/old.ts"], "write")).toMatchObject({
      effect: "allow",
      rule: { name: "repository-deletes-allowed" },
    });
    expect(verdict("filesystem.delete", ["/repo/.env"], "write")).toMatchObject({
      effect: "ask",
      rule: { name: "env-file-deletes-asked" },
    });
  });

  test("the local loop proceeds by rules that say why; fetched code, publishing and one-liners that run programs ask", () => {
    const cases: [string, string[], ActionClass, string, string][] = [
      ["npm.test", [], "write", "allow", "project-scripts-allowed"],
      ["pytest.run", [], "write", "allow", "project-scripts-allowed"],
      ["http.loopback", ["localhost"], "read", "allow", "loopback-requests-allowed"],
      ["mcp.filesystem.list_allowed_directories", ["filesystem"], "read", "allow", "mcp-reads-allowed"],
      ["mcp.filesystem.write_file", ["filesystem"], "write", "ask", "mcp-calls-asked"],
      ["shell.fetched", ["cowsay"], "unknown", "ask", "fetched-code-asked"],
      ["cargo.publish", [], "communication", "ask", "publishing-asked"],
      ["python.eval", [], "unknown", "ask", "inline-code-running-programs-asked"],
    ];
    for (const [name, targets, cls, effect, rule] of cases)
      expect({ name, ...pick(verdict(name, targets, cls)) }).toEqual({ name, effect, rule });
    expect(verdict("python.eval", [], "read").effect).toBe("allow");
  });

  test("writes are left ungoverned: the baseline does not pretend to know", () => {
    expect(verdict("git.commit").governed).toBe(false);
  });

  test("every rule has a description with the date and a reason a person can read", () => {
    for (const r of [...base.machine, ...base.repository]) {
      expect(r.description).toContain("memnox protect --yes on 2026-11-30");
      expect(r.decision.reason?.length ?? 0).toBeGreaterThan(30);
    }
  });

  test("an alternative is named only when the substitute exists in the tables", () => {
    const noStash = TABLES.map((t) => ({ ...t, verbs: t.verbs.filter((e) => e.action !== "git.stash") }));
    const names = baselineRules(noStash, { date: "2026-11-30" }).repository.map((r) => r.name);
    expect(names).not.toContain("git-reset-hard-denied");
    const denied = baselineRules(noStash, { date: "2026-11-30" }).repository.find(
      (r) => r.name === "destructive-commands-denied",
    );
    expect(denied?.match.actions).toContain("git.reset-hard");
  });

  test("entry patterns fill placeholders from the path words", () => {
    const e = (path: string[], action: string) => entryPattern({ path, action, class: "read" });
    expect(e(["*", "delete-*"], "aws.{1}-{2}")).toBe("aws.*-delete-*");
    expect(e(["**", "delete"], "gcloud.{path}")).toBe("gcloud.*-delete");
    expect(e(["pr", "merge"], "gh.pr-merge")).toBe("gh.pr-merge");
    expect(e(["Db.Instances", "x"], "az.{1}")).toBe("az.db-instances");
  });
});

describe("merging into a rule file", () => {
  const opts = { header: ["test"], mode: 0o644 };
  const USER = `# our own rules
version = 1
project = "shop"

[[policies]]
name = "no-prod-deploys"
[policies.match]
actions = ["vercel.deploy-prod"]
[policies.decision]
effect = "deny"
reason = "Production deploys go through CI."
`;

  test("a new file is created readable, and re-running changes nothing", () => {
    using dir = tempDir("merge");
    const path = dir.join("memnox.policies.toml");
    const first = mergeRules(path, base.repository, opts);
    expect(first).toMatchObject({ created: true, keptYours: [] });
    expect(first.added).toHaveLength(base.repository.length);
    expect(statSync(path).mode & 0o777).toBe(0o644);
    const text = readFileSync(path, "utf8");
    expect(text).toContain("# git\n");
    const again = mergeRules(path, base.repository, opts);
    expect(again).toMatchObject({ created: false, added: [] });
    expect(again.unchanged).toHaveLength(base.repository.length);
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  test("an existing file keeps every byte of the person's rules, and gains only what it lacks", () => {
    using dir = tempDir("merge", { "memnox.policies.toml": USER });
    const path = dir.join("memnox.policies.toml");
    const backups: string[] = [];
    const r = mergeRules(path, base.repository, { ...opts, backup: (p) => backups.push(p) });
    expect(r.added).toHaveLength(base.repository.length);
    expect(backups).toEqual([path]);
    const text = readFileSync(path, "utf8");
    expect(text.startsWith(USER)).toBe(true);
    const names = checkText(path, "repository", text).rules.map((x) => x.name);
    expect(names[0]).toBe("no-prod-deploys");
  });

  test("a person's edited baseline rule is kept, and said so", () => {
    using dir = tempDir("merge");
    const path = dir.join("memnox.policies.toml");
    const loosened: RuleSpec[] = base.repository.map((r) =>
      r.name === "deletes-asked"
        ? { ...r, decision: { effect: "allow", reason: "we delete build dirs a lot here" } }
        : r,
    );
    writeFileSync(path, renderRuleFile(["mine"], loosened));
    const r = mergeRules(path, base.repository, opts);
    expect(r.keptYours).toEqual(["deletes-asked"]);
    expect(r.added).toEqual([]);
    expect(readFileSync(path, "utf8")).toContain("we delete build dirs a lot here");
  });

  test("a long list whose order the renderer regroups still reads back as the same rule", () => {
    using dir = tempDir("merge", {});
    const path = dir.join("memnox.policies.toml");
    const actions = [
      "gh.pr-merge",
      "git.push-force",
      "gh.release-delete",
      "git.reset-hard",
      "gh.repo-delete",
      "git.clean",
    ];
    const spec: RuleSpec = { name: "mixed", match: { actions }, decision: { effect: "deny", reason: "mixed order" } };
    expect(mergeRules(path, [spec], opts).created).toBe(true);
    expect(mergeRules(path, [spec], opts).unchanged).toEqual(["mixed"]);
  });

  test("a file with problems is refused and left untouched", () => {
    const broken = `${USER}\n[[policies]]\nname = "x"\n[policies.decision]\neffect = "block"\n`;
    using dir = tempDir("merge", { "memnox.policies.toml": broken });
    const path = dir.join("memnox.policies.toml");
    expect(() => mergeRules(path, base.repository, opts)).toThrow(/memnox\.policies\.toml:16: rule `x`.*now `deny`/);
    expect(readFileSync(path, "utf8")).toBe(broken);
  });

  test("a YAML file is merged as YAML, keeping the person's rules", () => {
    const yaml = `# ours\nversion: 1\npolicies:\n  - name: no-prod-deploys\n    match:\n      actions: [vercel.deploy-prod]\n    decision:\n      effect: deny\n      reason: Production deploys go through CI.\n`;
    using dir = tempDir("merge", { "memnox.policies.yaml": yaml });
    const path = dir.join("memnox.policies.yaml");
    mergeRules(path, base.repository, opts);
    const after = checkText(path, "repository", readFileSync(path, "utf8"));
    expect(after.problems).toEqual([]);
    expect(after.rules.map((x) => x.name)).toEqual(["no-prod-deploys", ...base.repository.map((x) => x.name)]);
    expect(readFileSync(path, "utf8")).toContain("# ours");
  });
});

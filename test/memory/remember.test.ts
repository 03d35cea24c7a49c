// Any rule in force that carries a reason can be remembered as a decision page, by name or all at once.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MemnoxError } from "../../src/core/errors.ts";
import { run } from "../../src/seams/cli/index.ts";
import { fakeHome, gitRepo, testContext } from "../support/index.ts";

const RULES = `version = 1

[[policies]]
name = "no-force-push"
[policies.match]
actions = [ "git.push-force" ]
[policies.decision]
effect = "deny"
reason = "main's history is shared; rewriting it breaks every clone"

[[policies]]
name = "ask-before-shell"
[policies.match]
actions = [ "shell.execute" ]
[policies.decision]
effect = "ask"
`;

const MACHINE = `version = 1

[[policies]]
name = "cloud-credentials-not-read"
[policies.match]
actions = [ "filesystem.read" ]
targets = [ "~/.aws/credentials" ]
[policies.decision]
effect = "deny"
reason = "the CLI reads this credential itself and keeps working"
`;

const home = fakeHome();
const repo = gitRepo({ "memnox.policies.toml": RULES });
repo.git("remote", "add", "origin", "git@github.com:acme/shop.git");
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

async function cli(args: string[], now?: number) {
  const { ctx, io } = testContext(home, { args, cwd: repo.path, ...(now !== undefined ? { now } : {}) });
  const code = await run(ctx).catch((e: unknown) => e);
  return { code, out: io.stdout() };
}

const memory = () => join(home.memnoxHome, "memory");
const pages = () =>
  existsSync(memory())
    ? readdirSync(memory(), { recursive: true })
        .map(String)
        .filter((p) => /\/decision\/rule-[^/]+\.md$/.test(p))
        .sort()
    : [];

describe("memnox memory remember", () => {
  test("a rule without a reason, or a name not in force, is refused and nothing is written", async () => {
    const none = await cli(["memory", "remember", "ask-before-shell"]);
    expect(none.code).toBeInstanceOf(MemnoxError);
    expect((none.code as MemnoxError).message).toContain("has no reason");
    expect((none.code as MemnoxError).hint).toContain("decision.reason");
    const unknown = await cli(["memory", "remember", "no-such-rule"]);
    expect((unknown.code as MemnoxError).message).toContain("no rule named `no-such-rule` is in force here");
    expect(pages()).toEqual([]);
  });

  test("a rule by name becomes a decision page with its reason, who decided, where and the rule file", async () => {
    const r = await cli(["memory", "remember", "no-force-push", "--by", "Ada", "--json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { remembered: { slug: string; file_path: string }[] };
    expect(report.remembered.map((p) => p.slug)).toEqual(["rule-no-force-push"]);
    const path = report.remembered[0]?.file_path ?? "";
    expect(path).toContain(join("docs", "projects", "git-shop", "decision", "rule-no-force-push.md"));
    const text = readFileSync(path, "utf8");
    expect(text).toContain('type: "decision"');
    expect(text).toContain("main's history is shared; rewriting it breaks every clone");
    expect(text).toContain("- Rule: `no-force-push` (deny)");
    expect(text).toContain("- Decided by: Ada");
    expect(text).toContain("- Where: this repository's rules");
    expect(text).toContain(`- Rule file: ${join(repo.path, "memnox.policies.toml")}`);
    const recall = await cli(["memory", "recall", "force push", "--type", "decision", "--json"]);
    expect((JSON.parse(recall.out) as { hits: { slug: string }[] }).hits.map((h) => h.slug)).toEqual([
      "rule-no-force-push",
    ]);
  });

  test("--all keeps every rule with a reason, machine rules as the machine's, names the rest, and is idempotent", async () => {
    writeFileSync(join(home.memnoxHome, "machine.policies.toml"), MACHINE);
    const first = await cli(["memory", "remember", "--all", "--by", "Ada", "--json"]);
    expect(first.code).toBe(0);
    const report = JSON.parse(first.out) as {
      remembered: { rule: string; file_path: string }[];
      skipped: { rule: string; why: string }[];
    };
    expect(report.remembered.map((p) => p.rule).sort()).toEqual(["cloud-credentials-not-read", "no-force-push"]);
    expect(report.skipped).toEqual([{ rule: "ask-before-shell", why: "it has no reason" }]);
    const machine = report.remembered.find((p) => p.rule === "cloud-credentials-not-read")?.file_path ?? "";
    expect(machine).toContain(join("docs", "projects", "machine", "decision"));
    expect(readFileSync(machine, "utf8")).toContain("- Where: decided on this machine");
    const before = pages().map((p) => readFileSync(join(memory(), p), "utf8"));
    const again = await cli(["memory", "remember", "--all", "--by", "Ada"], Date.parse("2026-12-24T09:00:00.000Z"));
    expect(again.code).toBe(0);
    expect(again.out).toContain("ask-before-shell: not remembered, it has no reason");
    expect(pages().map((p) => readFileSync(join(memory(), p), "utf8").replace(/^timestamp: .*$/m, ""))).toEqual(
      before.map((t) => t.replace(/^timestamp: .*$/m, "")),
    );
  });
});

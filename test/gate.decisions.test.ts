// Decisions bind: a decision the team recorded in memory tightens the gate's verdict on an action that shares its
// terms (deterministic term overlap), quotes the decision, and `why` names its page. It never loosens anything.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Action } from "../src/core/action.ts";
import { actionTerms, type Decision, decisionTerms, isBinding, stem } from "../src/core/decisions.ts";
import { decisionFindings } from "../src/gate/decisions.ts";
import { projectIdAt } from "../src/io/project-id.ts";
import { projectFromCwd } from "../src/memory/format/project.ts";
import { run } from "../src/seams/cli/index.ts";
import { fakeHome, gitRepo, runBinary, testContext } from "./support/index.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "shop\n" });
const other = gitRepo({ "README.md": "elsewhere\n" });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
  other[Symbol.dispose]();
});

async function cli(args: string[], cwd = repo.path) {
  const { ctx, io } = testContext(home, { args, cwd });
  const code = await run(ctx);
  return { code, out: io.stdout(), err: io.stderr() };
}

interface Tested {
  effect: string;
  reason: string;
  rule: { name: string; file: string; line: number } | null;
}

const tested = async (line: string, cwd = repo.path) =>
  JSON.parse((await cli(["policy", "test", line, "--json"], cwd)).out) as Tested;

/** The project's decision type, declared once whichever test runs first. */
async function decisionType(): Promise<void> {
  const { ctx } = testContext(home, { args: ["memory", "types", "enable", "decision"], cwd: repo.path });
  await run(ctx).catch(() => 1);
}

const action = (name: string, cls: Action["class"], targets: string[]): Action => ({
  name,
  class: cls,
  targets,
  arguments: {},
});

describe("the term-overlap match (pure)", () => {
  const pii: Decision = {
    slug: "we-do-not-log-pii",
    statement: "We do not log PII",
    file: "/m/we-do-not-log-pii.md",
    project_id: "p",
    valid_from: null,
    valid_until: "2027-01-01T00:00:00Z",
    terms: decisionTerms("We do not log PII"),
  };

  test("a constraint's subject words are its terms; a choice made is not binding", () => {
    expect(decisionTerms("We do not log PII")).toEqual(["log", "pii"]);
    expect(["logs", "logging", "logged", "log"].map(stem)).toEqual(["log", "log", "log", "log"]);
    expect(isBinding("We do not log PII")).toBe(true);
    expect(isBinding("Production migrations are never taken by an agent alone")).toBe(true);
    expect(isBinding("We chose Kafka over RabbitMQ for ordering")).toBe(false);
    expect([...actionTerms(action("data-write.run", "unknown", ["logs"]), "/r")].sort()).toEqual([
      "data",
      "log",
      "write",
    ]);
  });

  test("an action that changes something and shares a term is asked about; reads, and the bare line, never are", () => {
    const at = "2026-11-30T12:00:00.000Z";
    const ask = decisionFindings(action("data-write.run", "unknown", ["logs"]), [pii], "/r", at);
    expect(ask.map((f) => [f.effect, f.source, f.ref?.name])).toEqual([
      ["ask", "decision", "decision:we-do-not-log-pii"],
    ]);
    expect(ask[0]?.reason).toBe(
      'a recorded decision applies: "We do not log PII" (memory page we-do-not-log-pii), and data-write.run touches "log"; a person decides whether this contradicts it',
    );
    expect(
      decisionFindings(action("filesystem.write", "write", ["/r/app/logs/today.txt"]), [pii], "/r", at),
    ).toHaveLength(1);
    expect(decisionFindings(action("git.log", "read", ["/r"]), [pii], "/r", at)).toEqual([]);
    expect(decisionFindings(action("shell.execute", "unknown", ["data.write logs"]), [pii], "/r", at)).toEqual([]);
    expect(decisionFindings(action("filesystem.write", "write", ["/r/src/app.ts"]), [pii], "/r", at)).toEqual([]);
    // Outside its validity window a decision binds nothing.
    expect(
      decisionFindings(action("data-write.run", "unknown", ["logs"]), [pii], "/r", "2027-02-01T00:00:00.000Z"),
    ).toEqual([]);
  });

  test("the gate works out a directory's project id exactly as memory does, with no git process", async () => {
    const git = testContext(home).ctx.git;
    for (const dir of [repo.path, other.path, home.home])
      expect(projectIdAt(dir)).toBe((await projectFromCwd(git, dir)).id);
    writeFileSync(
      join(repo.path, ".git", "config"),
      `${readFileSync(join(repo.path, ".git", "config"), "utf8")}[remote "origin"]\n\turl = git@github.com:Acme/Shop.git\n`,
    );
    expect(projectIdAt(repo.path)).toBe((await projectFromCwd(git, repo.path)).id);
    expect(projectIdAt(repo.path)).toMatch(/^[0-9a-f]{24}$/);
  });
});

describe("decisions bind, through memnox policy test and the real hook", () => {
  test("before any decision `data.write logs` is allowed; after one is recorded it asks, quoting it and naming its page", async () => {
    expect((await tested("data.write logs")).effect).toBe("allow");
    await decisionType();
    const w = await cli([
      "memory",
      "write",
      "--type",
      "decision",
      "--title",
      "We do not log PII",
      "--body",
      "Personal data never goes to logs.",
      "--scope",
      "project",
      "--json",
    ]);
    const page = JSON.parse(w.out) as { file_path: string };
    const t = await tested("data.write logs");
    expect(t.effect).toBe("ask");
    expect(t.reason).toContain('"We do not log PII"');
    expect(t.rule).toEqual({ name: "decision:we-do-not-log-pii", file: page.file_path, line: 1 });
    const r = await cli(["policy", "test", "data.write logs"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`rule        decision:we-do-not-log-pii (${page.file_path}:1)`);
    // Unrelated work, and reading the logs, are not slowed down by it.
    for (const line of ["git status", "git log", "ls logs", "cat logs/today.txt", "bun test"])
      expect((await tested(line)).effect).toBe("allow");
  });

  test("it binds in its project only; a choice made (no constraint) binds nothing; a retired decision lets go", async () => {
    await decisionType();
    expect((await tested("data.write logs", other.path)).effect).toBe("allow");
    await cli([
      "memory",
      "write",
      "--type",
      "decision",
      "--title",
      "We chose Kafka for queues",
      "--body",
      "Ordering.",
      "--scope",
      "project",
    ]);
    expect((await tested("kafka-topics --create --topic queues")).effect).toBe("allow");
    const snapshot = JSON.parse(readFileSync(join(home.memnoxHome, "memory", "memnox-decisions.json"), "utf8"));
    expect(snapshot.decisions.map((d: { slug: string }) => d.slug)).toEqual(["we-do-not-log-pii"]);
    const project = (await projectFromCwd(testContext(home).ctx.git, repo.path)).id;
    expect(
      (
        await cli([
          "memory",
          "forget",
          "we-do-not-log-pii",
          "--mode",
          "archive",
          "--scope",
          "project",
          "--project-id",
          project,
        ])
      ).code,
    ).toBe(0);
    expect(existsSync(join(home.memnoxHome, "memory", "memnox-decisions.json"))).toBe(false);
    expect((await tested("data.write logs")).effect).toBe("allow");
  });

  test("it only ever tightens: a rule's deny stays a deny, and a rule's allow still asks", async () => {
    await decisionType();
    await cli([
      "memory",
      "write",
      "--type",
      "decision",
      "--title",
      "Never ship to production on Fridays",
      "--body",
      "x",
      "--scope",
      "project",
    ]);
    writeFileSync(
      join(repo.path, "memnox.policies.toml"),
      [
        "version = 1",
        "[[policies]]",
        'name = "ship-allowed"',
        "[policies.match]",
        'actions = ["ship.run"]',
        "[policies.decision]",
        'effect = "allow"',
        'reason = "shipping is routine"',
        "[[policies]]",
        'name = "nuke-denied"',
        "[policies.match]",
        'actions = ["nuke.run"]',
        "[policies.decision]",
        'effect = "deny"',
        'reason = "nuking is never routine"',
        "",
      ].join("\n"),
    );
    const ship = await tested("ship production");
    expect([ship.effect, ship.rule?.name]).toEqual(["ask", "decision:never-ship-to-production-on-fridays"]);
    const nuke = await tested("nuke production");
    expect([nuke.effect, nuke.rule?.name]).toEqual(["deny", "nuke-denied"]);
  });

  test("the real hook (compiled binary, enforce) asks; the row names the page; why --verify reproduces it", async () => {
    writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
    const env = home.env();
    const payload = JSON.stringify({
      session_id: "ses-decisions",
      cwd: repo.path,
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: "Bash",
      tool_input: { command: "ship production" },
      tool_use_id: "toolu_1",
    });
    const r = await runBinary("memnox", ["hook", "claude-code", "PreToolUse"], { env, stdin: payload, cwd: repo.path });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    expect(out.hookSpecificOutput.permissionDecision).toBe("ask");
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain('"Never ship to production on Fridays"');
    const why = await runBinary("memnox", ["why", "--verify"], { env, cwd: repo.path });
    expect(why.stdout).toMatch(
      /^rule {4}decision:never-ship-to-production-on-fridays \(.*\/decision\/never-ship-to-production-on-fridays\.md:1\)$/m,
    );
    expect(why.stdout).toContain('reason  a recorded decision applies: "Never ship to production on Fridays"');
    expect(why.code).toBe(0);
  }, 180_000);
});

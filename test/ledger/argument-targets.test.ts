// A command line and an unknown program's argv are the call's own arguments: the ledger keeps only their digest,
// and a verdict a rule's `targets` gave on them still replays, through the real hook face and the real engine.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeHome, gitRepo, runSource } from "../support/index.ts";

const SECRET = "sk-live-CANARY-4d1e9b7c2a";
const home = fakeHome();
const repo = gitRepo({ "README.md": "one\n" });
afterAll(() => {
  repo[Symbol.dispose]();
  home[Symbol.dispose]();
});

const RULES = `version = 1
[[policies]]
name = "no-recursive-delete"
[policies.match]
actions = ["shell.execute"]
targets = ["*rm -rf*"]
[policies.decision]
effect = "deny"
reason = "Recursive delete is not an agent action here."

[[policies]]
name = "frobnicate-passwords-ask"
[policies.match]
actions = ["frobnicate.run"]
targets = ["--password"]
[policies.decision]
effect = "ask"
reason = "a password on a command line asks"
`;

function pre(command: string, toolUseId: string): string {
  return JSON.stringify({
    session_id: "ses-argtargets",
    cwd: repo.path,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: toolUseId,
  });
}

interface Row {
  readonly id: string;
  readonly operation: string;
  readonly effect: string;
  readonly ruleId?: string;
  readonly resourceRef?: string;
  readonly request?: { readonly targets: readonly string[]; readonly targetMatches?: readonly string[] };
}

test("a secret in a command line or an unknown program's argv never reaches the ledger; the verdicts still replay", async () => {
  writeFileSync(repo.join("memnox.policies.toml"), RULES);
  writeFileSync(join(home.memnoxHome, "config.toml"), `mode = "enforce"\n`);
  const env = home.env();
  const memnox = (args: string[], stdin?: string) =>
    runSource("memnox", args, { env, cwd: repo.path, ...(stdin === undefined ? {} : { stdin }) });

  const denied = await memnox(
    ["hook", "claude-code", "PreToolUse"],
    pre(`rm -rf build && deploytool --token ${SECRET}`, "t1"),
  );
  expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  const asked = await memnox(["hook", "claude-code", "PreToolUse"], pre(`frobnicate --password ${SECRET}`, "t2"));
  expect(JSON.parse(asked.stdout).hookSpecificOutput.permissionDecision).toBe("ask");

  const timeline = await memnox(["timeline", "--json"]);
  const rows = (JSON.parse(timeline.stdout) as { events: Row[] }).events;
  const line = rows.find((r) => r.operation === "shell.execute");
  const frob = rows.find((r) => r.operation === "frobnicate.run");
  expect(line).toMatchObject({ effect: "deny", ruleId: "no-recursive-delete" });
  expect(frob).toMatchObject({ effect: "ask", ruleId: "frobnicate-passwords-ask" });
  for (const r of [line, frob]) {
    expect(r?.resourceRef).toBeUndefined();
    expect(r?.request?.targets).toEqual([]);
    expect(r?.request?.targetMatches).toEqual([r?.ruleId ?? ""]);
  }

  const outputs = [timeline.stdout, timeline.stderr, denied.stderr, asked.stderr];
  for (const r of [line, frob]) {
    const why = await memnox(["why", r?.id ?? "", "--verify", "--json"]);
    expect(JSON.parse(why.stdout).verify).toMatchObject({ reproduces: true, replayed: { ruleId: r?.ruleId } });
    outputs.push(why.stdout, why.stderr, (await memnox(["trace", r?.id ?? ""])).stdout);
  }
  outputs.push((await memnox(["replay", "--json"])).stdout, (await memnox(["timeline"])).stdout);
  for (const o of outputs) expect(o).not.toContain(SECRET);
  const db = join(home.memnoxHome, "memnox.db");
  for (const f of [db, `${db}-wal`].filter((p) => existsSync(p)))
    expect(readFileSync(f).toString("latin1")).not.toContain(SECRET);
}, 60_000);

const CHANGED_LATER = `version = 1
[[policies]]
name = "no-curl-to-prod"
[policies.match]
actions = ["shell.execute"]
arguments = { command = ["*curl*prod.example*"] }
[policies.decision]
effect = "deny"
reason = "production is reached through the deploy pipeline"

[[policies]]
name = "no-deploys-while-frozen"
[policies.match]
actions = ["npm.publish"]
state = ["freeze:payments"]
[policies.decision]
effect = "deny"
reason = "publishing waits while payments is frozen"
`;

test("with the real engine, an argument-matched and a frozen verdict reproduce after the rules changed and the freeze was lifted", async () => {
  writeFileSync(repo.join("memnox.policies.toml"), CHANGED_LATER);
  writeFileSync(join(home.memnoxHome, "config.toml"), `mode = "enforce"\n`);
  const env = home.env();
  const memnox = (args: string[], stdin?: string) =>
    runSource("memnox", args, { env, cwd: repo.path, ...(stdin === undefined ? {} : { stdin }) });
  const freeze = await memnox(["freeze", "payments", "--for", "2h", "--reason", "incident"]);
  expect(freeze.code).toBe(0);
  const ids: string[] = [];
  for (const [command, rule] of [
    ["curl -s https://prod.example/health", "no-curl-to-prod"],
    ["npm publish", "no-deploys-while-frozen"],
  ] as const) {
    const r = await memnox(["hook", "claude-code", "PreToolUse"], pre(command, `t-${rule}`));
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    const why = JSON.parse((await memnox(["why", "--json"])).stdout) as {
      event: { id: string; ruleId: string; request: { argumentMatches: unknown[]; facts: { kind: string }[] } };
    };
    expect(why.event.ruleId).toBe(rule);
    // Each verdict came from what it is meant to test: the recorded argument match, the recorded freeze.
    if (rule === "no-curl-to-prod")
      expect(why.event.request.argumentMatches).toEqual([
        { rule, argument: "command", pattern: "*curl*prod.example*" },
      ]);
    else expect(why.event.request.facts.map((f) => f.kind)).toEqual(["freeze"]);
    ids.push(why.event.id);
  }
  await memnox(["freeze", "payments", "--lift"]);
  writeFileSync(repo.join("memnox.policies.toml"), "version = 1\n");
  for (const id of ids) {
    const v = await memnox(["why", id, "--verify", "--json"]);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout).verify).toMatchObject({ reproduces: true, replayed: { effect: "deny" } });
  }
}, 60_000);

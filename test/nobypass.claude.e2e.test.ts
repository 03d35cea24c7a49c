// A real Claude Code session (2.1.197, scripted model on loopback) hooked by the compiled memnox: its SessionStart
// hook puts ~/.memnox/bin first on PATH for every later Bash call through CLAUDE_ENV_FILE, so a program the model
// writes and runs meets the git interceptor, and the refusal is a row of Claude Code's own session. (A script the
// line runs the gate reads, and the hook refuses what its text visibly does; this python file decodes its command at
// run time, which no reading can see, so only the interceptor stands between it and origin.)
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ScriptedModel, scriptedModel } from "./support/anthropic.ts";
import { type ClaudeProject, type ClaudeRun, claudeProject } from "./support/claude.ts";
import { compiledBinary, fakeHome, runBinary, tempDir } from "./support/index.ts";

const mem = fakeHome();
const origin = tempDir("memnox-origin");
let model: ScriptedModel;
let project: ClaudeProject;
let run: ClaudeRun;
let pushed = "";

function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: mem.env(), stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

beforeAll(async () => {
  const bin = await compiledBinary();
  writeFileSync(join(mem.memnoxHome, "config.toml"), 'mode = "enforce"\n');
  model = scriptedModel([
    {
      toolUse: {
        name: "Bash",
        input: {
          command:
            "printf 'import base64, subprocess\\nsubprocess.run(base64.b64decode(\"Z2l0IHB1c2ggLS1mb3JjZSBvcmlnaW4gbWFpbg==\").decode().split(), check=True)\\n' > p.py",
          description: "w",
        },
      },
    },
    { toolUse: { name: "Bash", input: { command: "python3 p.py", description: "run it" } } },
    { toolUse: { name: "Bash", input: { command: 'echo "PATH=$PATH SESSION=$MEMNOX_SESSION"', description: "env" } } },
    { text: "finished" },
  ]);
  const hook = (event: string) => [{ command: `${bin} hook claude-code ${event}` }];
  project = claudeProject({
    model,
    hooks: { SessionStart: hook("SessionStart"), PreToolUse: hook("PreToolUse"), PostToolUse: hook("PostToolUse") },
  });
  // origin's main is B; the checkout's main is C beside it: only a force push would rewrite origin.
  git(origin.path, "init", "-q", "--bare", "-b", "main");
  git(project.dir, "remote", "add", "origin", origin.path);
  writeFileSync(join(project.dir, "b.txt"), "b\n");
  git(project.dir, "add", "b.txt");
  git(project.dir, "commit", "-q", "-m", "B");
  git(project.dir, "push", "-q", "origin", "main");
  pushed = git(origin.path, "rev-parse", "main");
  git(project.dir, "reset", "-q", "--hard", "HEAD~1");
  for (const args of [
    ["protect", "--yes"],
    ["protect", "--interceptors"],
  ]) {
    const r = await runBinary("memnox", args, { env: mem.env(), cwd: project.dir });
    expect(r.code).toBe(0);
  }
  run = await project.run("write a script that pushes and run it", {
    env: { MEMNOX_HOME: mem.memnoxHome },
    allowedTools: ["Bash"],
  });
});

afterAll(async () => {
  await project[Symbol.asyncDispose]();
  await model[Symbol.asyncDispose]();
  mem[Symbol.dispose]();
  origin[Symbol.dispose]();
});

test("the hook lets the model write and run its program: neither line reads as a force push", () => {
  expect(run.code).toBe(0);
  expect(run.result.permission_denials).toEqual([]);
});

test("the program's git push meets the interceptor, which refuses it with the rule's reason", () => {
  const [, ran] = model.toolResults();
  expect(ran?.isError).toBe(true);
  expect(ran?.text).toContain("a force-push can destroy work that exists nowhere else");
  expect(ran?.text).toContain("git-push-force-denied");
});

test("origin is unchanged", () => {
  expect(git(origin.path, "rev-parse", "main")).toBe(pushed);
});

test("every later Bash call runs with the interceptors first and Claude Code's session id", () => {
  const shown = model.toolResults()[2]?.text ?? "";
  expect(shown).toContain(`PATH=${join(mem.memnoxHome, "bin")}:`);
  expect(shown).toContain(`SESSION=${String(run.result.session_id)}`);
});

test("the refusal is recorded by the interceptor in the same session as the hook's own rows", async () => {
  const t = await runBinary("memnox", ["timeline", "--json"], { env: mem.env(), cwd: project.dir });
  const events = (
    JSON.parse(t.stdout) as {
      events: { surface: string; operation: string; effect: string; agentSessionId?: string }[];
    }
  ).events;
  const session = String(run.result.session_id);
  const refused = events.find((e) => e.surface === "interceptor" && e.operation === "git.push-force");
  expect(refused).toMatchObject({ effect: "deny", agentSessionId: session });
  expect(events.some((e) => e.surface === "hook" && e.agentSessionId === session)).toBe(true);
});

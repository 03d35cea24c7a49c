// The real client: Claude Code configured with `claude mcp add`, then `memnox mcp wrap` and `memnox mcp session on`
// with the compiled binary; `claude -p` against a scripted model on loopback, the real gate and a real rule file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ScriptedModel, scriptedModel } from "../support/anthropic.ts";
import { compiledBinary, runBinary } from "../support/binary.ts";
import { type ClaudeProject, claudeProject } from "../support/claude.ts";
import { hermeticEnv } from "../support/home.ts";
import { EVERYTHING, ROOT } from "../support/mcp.ts";

const CLAUDE = join(ROOT, "node_modules", ".bin", "claude");
const RULES = `version = 1

[[policies]]
name = "no-sums"
[policies.match]
actions = ["mcp.everything.get-sum"]
[policies.decision]
effect = "deny"
reason = "sums are done by hand here"
`;

let model: ScriptedModel;
let project: ClaudeProject;
let env: Record<string, string>;
let received: string;

beforeAll(async () => {
  await compiledBinary();
  model = scriptedModel([{ toolUse: { name: "mcp__everything__get-sum", input: { a: 1, b: 2 } } }, { text: "done" }]);
  project = claudeProject({ model, hooks: {} });
  const memnoxHome = join(project.home, ".memnox");
  mkdirSync(memnoxHome, { recursive: true });
  writeFileSync(join(memnoxHome, "machine.policies.toml"), RULES);
  writeFileSync(join(memnoxHome, "config.toml"), 'mode = "enforce"\n');
  received = join(project.home, "received.jsonl");
  // As `memnox run` would: the session both servers read, passed down by the agent to what it starts.
  // Claude -p otherwise connects servers in the background, and on a loaded machine the first call finds them connecting.
  env = hermeticEnv({
    HOME: project.home,
    MEMNOX_HOME: memnoxHome,
    MEMNOX_SESSION: "ses_claude_mcp",
    MCP_CONNECTION_NONBLOCKING: "false",
  });
}, 120_000);

afterAll(async () => {
  await project[Symbol.asyncDispose]();
  await model[Symbol.asyncDispose]();
});

async function claude(args: string[]) {
  const p = Bun.spawn([CLAUDE, ...args], { cwd: project.dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { stdout, stderr, code };
}

function serverSaw(tool: string): boolean {
  if (!existsSync(received)) return false;
  return readFileSync(received, "utf8")
    .split("\n")
    .filter(Boolean)
    .some((l) => {
      const m = JSON.parse(l);
      return m.method === "tools/call" && m.params?.name === tool;
    });
}

test("`claude mcp add`, then `memnox mcp wrap` and `mcp session on`: `claude mcp list` has both connected through memnox", async () => {
  const server = ["bash", "-c", 'tee -a "$0" | exec "$1" stdio', received, EVERYTHING[0] ?? ""];
  expect((await claude(["mcp", "add", "everything", "--", ...server])).code).toBe(0);
  const wrap = await runBinary("memnox", ["mcp", "wrap"], { env, cwd: project.dir });
  expect(wrap.code).toBe(0);
  expect(wrap.stdout).toMatch(/wrapped +everything \(project .*\)/);
  const on = await runBinary("memnox", ["mcp", "session", "on", "--client", "claude-code"], { env, cwd: project.dir });
  expect(on.code).toBe(0);
  const bin = await compiledBinary();
  const list = await claude(["mcp", "list"]);
  expect(list.stdout).toContain(`everything: ${bin} mcp proxy --name everything -- bash -c`);
  expect(list.stdout).toMatch(/everything: .* - ✔ Connected/);
  expect(list.stdout).toMatch(new RegExp(`memnox-session: ${bin} mcp session serve - ✔ Connected`));
}, 60_000);

test("a denied mcp__everything__get-sum reaches the model as memnox's refusal; the real server never sees it", async () => {
  const run = await project.run("add one and two", { env, allowedTools: ["mcp__everything__get-sum"] });
  expect(run.code).toBe(0);
  const results = model.toolResults();
  expect(results).toHaveLength(1);
  expect(results[0]).toMatchObject({
    isError: true,
    text: [
      "memnox refused mcp.everything.get-sum",
      `policy: no-sums (${join(project.home, ".memnox", "machine.policies.toml")}:3)`,
      "reason: sums are done by hand here",
    ].join("\n"),
  });
  expect(serverSaw("get-sum")).toBe(false);
}, 60_000);

test("the agent asks memnox-session why, then for a rewind: under claude -p nobody is asked, and it never claims a no", async () => {
  await using asker = scriptedModel([
    { toolUse: { name: "mcp__memnox-session__why", input: {} } },
    { toolUse: { name: "mcp__memnox-session__rewind", input: {} } },
    { text: "done" },
  ]);
  // One kept for the session (in enforce `rewind --take` from a session's seat is refused: it can push work out).
  const config = join(project.home, ".memnox", "config.toml");
  writeFileSync(config, 'mode = "observe"\n');
  const take = await runBinary("memnox", ["rewind", "--take"], { env, cwd: project.dir });
  writeFileSync(config, 'mode = "enforce"\n');
  expect(take.code).toBe(0);
  writeFileSync(join(project.dir, "README.md"), "changed by the agent\n");
  const run = await project.run("why was that stopped? then put my files back", {
    env: { ...env, ANTHROPIC_BASE_URL: asker.url },
    allowedTools: ["mcp__memnox-session__why", "mcp__memnox-session__rewind"],
  });
  expect(run.code).toBe(0);
  const [why, rewind] = asker.toolResults();
  expect(why?.isError).toBe(false);
  expect(why?.text).toContain("deny  mcp.everything.get-sum");
  expect(why?.text).toContain("rule    no-sums");
  expect(why?.text).toContain("reason  sums are done by hand here");
  expect(rewind?.isError).toBe(true);
  // Under claude -p nobody is at its prompt: memnox asks nobody, and says so rather than that a person said no.
  expect(rewind?.text).toMatch(
    /runs without a person at its prompt \(sdk-[a-z]+\), so nobody was asked and nothing was changed/,
  );
  expect(rewind?.text).not.toContain("said no");
  expect(readFileSync(join(project.dir, "README.md"), "utf8")).toBe("changed by the agent\n");
}, 60_000);

// Issue 31 in a real Claude Code session: the CLI (node_modules/.bin/claude) driven by a scripted model, hooked to the
// compiled memnox on a machine in enforce with the baseline, and memnox-session in its MCP servers. Each test is what a
// person would see: the agent asking `why`, a person's deny reaching the retry, a two-approver rule one approval does
// not release, a rate limit stopping the call past its max, and a rule about the principal firing for that principal.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TOOLS } from "../../hooks/claude-code.ts";
import { scriptedModel, type Turn } from "../support/anthropic.ts";
import { type ClaudeProject, claudeProject } from "../support/claude.ts";
import { type Governed, governedMachine } from "../support/governed.ts";
import type { Tree } from "../support/index.ts";

let g: Governed;
const ME = Bun.spawnSync(["id", "-un"]).stdout.toString().trim();

beforeAll(async () => {
  g = await governedMachine();
}, 60_000);

afterAll(() => g[Symbol.dispose]());

const hooks = () => {
  const hook = (event: string, matcher?: string) => [
    { command: `${g.bin} hook claude-code ${event}`, ...(matcher ? { matcher } : {}) },
  ];
  return {
    SessionStart: hook("SessionStart"),
    PreToolUse: hook("PreToolUse", TOOLS),
    PostToolUse: hook("PostToolUse", TOOLS),
    SessionEnd: hook("SessionEnd"),
  };
};

/** A hooked project with memnox-session among its agent's MCP servers, as setup leaves an agent. */
async function project(model: ReturnType<typeof scriptedModel>, tree: Tree = {}): Promise<ClaudeProject> {
  const p = claudeProject({ model, hooks: hooks(), tree });
  const on = await g.memnox(["mcp", "session", "on"], { env: { HOME: p.home } });
  if (on.code !== 0) throw new Error(`mcp session on failed: ${on.stderr}`);
  return p;
}

/** Claude Code with nobody at its prompt (bypassPermissions): memnox's asks are held for a person instead. */
const run = (p: ClaudeProject, prompt: string) =>
  p.run(prompt, {
    env: { MEMNOX_HOME: g.home.memnoxHome, IS_SANDBOX: "1" },
    permissionMode: "bypassPermissions",
  });

/** A bare origin for the project's main, so a push is real and its arrival can be read back. */
function withOrigin(dir: string): { head(): string } {
  const origin = join(dir, ".git", "origin.git");
  Bun.spawnSync(["git", "init", "-q", "--bare", "-b", "main", origin]);
  Bun.spawnSync(["git", "remote", "add", "origin", origin], { cwd: dir });
  Bun.spawnSync(["git", "push", "-q", "origin", "main"], { cwd: dir, env: g.env() });
  Bun.spawnSync(["git", "commit", "-q", "--allow-empty", "-m", "to push"], { cwd: dir, env: g.env() });
  return { head: () => Bun.spawnSync(["git", "-C", origin, "rev-parse", "main"]).stdout.toString().trim() };
}

async function heldIds(action: string): Promise<string[]> {
  const r = await g.memnox(["approvals", "--json"]);
  const list = (JSON.parse(r.stdout) as { approvals: { id: string; action: string }[] }).approvals;
  return list.filter((h) => h.action === action).map((h) => h.id);
}

const bash = (command: string): Turn => ({ toolUse: { name: "Bash", input: { command, description: command } } });

test("the agent asks memnox-session `why`, unasked, and is told the refusal before it", async () => {
  await using model = scriptedModel([
    { toolUse: { name: "Read", input: { file_path: "~/.ssh/id_ed25519" } } },
    { toolUse: { name: "mcp__memnox-session__why", input: {} } },
    { text: "done" },
  ]);
  await using p = await project(model);
  const r = await run(p, "read my key, then ask memnox why");
  expect(r.code).toBe(0);
  const [read, why] = model.toolResults();
  expect(read?.isError).toBe(true);
  expect(why?.isError).toBe(false);
  expect(why?.text).toContain("filesystem.read");
  expect(why?.text).toContain("ssh-keys-not-read");
  // The session tool was never itself something memnox asked about.
  expect(why?.text).not.toContain("mcp.memnox-session");
}, 120_000);

test("a person's `memnox deny` reaches the agent's retry: refused with the answer, not held again", async () => {
  let denied = "";
  await using model = scriptedModel([
    bash("git push origin main"),
    {
      ...bash("git push origin main"),
      before: async () => {
        const [id] = await heldIds("git.push");
        denied = id ?? "";
        await g.memnox(["deny", denied]);
      },
    },
    { text: "done" },
  ]);
  await using p = await project(model);
  const origin = withOrigin(p.dir);
  const before = origin.head();
  const r = await run(p, "push main");
  expect(r.code).toBe(0);
  const [first, retry] = model.toolResults();
  expect(first?.text).toContain("held for a person");
  expect(denied).toMatch(/^a_/);
  expect(retry?.isError).toBe(true);
  expect(retry?.text).toContain(`a person (${ME}) said no to this`);
  expect(retry?.text).not.toContain("held for a person");
  expect(await heldIds("git.push")).toEqual([]);
  expect(origin.head()).toBe(before);
}, 120_000);

test("a two-approver rule is not released by one approval", async () => {
  const rules = `version = 1\n\n[[policies]]\nname = "two-people-push"\n[policies.match]\nactions = ["git.push"]\n[policies.decision]\neffect = "ask"\napprovers = ["${ME}", "security"]\nminApprovals = 2\nreason = "two people look at a push to main"\n`;
  await using model = scriptedModel([
    bash("git push origin main"),
    {
      ...bash("git push origin main"),
      before: async () => {
        const [id] = await heldIds("git.push");
        await g.memnox(["approve", id ?? ""]);
      },
    },
    { text: "done" },
  ]);
  await using p = await project(model, { "memnox.policies.toml": rules });
  const origin = withOrigin(p.dir);
  const before = origin.head();
  const r = await run(p, "push main");
  expect(r.code).toBe(0);
  const [first, retry] = model.toolResults();
  expect(first?.text).toContain("two people look at a push to main");
  expect(retry?.isError).toBe(true);
  expect(retry?.text).toContain("held for a person");
  expect(origin.head()).toBe(before);
}, 120_000);

test("a rate-limited rule stops the call past its max", async () => {
  const rules = `version = 1\n\n[[policies]]\nname = "notes-twice-an-hour"\n[policies.match]\nactions = ["filesystem.write"]\ntargets = ["**/notes/**"]\n[policies.decision]\neffect = "allow"\nreason = "notes are cheap, not endless"\nrateLimit = { max = 2, windowSeconds = 3600 }\n`;
  const write = (n: number): Turn => ({
    toolUse: { name: "Write", input: { file_path: `notes/n${n}.md`, content: `note ${n}\n` } },
  });
  await using model = scriptedModel([write(1), write(2), write(3), { text: "done" }]);
  await using p = await project(model, { "memnox.policies.toml": rules });
  const dir = p.dir;
  const r = await run(p, "take three notes");
  expect(r.code).toBe(0);
  const results = model.toolResults();
  expect(results[0]?.isError).toBe(false);
  expect(results[1]?.isError).toBe(false);
  expect(results[2]?.isError).toBe(true);
  expect(results[2]?.text).toContain("rule notes-twice-an-hour lets 2 of these run per 1h");
  expect(existsSync(join(dir, "notes", "n2.md"))).toBe(true);
  expect(existsSync(join(dir, "notes", "n3.md"))).toBe(false);
}, 120_000);

test("a rule about the principal fires for the principal it names, and not for another", async () => {
  const rules = [
    "version = 1",
    "",
    "[[policies]]",
    'name = "not-for-me"',
    "[policies.match]",
    'actions = ["filesystem.write"]',
    'targets = ["**/mine.txt"]',
    `principals = ["${ME}"]`,
    "[policies.decision]",
    'effect = "deny"',
    `reason = "nothing is written to mine.txt on ${ME}'s behalf"`,
    "",
    "[[policies]]",
    'name = "not-for-them"',
    "[policies.match]",
    'actions = ["filesystem.write"]',
    'targets = ["**/theirs.txt"]',
    'principals = ["someone-else"]',
    "[policies.decision]",
    'effect = "deny"',
    'reason = "nothing is written for someone-else"',
    "",
  ].join("\n");
  await using model = scriptedModel([
    { toolUse: { name: "Write", input: { file_path: "mine.txt", content: "x\n" } } },
    { toolUse: { name: "Write", input: { file_path: "theirs.txt", content: "y\n" } } },
    { text: "done" },
  ]);
  await using p = await project(model, { "memnox.policies.toml": rules });
  const r = await run(p, "write two files");
  expect(r.code).toBe(0);
  const [mine, theirs] = model.toolResults();
  expect(mine?.isError).toBe(true);
  expect(mine?.text).toContain(`on ${ME}'s behalf`);
  expect(theirs?.isError).toBe(false);
  expect(existsSync(join(p.dir, "mine.txt"))).toBe(false);
  expect(existsSync(join(p.dir, "theirs.txt"))).toBe(true);
}, 120_000);

test("a credential in a tool's result reaches the model masked, and a filesystem server's read of .env is refused", async () => {
  const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
  await using model = scriptedModel([
    bash("cat notes.txt"),
    { toolUse: { name: "mcp__filesystem__read_text_file", input: { path: "notes.txt" } } },
    { toolUse: { name: "mcp__filesystem__read_text_file", input: { path: ".env" } } },
    { text: "done" },
  ]);
  await using p = await project(model, { "notes.txt": `deploy with ${token} today\n`, ".env": `API_TOKEN=${token}\n` });
  const claudeJson = join(p.home, ".claude.json");
  const doc = JSON.parse(readFileSync(claudeJson, "utf8")) as { mcpServers?: Record<string, unknown> };
  const server = join(import.meta.dir, "..", "..", "node_modules", ".bin", "mcp-server-filesystem");
  doc.mcpServers = { ...doc.mcpServers, filesystem: { type: "stdio", command: server, args: [p.dir] } };
  writeFileSync(claudeJson, JSON.stringify(doc));
  const r = await run(p, "read my notes");
  expect(r.code).toBe(0);
  const [shell, notes, env] = model.toolResults();
  expect(shell?.text).toContain("deploy with");
  expect(shell?.text).not.toContain(token);
  expect(notes?.text ?? "").not.toContain(token);
  expect(env?.isError).toBe(true);
  expect(env?.text).toContain("a .env file holds live credentials");
  for (const req of model.conversation()) expect(model.visibleText(req)).not.toContain(token);
}, 120_000);

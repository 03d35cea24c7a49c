// The session tools in process: the real SDK Client as the agent, the real gate writing the ledger they read, real
// rules, a real memory store and real git for rewind.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { createGate } from "../src/gate/index.ts";
import { openLedger } from "../src/ledger/store.ts";
import { rememberDecision } from "../src/memory/decision.ts";
import { openStore } from "../src/memory/pages/store.ts";
import { rewindDeps, takeMilestone } from "../src/rewind/index.ts";
import { createSessionServer } from "../src/seams/session/server.ts";
import { addFact } from "../src/state/overlays.ts";
import { createHold, listHolds } from "../src/state/pending.ts";
import { startProbation } from "../src/state/probation.ts";
import { fakeHome, gitRepo, testContext } from "./support/index.ts";

const SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
const RULES = `version = 1

[[policies]]
name = "no-force-push"
[policies.match]
actions = ["git.push-force"]
[policies.decision]
effect = "deny"
reason = "a force push rewrites what others pulled (the old token ${SECRET} leaked that way)"
[policies.decision.alternative]
action = "git.push"
note = "push without --force"

[[policies]]
name = "env-files"
[policies.match]
actions = ["filesystem.read", "filesystem.write"]
targets = ["**/.env"]
[policies.decision]
effect = "deny"
reason = "secrets live in .env"

[[policies]]
name = "ask-before-deleting"
[policies.match]
actions = ["filesystem.delete"]
[policies.decision]
effect = "ask"
reason = "a person looks first"
`;

const home = fakeHome();
const repo = gitRepo({ "README.md": "hi\n", "src/app.ts": "export const a = 1;\n", "memnox.policies.toml": RULES });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});
writeFileSync(home.join(".memnox", "config.toml"), 'mode = "enforce"\n');

interface Connected {
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  readonly client: Client;
  readonly asked: string[];
}

async function connect(
  opts: { env?: Record<string, string>; terminal?: boolean; elicit?: ElicitResult; cwd?: string } = {},
): Promise<Connected> {
  const { ctx } = testContext(home, { cwd: opts.cwd ?? repo.path, env: opts.env ?? {} });
  const server = createSessionServer({ ctx, terminal: () => opts.terminal ?? false });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const asked: string[] = [];
  // `elicitation: {}` is the 2025-06-18 spelling most clients still send; it means form elicitation.
  const client = new Client({ name: "agent", version: "1" }, opts.elicit ? { capabilities: { elicitation: {} } } : {});
  const answer = opts.elicit;
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return answer;
    });
  }
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    asked,
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args });
      const content = r.content as { type: string; text: string }[];
      return { text: content.map((c) => c.text).join("\n"), isError: r.isError === true };
    },
  };
}

async function decideAs(session: string, agent: string, command: string) {
  const { ctx } = testContext(home, { cwd: repo.path });
  return createGate(ctx).decide({ surface: "hook", command, cwd: repo.path, agent, session, canAsk: false });
}

function ledgerRows(where = "1 = 1") {
  const ledger = openLedger({ db: home.join(".memnox", "memnox.db") });
  try {
    return ledger.select(`SELECT * FROM events WHERE ${where} ORDER BY seq`);
  } finally {
    ledger.close();
  }
}

test("the tool list is exactly these five, and only rewind is anything but a read", async () => {
  const c = await connect();
  const { tools } = await c.client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(["decisions", "replay", "rewind", "status", "why"]);
  for (const t of tools) {
    const rewind = t.name === "rewind";
    expect(t.annotations, t.name).toMatchObject({
      readOnlyHint: !rewind,
      destructiveHint: rewind,
      openWorldHint: false,
    });
  }
  // Nothing that approves, trusts, lifts, changes the mode or edits a rule.
  expect(JSON.stringify(tools.map((t) => t.inputSchema))).not.toMatch(/approve|trust|lift|mode|rule|grant|resume/i);
  expect((await c.call("approve", {})).isError).toBe(true);
});

describe("why and replay read this session", () => {
  let denied = "";
  test("a session's refusal is what why explains: rule, reason, alternative, with the secret masked", async () => {
    denied = (await decideAs("ses_alpha", "claude-code", "git push --force origin main")).eventId ?? "";
    await decideAs("ses_alpha", "claude-code", "git status");
    await decideAs("ses_beta", "codex", "cat .env");
    const c = await connect({ env: { MEMNOX_SESSION: "ses_alpha" } });
    const r = await c.call("why");
    expect(r.isError).toBe(false);
    expect(r.text).toContain("deny  git.push-force");
    expect(r.text).toContain("rule    no-force-push");
    expect(r.text).toContain("instead git.push: push without --force");
    expect(r.text).toContain(denied);
    expect(r.text).not.toContain(SECRET);
    expect(r.text).not.toContain("env-files");
  });

  test("without memnox run, the newest session of the agent that launched the server; never another agent's", async () => {
    const claude = await connect({ env: { MEMNOX_AGENT_NAME: "claude-code" } });
    expect((await claude.call("why")).text).toContain("no-force-push");
    const codex = await connect({ env: { MEMNOX_AGENT_NAME: "codex" } });
    expect((await codex.call("why")).text).toContain("env-files");
    const nobody = await connect();
    const r = await nobody.call("why");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("cannot tell which session this is");
  });

  test("an event id explains that event", async () => {
    const other = ledgerRows("session = 'ses_beta' AND kind = 'decision'")[0]?.id ?? "";
    const c = await connect({ env: { MEMNOX_SESSION: "ses_alpha" } });
    expect((await c.call("why", { event: other.slice(0, 10) })).text).toContain("rule    env-files");
    const unknown = await c.call("why", { event: "evt_nothing_like_it" });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.text).toContain("no event `evt_nothing_like_it`");
  });

  test("replay is this session step by step, and another session only when named", async () => {
    const c = await connect({ env: { MEMNOX_SESSION: "ses_alpha" } });
    const r = await c.call("replay");
    expect(r.text.split("\n")[0]).toContain("session ses_alpha · claude-code · 2 action(s)");
    expect(r.text).toContain("git.push-force");
    expect(r.text).not.toContain(".env");
    expect((await c.call("replay", { session: "ses_be" })).text).toContain("session ses_beta · codex");
  });

  test("a long session is clipped to its newest steps, the header kept", async () => {
    for (let i = 0; i < 70; i++) await decideAs("ses_long", "claude-code", `git log -n ${i}`);
    const c = await connect({ env: { MEMNOX_SESSION: "ses_long" } });
    const lines = (await c.call("replay")).text.split("\n");
    expect(lines.length).toBeLessThanOrEqual(60);
    expect(lines[0]).toContain("session ses_long");
    expect(lines[1]).toMatch(/earlier line\(s\) not shown/);
    expect(lines.at(-3)).toMatch(/^ {3}70 .* git\.log +69 /);
    expect(lines.join("\n")).not.toMatch(/git\.log +3 /);
  });
});

test("status: the mode, what is held and why, wariness, probation and today's counts", async () => {
  const now = Date.parse("2026-11-30T12:00:00.000Z");
  const hold = createHold(home.join(".memnox", "pending"), {
    surface: "mcp",
    agent: "claude-code",
    session: "ses_alpha",
    action: "mcp.github.merge_pull_request",
    reason: "merges ask first",
    nowMs: now,
    ttlMs: 3_600_000,
  });
  addFact(home.join(".memnox", "overlays.json"), {
    kind: "wary",
    subject: "ses_gamma",
    reason: "instruction-shaped result from mcp.web.fetch",
    nowMs: now,
    forMs: 30 * 60_000,
  });
  startProbation(home.join(".memnox", "probation.json"), "server", "newcomer", now);
  const c = await connect({ env: { MEMNOX_SESSION: "ses_alpha" } });
  const r = await c.call("status");
  expect(r.text).toContain("Memnox is ruling this session in enforce mode");
  expect(r.text).toContain(
    `ses_alpha: held mcp.github.merge_pull_request for a person (1h left): merges ask first; a person answers hold ${hold.id} from their own terminal`,
  );
  expect(r.text).toContain("ses_gamma: wary for 30m more: instruction-shaped result from mcp.web.fetch");
  expect(r.text).toContain("probation server newcomer until 2026-12-07T12:00:00.000Z");
  expect(r.text).toMatch(/today: \d+ action\(s\): \d+ allow, 0 ask, 2 deny/);
  expect(r.text).toContain("this tool reads session ses_alpha (started by memnox run)");
});

test("replay shows the session's calls still held for a person, and that a person answers each (never the command an agent could run)", async () => {
  const now = Date.parse("2026-11-30T12:00:00.000Z");
  const hold = createHold(home.join(".memnox", "pending"), {
    surface: "mcp",
    agent: "claude-code",
    session: "ses_alpha",
    action: "mcp.slack.post_message",
    reason: "posts ask first",
    nowMs: now - 5 * 60_000,
    ttlMs: 3_600_000,
  });
  const c = await connect({ env: { MEMNOX_SESSION: "ses_alpha" } });
  const r = await c.call("replay");
  expect(r.isError).toBe(false);
  expect(r.text).toMatch(
    new RegExp(
      `waiting +mcp\\.slack\\.post_message .*5m for a person: posts ask first; a person answers hold ${hold.id}`,
    ),
  );
  expect(r.text).not.toMatch(/memnox (approve|deny|resume)/);
});

describe("decisions evaluates and runs nothing", () => {
  test("an action, a path and a command line, each with the rule that covers it", async () => {
    const before = ledgerRows().length;
    const holds = listHolds(home.join(".memnox", "pending")).length;
    const c = await connect({ env: { MEMNOX_SESSION: "ses_alpha" } });
    const action = await c.call("decisions", { action: "git.push-force" });
    expect(action.text).toContain("deny  git.push-force: rule no-force-push");
    expect(action.text).toContain("instead: git.push (push without --force)");
    expect(action.text).not.toContain(SECRET);
    const path = await c.call("decisions", { path: ".env" });
    expect(path.text).toContain(`deny  filesystem.read ${repo.path}/.env: rule env-files`);
    expect(path.text).toContain(`ask   filesystem.delete ${repo.path}/.env: rule ask-before-deleting`);
    const line = await c.call("decisions", { command: "rm -rf build && git status" });
    expect(line.text).toContain(`ask   filesystem.delete ${repo.path}/build/**: rule ask-before-deleting`);
    expect(line.text).toContain(`allow git.status ${repo.path}: no rule covers it (ungoverned)`);
    expect(line.text.split("\n")[0]).toContain("nothing was run");
    expect(ledgerRows().length).toBe(before);
    expect(listHolds(home.join(".memnox", "pending")).length).toBe(holds);
    expect((await c.call("decisions", {})).text).toContain("name an action, a path or a command line");
  });

  test("a rule file that cannot be read is said first, since in enforce it refuses everything", async () => {
    mkdirSync(repo.join("broken"), { recursive: true });
    writeFileSync(repo.join("broken", "memnox.policies.toml"), "version = 1\n[[policies]]\nname = 3\n");
    const c = await connect({ env: { MEMNOX_SESSION: "ses_alpha" }, cwd: repo.join("broken") });
    const r = await c.call("decisions", { action: "git.status" });
    expect(r.text.split("\n")[1]).toContain(
      `a rule file cannot be read, and in enforce that refuses everything: ${repo.join("broken", "memnox.policies.toml")}`,
    );
  });

  test("a remembered decision that mentions it is named beside the rules", async () => {
    const store = openStore({ dir: home.join(".memnox", "memory"), now: () => Date.now() });
    rememberDecision(store, {
      rule: "no-force-push",
      reason: "we lost a day of work to a force push in March",
      effect: "deny",
      actions: ["git.push-force"],
      where: "machine",
      by: "sam",
    });
    store.close();
    const c = await connect({ env: { MEMNOX_SESSION: "ses_alpha" } });
    const r = await c.call("decisions", { action: "git.push-force" });
    expect(r.text).toContain("remembered decisions:");
    expect(r.text).toContain("Never git.push-force");
    expect((await c.call("decisions", { action: "npm.publish" })).text).toContain("no remembered decision mentions it");
  });
});

describe("rewind: the agent asks, only a person says yes", () => {
  async function mess() {
    const { ctx } = testContext(home, { cwd: repo.path });
    writeFileSync(repo.join("README.md"), "hi\n");
    const { milestone } = await takeMilestone(rewindDeps(ctx), {
      dir: repo.path,
      kind: "run",
      reason: "before the agent started",
      session: "ses_rw",
    });
    writeFileSync(repo.join("README.md"), "overwritten by the agent\n");
    return milestone.id;
  }
  const readme = () => readFileSync(repo.join("README.md"), "utf8");
  const rewindRows = () => ledgerRows("operation = 'memnox.rewind'");

  test("asked through the client, naming the directory and the milestone; a yes rewinds, undoably", async () => {
    const id = await mess();
    const c = await connect({
      env: { MEMNOX_SESSION: "ses_rw" },
      elicit: { action: "accept", content: { rewind: true } },
    });
    const r = await c.call("rewind");
    expect(c.asked).toHaveLength(1);
    expect(c.asked[0]).toContain(`Rewind ${repo.path} back to ${id}`);
    expect(r.isError).toBe(false);
    expect(r.text).toContain(`working tree back to ${id}`);
    expect(r.text).toMatch(/memnox rewind --to mst_\w+ undoes this/);
    expect(readme()).toBe("hi\n");
    expect(rewindRows().at(-1)).toMatchObject({
      surface: "mcp",
      agentSessionId: "ses_rw",
      detail: { outcome: "done" },
    });
  });

  test.each([
    ["a no", { action: "decline" }],
    ["an accept without the yes", { action: "accept", content: { rewind: false } }],
  ] as const)("%s is a no: nothing moves, and the refusal is recorded", async (_, elicit) => {
    await mess();
    const c = await connect({ env: { MEMNOX_SESSION: "ses_rw" }, elicit });
    const r = await c.call("rewind");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("the person said no");
    expect(readme()).toBe("overwritten by the agent\n");
    expect(rewindRows().at(-1)).toMatchObject({ surface: "mcp", detail: { outcome: "refused" } });
  });

  test("a cancelled question was answered by nobody: it says so, never that the person said no", async () => {
    await mess();
    const c = await connect({ env: { MEMNOX_SESSION: "ses_rw" }, elicit: { action: "cancel" } });
    const r = await c.call("rewind");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("nobody answered the question to rewind");
    expect(r.text).not.toContain("said no");
    expect(readme()).toBe("overwritten by the agent\n");
    expect(rewindRows().at(-1)).toMatchObject({ surface: "mcp", detail: { outcome: "refused" } });
  });

  test("under `claude -p` nobody is at the prompt: it asks nobody, and never claims a no", async () => {
    await mess();
    const c = await connect({
      env: { MEMNOX_SESSION: "ses_rw", CLAUDE_CODE_ENTRYPOINT: "sdk-cli" },
      terminal: true,
      elicit: { action: "decline" },
    });
    const r = await c.call("rewind");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("runs without a person at its prompt (sdk-cli), so nobody was asked");
    expect(r.text).not.toContain("said no");
    expect(c.asked).toHaveLength(0);
    expect(readme()).toBe("overwritten by the agent\n");
  });

  test("with no way to ask and nobody at a terminal, it refuses and says to run memnox rewind", async () => {
    const id = await mess();
    const c = await connect({ env: { MEMNOX_SESSION: "ses_rw" }, terminal: false });
    const r = await c.call("rewind", { to: id });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("nobody is there to approve");
    expect(r.text).toContain(`run memnox rewind --to ${id} at a terminal in ${repo.path}`);
    expect(readme()).toBe("overwritten by the agent\n");
  });

  test("with no way to ask but a person at the agent's terminal, the host's own prompt was the question", async () => {
    const id = await mess();
    const c = await connect({ env: { MEMNOX_SESSION: "ses_rw" }, terminal: true });
    const r = await c.call("rewind", { to: id });
    expect(r.text).toContain(`working tree back to ${id}`);
    expect(readme()).toBe("hi\n");
  });

  test("under CI it refuses before asking anybody", async () => {
    await mess();
    const c = await connect({
      env: { MEMNOX_SESSION: "ses_rw", CI: "true" },
      terminal: true,
      elicit: { action: "accept", content: { rewind: true } },
    });
    const r = await c.call("rewind");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("does not rewind from an agent under CI");
    expect(c.asked).toHaveLength(0);
    expect(readme()).toBe("overwritten by the agent\n");
    expect(rewindRows().at(-1)).toMatchObject({ surface: "mcp", detail: { outcome: "refused" } });
  });

  test("an unknown milestone is said, and recorded", async () => {
    const c = await connect({ env: { MEMNOX_SESSION: "ses_rw" }, terminal: true });
    const r = await c.call("rewind", { to: "mst_nope" });
    expect(r).toMatchObject({ isError: true });
    expect(r.text).toContain("no milestone `mst_nope`");
    expect(rewindRows().at(-1)?.reason).toContain("no milestone `mst_nope`");
  });
});

// Same verdict, different latency: every corpus line through the gate with a real daemon answering, and again in
// process on the same files, gives the same answer; argument rules are decided in the seam either way.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { version } from "../build.ts";
import { createGate } from "../src/gate/index.ts";
import type { GateAnswer, GateRequest } from "../src/gate/types.ts";
import { corporaDir, corpusCases } from "./support/corpus.ts";
import { type RunningDaemon, startDaemon } from "./support/daemon.ts";
import { fakeHome, gitRepo, runBinary, tempDir, testContext } from "./support/index.ts";

const home = fakeHome();
// Two folders deep in a folder of its own: a corpus line that globs up and out of the repository (`work/../../*`)
// lists this test's folder, never a temp directory other processes write into between the two verdicts.
const private_ = tempDir("memnox-parity");
mkdirSync(join(private_.path, "up"));
const repo = gitRepo({ "README.md": "one\n" }, { base: join(private_.path, "up") });
let daemon: RunningDaemon;

/** Rules that read raw arguments (only the seam holding them decides these), and one with a time window. */
const ARGUMENT_RULES = `
[[policies]]
name = "no-credentials-in-requests"
[policies.match]
actions = ["http.request"]
arguments = { command = ["*Authorization:*", "*authorization:*"] }
[policies.decision]
effect = "deny"
reason = "credentials are not sent from an agent's shell"

[[policies]]
name = "status-in-a-window"
[policies.match]
actions = ["git.log"]
windows = [ { startHour = 0, endHour = 24 } ]
[policies.decision]
effect = "ask"
reason = "history is read in a window"

[[policies]]
name = "no-production-pushes"
[policies.match]
actions = ["git.push"]
environments = ["production"]
[policies.decision]
effect = "deny"
reason = "nothing is pushed while production is declared"

[[policies]]
name = "issues-in-our-org-only"
[policies.match]
actions = ["mcp.github.*"]
arguments = { owner = ["acme"] }
[policies.decision]
effect = "allow"
reason = "our own repositories"
`;

beforeAll(async () => {
  const e = home.env();
  const protect = await runBinary("memnox", ["protect", "--yes"], { env: e, cwd: repo.path });
  expect(protect.code).toBe(0);
  // The baseline is the machine's; the repository's own file holds only these.
  writeFileSync(repo.join("memnox.policies.toml"), `version = 1\n${ARGUMENT_RULES}`);
  writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
  daemon = await startDaemon(home);
});

afterAll(async () => {
  await daemon.stop();
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
  private_[Symbol.dispose]();
});

function mcp(owner: string, tool: string): GateRequest {
  const args = { owner, repo: "api", title: "x" };
  return {
    surface: "mcp",
    cwd: repo.path,
    agent: "claude-code",
    session: "ses-parity",
    canAsk: false,
    action: {
      name: `mcp.github.${tool}`,
      class: "write",
      targets: [],
      arguments: { owner: [owner], repo: ["api"], title: ["x"] },
    },
    rawArguments: JSON.stringify(args),
  };
}

/** A path a glob over the shared temp directory listed, which another process may have made or taken since. */
function listed(text: string | undefined): string | undefined {
  return text?.replace(/\/tmp\/[^*\s`'",)]+/g, "/tmp/<listed>");
}

/** Everything a seam acts on; hold ids and row ids differ by construction, so only their presence counts. */
function verdict(a: GateAnswer) {
  return {
    effect: a.effect,
    enforceEffect: a.enforceEffect,
    mode: a.mode,
    reason: listed(a.reason),
    rule: a.rule,
    alternative: a.alternative,
    decided: a.decided && { ...a.decided, target: listed(a.decided.target) },
    stopped: a.stopped,
    held: a.holdId !== undefined,
    recorded: a.eventId !== undefined,
    // What a glob over the shared temp directory lists changes between the two moments as other processes write
    // there; the decision does not, and the pattern itself is compared.
    actions: a.actions.map((x) => [x.name, x.class, x.targets.filter((t) => !/^\/tmp\/[^*]/.test(t)), x.arguments]),
  };
}

test("in process and through the daemon, every corpus line gets the same verdict", async () => {
  const dir = corporaDir();
  expect(dir).toBeDefined();
  const lines = corpusCases(dir ?? "").map((c) => c.command);
  const extra = [
    "curl -H 'Authorization: Bearer abc' https://api.example.com/x",
    "curl https://api.example.com/x",
    "git log --oneline",
    `rm -rf ${home.home}/elsewhere`,
  ];
  const requests: GateRequest[] = [
    ...[...lines, ...extra].map(
      (command, i): GateRequest => ({
        surface: "hook",
        command,
        cwd: repo.path,
        agent: "claude-code",
        // A session of its own each: a corpus repeats lines, and one refusal repeated pauses its session.
        session: `ses-parity-${i}`,
        canAsk: false,
      }),
    ),
    { surface: "interceptor", argv: ["git", "push", "--force", "origin", "main"], cwd: repo.path, canAsk: true },
    mcp("acme", "create_issue"),
    mcp("someone-else", "create_issue"),
  ];
  // The daemon answers only a seam of its own version: this process stands in for the compiled binary's.
  const ctx = { ...testContext(home, { cwd: repo.path }).ctx, version: version() };
  const viaDaemon = createGate(ctx);
  const inProcess = createGate({ ...ctx, paths: { ...ctx.paths, sock: join(home.path, "no-daemon.sock") } });
  const before = (await daemon.ping())?.answered;
  const differing: string[] = [];
  const effects = { allow: 0, ask: 0, deny: 0 };
  const rules = new Set<string>();
  for (const req of requests) {
    const remote = verdict(await viaDaemon.decide(req));
    const local = verdict(await inProcess.decide(req));
    if (!Bun.deepEquals(remote, local)) differing.push(`${req.command ?? req.argv?.join(" ") ?? req.action?.name}`);
    effects[local.effect] += 1;
    if (local.rule) rules.add(local.rule.name);
  }
  expect(differing).toEqual([]);
  // Not a trivial agreement: every effect occurs, and the argument rule decided where it applied.
  expect(Math.min(effects.allow, effects.ask, effects.deny)).toBeGreaterThan(20);
  expect(rules).toContain("no-credentials-in-requests");
  expect(rules).toContain("git-push-force-denied");
  expect(rules).toContain("status-in-a-window");
  const after = (await daemon.ping())?.answered;
  const answered = (after?.evaluate ?? 0) - (before?.evaluate ?? 0);
  const sentBack = (after?.local ?? 0) - (before?.local ?? 0);
  // Every request reached the daemon; the ones an argument rule could match came back to be decided here.
  expect(answered + sentBack).toBe(requests.length);
  expect(sentBack).toBeGreaterThan(2);
  expect(answered).toBeGreaterThan(requests.length / 2);
  expect(requests.length).toBeGreaterThan(1000);
  // Parity over every corpus line is a question of equality, not speed: a loaded machine must not fail it.
}, 300_000);

test("several declared environments cross the socket: the daemon rules on each, as the seam would", async () => {
  const env = { MEMNOX_ENV: "staging,production" };
  const ctx = { ...testContext(home, { cwd: repo.path, env }).ctx, version: version() };
  const viaDaemon = createGate(ctx);
  const inProcess = createGate({ ...ctx, paths: { ...ctx.paths, sock: join(home.path, "no-daemon.sock") } });
  const req: GateRequest = {
    surface: "hook",
    command: "git push origin main",
    cwd: repo.path,
    agent: "claude-code",
    session: "ses-parity-envs",
    canAsk: false,
  };
  const before = (await daemon.ping())?.answered.evaluate ?? 0;
  const remote = verdict(await viaDaemon.decide(req));
  expect((await daemon.ping())?.answered.evaluate).toBe(before + 1);
  expect(remote).toEqual(verdict(await inProcess.decide(req)));
  expect(remote.effect).toBe("deny");
  expect(remote.rule?.name).toBe("no-production-pushes");
  expect(remote.decided?.environment).toBe("production");
});

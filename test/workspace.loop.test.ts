// The machine's side without a server: the backoff, what stops the loop, the allow-list, and a bundle applied whole.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundleHash, conditionsText } from "../src/cloud/protocol/bundle.ts";
import { SENT_FIELDS } from "../src/cloud/protocol/sync.ts";
import { MemnoxError } from "../src/core/errors.ts";
import { decide } from "../src/gate/decide.ts";
import { gateDeps } from "../src/gate/wiring.ts";
import type { LedgerRow } from "../src/ledger/row.ts";
import type { Account } from "../src/workspace/account.ts";
import { applyBundle } from "../src/workspace/bundle.ts";
import { readInventory } from "../src/workspace/inventory.ts";
import { backoffMs, type LoopStep, startSyncLoop } from "../src/workspace/loop.ts";
import { sentEvent, sentHold } from "../src/workspace/payload.ts";
import { checkedBase } from "../src/workspace/transport.ts";
import { fakeHome, tempDir, testContext } from "./support/index.ts";

const MIN = 60_000;
const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

const account = { machineId: "mch_1", token: "mnx_m_x", workspace: { id: "ws_1", name: "acme" } } as unknown as Account;

/** Runs the loop on a scripted clock: each sleep resolves at once and is recorded, until `steps` steps ran. */
async function drive(
  pass: (n: number) => Promise<unknown>,
  steps: number,
  opts: { account?: () => Account | undefined } = {},
) {
  const delays: number[] = [];
  const seen: LoopStep[] = [];
  const said: string[] = [];
  let calls = 0;
  let finish: () => void = () => {};
  const done = new Promise<void>((r) => {
    finish = r;
  });
  const loop = startSyncLoop({
    baseMs: MIN,
    account: opts.account ?? (() => account),
    revoked: () => false,
    pass: () => pass(calls++),
    sleep: async (ms) => {
      delays.push(ms);
      if (delays.length >= steps) finish();
      await Bun.sleep(0);
    },
    say: (w) => said.push(w),
    stepped: (s) => seen.push(s),
  });
  await done;
  await loop.close();
  return { delays: delays.slice(0, steps), seen: seen.slice(0, steps), said, calls };
}

describe("the loop", () => {
  test("backs off from one minute to fifteen while unreachable, and is back to a minute once it answers", async () => {
    expect([1, 2, 3, 4, 5, 6, 9].map((f) => backoffMs(f, MIN) / MIN)).toEqual([1, 2, 4, 8, 15, 15, 15]);
    const down = new MemnoxError("unreachable", "could not reach the control plane");
    const r = await drive(async (n) => {
      if (n < 6) throw down;
    }, 8);
    expect(r.delays.map((d) => d / MIN)).toEqual([1, 2, 4, 8, 15, 15, 1, 1]);
    expect(r.said.some((w) => w.includes("answers again"))).toBe(true);
  });

  test("a revoked credential stops it: one call that hears so, then none, and it says why", async () => {
    const r = await drive(async () => {
      throw new MemnoxError("revoked", "the workspace revoked this machine's credential (admin@acme.dev)");
    }, 5);
    expect(r.calls).toBe(1);
    expect(r.seen).toEqual(["revoked", "stopped", "stopped", "stopped", "stopped"]);
    expect(r.said.join("\n")).toContain("the loop stops; the rules already pulled stay in force");
  });

  test("no account: no pass at all, said once", async () => {
    const r = await drive(async () => {}, 6, { account: () => undefined });
    expect(r.calls).toBe(0);
    expect(r.seen.every((s) => s === "no-account")).toBe(true);
    expect(r.said).toEqual([
      "no account.json: this machine is not connected to a workspace, so nothing is sent anywhere",
    ]);
  });
});

describe("the transport", () => {
  test.each([
    ["https://cp.example.com", true],
    ["http://127.0.0.1:8787", true],
    ["http://localhost:8787", true],
    ["http://[::1]:8787", true],
    ["http://cp.example.com", false],
    ["http://10.0.0.5:8787", false],
    ["http://127.0.0.1.nip.io", false],
    ["ftp://cp.example.com", false],
  ])("%s is %p", (url, ok) => {
    if (ok) expect(checkedBase(url).protocol).toMatch(/^https?:$/);
    else expect(() => checkedBase(url)).toThrow(/https only/);
  });
});

describe("what is sent", () => {
  const row: LedgerRow = {
    schemaVersion: 1,
    id: "evt_0001aaaa",
    seq: 7,
    kind: "decision",
    occurredAt: "2026-11-30T12:00:00.000Z",
    agentSessionId: "s1",
    agent: "claude-code",
    surface: "shell",
    operation: "filesystem.read",
    classes: ["read"],
    resourceRef: "/home/alice/ghp_AAAABBBBCCCCDDDDEEEEFFFF1234/notes",
    effect: "deny",
    enforceEffect: "deny",
    mode: "enforce",
    governed: true,
    reason: "token: sk-live-ZZZZYYYYXXXXWWWW",
    ruleId: "no-secrets",
    ruleFile: "/home/alice/repo/memnox.policies.toml",
    ruleLine: 4,
    argsDigest: "hmac:abc",
    policyHash: "p1",
    cwd: "/home/alice/secret-project",
    request: {
      action: "filesystem.read",
      class: "read",
      targets: ["x"],
      cwd: "/x",
      scope: "undeclared",
      facts: [],
      argumentMatches: [],
    },
    stale: true,
    detail: { source: "rule" },
    prevHash: "0",
    hash: "1",
  };

  test("exactly the allow-list: a field the ledger has beyond it does not travel", () => {
    const e = sentEvent(row);
    for (const k of Object.keys(e)) expect(SENT_FIELDS as readonly string[]).toContain(k);
    const text = JSON.stringify(e);
    for (const absent of ["secret-project", "memnox.policies.toml", "enforceEffect", "prevHash", "stale"])
      expect(text).not.toContain(absent);
    // The agent travels by name: what a freeze names, and what an agent's own page lists its actions by.
    expect(e).toMatchObject({
      dedupKey: row.id,
      subjectId: row.id,
      argsDigest: "hmac:abc",
      effect: "deny",
      agent: "claude-code",
    });
  });

  test("of the last scan, only agents by name and MCP servers by name, launch and tool counts: never a command or a value", () => {
    const file = join(tempDir("memnox-scan").path, "scan.json");
    const scan = (scannedAt: string) => ({
      version: 2,
      scannedAt,
      agents: [
        { id: "claude-code", name: "my claude", product: "Claude Code", evidence: [{ path: "/home/alice/.claude" }] },
      ],
      mcpServers: [
        {
          name: "stripe",
          client: "claude-code",
          wrapped: true,
          disabled: false,
          command: "npx",
          args: ["-y", "@stripe/mcp", "--api-key=sk_live_CANARYargsAAAA"],
          envKeys: ["STRIPE_SECRET_KEY"],
          tools: [
            { name: "create_refund", class: "destructive" },
            { name: "list_charges", class: "read" },
          ],
        },
        { name: "stripe", client: "cursor", wrapped: false, disabled: false, command: "stripe-mcp", tools: null },
        { name: "off-server", client: "cursor", wrapped: false, disabled: true, command: "x" },
      ],
      credentials: [{ path: "/home/alice/.aws/credentials" }],
    });
    writeFileSync(file, JSON.stringify(scan("2026-11-30T12:00:00.000Z")));
    const inv = readInventory(file);
    expect(inv).toMatchObject({
      agents: [{ name: "claude-code", kind: "Claude Code" }],
      mcpServers: [{ name: "stripe", proxied: false, tools: 2, writeTools: 1, agents: ["claude-code", "cursor"] }],
    });
    const text = JSON.stringify(inv);
    for (const absent of [
      "npx",
      "sk_live_CANARY",
      "STRIPE_SECRET_KEY",
      "create_refund",
      "/home/alice",
      "my claude",
      "off-server",
    ])
      expect(text).not.toContain(absent);
    // A rescan that found the same is the same inventory: it is not sent again.
    writeFileSync(file, JSON.stringify(scan("2026-12-01T12:00:00.000Z")));
    expect(readInventory(file)?.hash).toBe(inv?.hash);
    writeFileSync(file, "{ not json");
    expect(readInventory(file)).toBeUndefined();
  });

  test("a refused credential read carries what it would have reached, masked; nothing else of the detail travels", () => {
    const refused = sentEvent({
      ...row,
      detail: {
        source: "rule",
        wouldReach: "~/.config/gh/hosts.yml: GitHub (gh: 12 repos, push) ghp_AAAABBBBCCCCDDDDEEEEFFFF1234",
      },
    });
    expect(refused.wouldReach).toContain("GitHub (gh: 12 repos, push)");
    expect(refused.wouldReach).not.toContain("ghp_AAAA");
    expect(JSON.stringify(refused)).not.toContain('"source"');
    expect(sentEvent(row).wouldReach).toBeUndefined();
  });

  test("the resource and the reason go through the masker; an outcome names its decision", () => {
    const e = sentEvent(row);
    expect(e.resourceRef).not.toContain("ghp_AAAA");
    expect(e.reason).not.toContain("ZZZZYYYY");
    const outcome = sentEvent({ ...row, id: "evt_0002bbbb", kind: "outcome", parent: row.id, exitCode: 3 });
    expect(outcome).toMatchObject({ subjectId: row.id, exitCode: 3 });
  });

  test("a held call goes up with its decision's resource, never its own arguments", () => {
    const hold = {
      version: 1 as const,
      id: "a_0123456789ab",
      createdAt: "2026-11-30T12:00:00.000Z",
      expiresAt: "2026-11-30T12:30:00.000Z",
      fingerprint: "f",
      surface: "shell",
      action: "shell.execute",
      target: "curl -H 'x-key: plain-secret-value' https://x",
      reason: "asked",
      approvers: [],
      minApprovals: 1,
      status: "waiting" as const,
      grants: [],
      denials: [],
    };
    expect(JSON.stringify(sentHold(hold, undefined))).not.toContain("plain-secret-value");
    expect(sentHold(hold, "origin release/1").target).toBe("origin release/1");
  });
});

describe("the pulled bundle", () => {
  const rules = (effect: string, action = "git.push-force") =>
    `${JSON.stringify({ version: 1, policies: [{ name: `org-${effect}`, match: { actions: [action] }, decision: { effect } }] }, null, 2)}\n`;

  test("applied whole or not at all: rules that do not load leave both files as they were", () => {
    const { ctx } = testContext(home);
    const conditions = conditionsText([]);
    applyBundle(ctx.paths, { hash: bundleHash(rules("deny"), conditions), rules: rules("deny"), conditions });
    const before = [readFileSync(ctx.paths.orgPolicies, "utf8"), readFileSync(ctx.paths.orgConditions, "utf8")];
    const frozen = conditionsText([
      {
        id: "c1",
        kind: "freeze",
        subject: "x",
        expiresAt: "2099-01-01T00:00:00.000Z",
        by: "a",
        setAt: "2026-01-01T00:00:00.000Z",
      },
    ]);
    const broken = rules("deny").replace('"deny"', '"block-ish"');
    expect(() => applyBundle(ctx.paths, { hash: "h", rules: broken, conditions: frozen })).toThrow(/not applied/);
    expect([readFileSync(ctx.paths.orgPolicies, "utf8"), readFileSync(ctx.paths.orgConditions, "utf8")]).toEqual(
      before,
    );
    expect(() => applyBundle(ctx.paths, { hash: "h", rules: rules("deny"), conditions: "{not json" })).toThrow(
      /not applied/,
    );
    expect(readFileSync(ctx.paths.orgConditions, "utf8")).toBe(before[1] ?? "");
    expect(existsSync(`${ctx.paths.orgPolicies}.lock`)).toBe(false);
  });

  test("pulled rules only tighten: a workspace allow does not loosen the machine's own deny", async () => {
    const { ctx } = testContext(home);
    writeFileSync(
      ctx.paths.machinePolicies,
      'version = 1\n[[policies]]\nname = "local-deny"\nmatch = { actions = ["git.push-force"] }\ndecision = { effect = "deny" }\n',
    );
    writeFileSync(ctx.paths.config, 'mode = "enforce"\n');
    const conditions = conditionsText([]);
    applyBundle(ctx.paths, { hash: "h", rules: rules("allow"), conditions });
    const deps = gateDeps(ctx, { dry: true, record: () => undefined, digest: () => "d", keepRuleSet: () => {} });
    const a = await decide(
      { surface: "shell", command: "git push --force origin main", cwd: home.home, canAsk: false },
      deps,
    );
    expect(a.effect).toBe("deny");
    expect(a.rule?.name).toBe("local-deny");
    expect(deps.rules(home.home).files).toContain(join(home.memnoxHome, "org.policies.json"));
  });
});

describe("the commands, with no workspace", () => {
  const cli = async (args: string[]) => {
    const { run } = await import("../src/seams/cli/index.ts");
    const { ctx, io } = testContext(home, { args });
    let error = "";
    let code = -1;
    try {
      code = await run(ctx);
    } catch (e) {
      error = (e as Error).message;
    }
    return { code, error, out: io.stdout() };
  };

  test("an unknown flag is a usage error naming the command", async () => {
    expect((await cli(["whoami", "--bogus"])).error).toBe("unknown flag `--bogus` for memnox whoami");
    expect((await cli(["cloud", "serve", "--prot", "1"])).error).toBe("unknown flag `--prot` for memnox cloud serve");
    expect((await cli(["login", "--no-open", "--urll", "x"])).error).toContain("unknown flag `--urll`");
  });

  test("sync now and whoami without an account make no call and say so; login refuses http off loopback", async () => {
    const s = await cli(["sync", "now"]);
    expect(s.error).toContain("not connected to a workspace, so nothing was sent anywhere");
    const w = await cli(["whoami", "--json"]);
    expect(w.code).toBe(1);
    expect(JSON.parse(w.out)).toEqual({ enrolled: false });
    expect((await cli(["login", "--no-open", "--url", "http://cp.example.com"])).error).toContain("https only");
    expect((await cli(["logout"])).out).toContain("was not connected to a workspace; nothing changed");
  });
});

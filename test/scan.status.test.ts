// `memnox status` and bare `memnox`: the scan before setup, where the machine stands after; each row from its source.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { createGate } from "../src/gate/create.ts";
import { saveSnapshot } from "../src/scan/snapshots.ts";
import type { Status } from "../src/scan/status.ts";
import type { Inventory } from "../src/scan/types.ts";
import { run } from "../src/seams/cli/index.ts";
import { createHold } from "../src/state/pending.ts";
import { startProbation } from "../src/state/probation.ts";
import { writeStop } from "../src/state/stop.ts";
import { testContext } from "./support/index.ts";
import { fakeSocket, scanHome } from "./support/scan-machine.ts";

const home = scanHome(["claude-code", "cursor", "codex", "gemini-cli", "tool-cache"]);
afterAll(() => home[Symbol.dispose]());
const NOW = Date.parse("2026-11-30T15:00:00.000Z");

async function cli(args: string[]) {
  const { ctx, io } = testContext(home, { args, now: NOW });
  const code = await run(ctx);
  return { code, out: io.stdout(), json: () => JSON.parse(io.stdout()) as Status };
}

describe("bare memnox", () => {
  test("on a machine nobody set up, it is the scan", async () => {
    writeFileSync(home.join(".memnox", "config.toml"), 'mode = "observe"\n');
    const r = await cli([]);
    expect(r.out).toMatch(/^AI AGENTS/);
    expect(r.out).toContain("can change something outside this laptop.");
  });
});

describe("memnox status", () => {
  test("before setup: every row, and the way there named last", async () => {
    const r = await cli(["status"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("│ mode       observe, watching rather than stopping");
    expect(r.out).toContain(
      "│ daemon     not running: the rules are in force, but nothing keeps new agents under memnox",
    );
    expect(r.out).toContain("│ team       not connected, so nothing leaves this machine");
    expect(r.out.trimEnd().split("\n").at(-1)).toBe(
      '└ Setup has not run on this machine. "memnox setup" puts it under memnox.',
    );
  });

  test("agents hooked, read from their hook files; a hook the agent will skip is not called hooked", async () => {
    const s = (await cli(["status", "--json"])).json();
    const state = Object.fromEntries(s.hooks.map((h) => [h.agent, h.state]));
    expect(state).toEqual({
      "claude-code": "not-installed",
      codex: "installed-inactive",
      "gemini-cli": "hooked",
      cursor: "hooked",
    });
    const r = await cli(["status"]);
    expect(r.out).toContain("hooked: Gemini CLI, Cursor");
    expect(r.out).toContain("Codex installed, not active until run `codex`, type /hooks and trust memnox's hooks");
  });

  test("MCP servers through memnox, counted from the configs as they are now", async () => {
    const s = (await cli(["status", "--json"])).json();
    expect(s.mcp).toEqual({ servers: 7, through: 1 });
  });

  test("today's actions from the ledger: in observe, what enforce would have asked and denied", async () => {
    const { ctx } = testContext(home, { now: NOW - 60_000 });
    const gate = createGate(ctx);
    const req = { surface: "shell" as const, cwd: home.home, canAsk: false };
    writeFileSync(
      home.join("memnox.policies.toml"),
      'version = 1\n\n[[policies]]\nname = "no-force"\n[policies.match]\nactions = ["git.push-force"]\n[policies.decision]\neffect = "deny"\n\n[[policies]]\nname = "ask-push"\n[policies.match]\nactions = ["git.push"]\n[policies.decision]\neffect = "ask"\n',
    );
    await gate.decide({ ...req, command: "git status" });
    await gate.decide({ ...req, command: "git push --force origin main" });
    await gate.decide({ ...req, command: "git push origin main" });
    const s = (await cli(["status", "--json"])).json();
    expect(s.today).toMatchObject({ actions: 3, asked: 0, denied: 0, wouldAsk: 1, wouldDeny: 1 });
    const r = await cli(["status"]);
    expect(r.out).toContain("│ today      3 actions, 1 would have been asked, 1 would have been denied");
    expect(r.out).toMatch(/│ rules {6}2 rules from memnox\.policies\.toml · [0-9a-f]{12}/);
  });

  test("waiting approvals and probation", async () => {
    const { ctx } = testContext(home, { now: NOW });
    createHold(ctx.paths.pending, { surface: "cli", action: "git.push", reason: "r", nowMs: NOW, ttlMs: 600_000 });
    startProbation(ctx.paths.probation, "agent", "cursor", NOW - 86_400_000);
    const r = await cli(["status"]);
    expect(r.out).toContain("│ waiting    1 approval: memnox approvals");
    expect(r.out).toContain("│ probation  agent cursor until 2026-12-06");
  });

  test("after setup, bare memnox is this screen; a daemon answering on the socket is keeping the machine", async () => {
    writeFileSync(home.join(".memnox", "kept.json"), '{"version":1,"setupAt":"2026-11-30T12:00:00.000Z"}\n');
    await using _sock = await fakeSocket(home.join(".memnox", "memnox.sock"));
    const r = await cli([]);
    expect(r.out).toMatch(/^┌ memnox status/);
    expect(r.out).toContain("│ daemon     running, and keeping new agents and servers under memnox");
    expect(r.out.trimEnd().split("\n").at(-1)).toBe(
      '└ Memnox is keeping this machine. "memnox login" connects this machine to your team.',
    );
  });

  test("a stop comes first, and the screen ends on it", async () => {
    writeStop(home.join(".memnox", "stop.json"), {
      stoppedAt: new Date(NOW - 60_000).toISOString(),
      until: new Date(NOW + 3_600_000).toISOString(),
      by: "alice",
      reason: "debugging the deploy",
      mode: "observe",
    });
    const r = await cli(["status"]);
    const rows = r.out.split("\n").filter((l) => l.startsWith("│ "));
    expect(rows[0]).toMatch(/^│ protection stopped by alice at .* until .*: debugging the deploy$/);
    expect(r.out.trimEnd().split("\n").at(-1)).toBe(
      '└ Memnox protection is stopped on this machine. "memnox start" turns it back on.',
    );
  });
});

describe("dormant", () => {
  test("known for thirty days, holding reach, and silent in the ledger; a row naming it ends that", async () => {
    using h = scanHome(["claude-code", "cursor", "tool-cache"]);
    const at = (args: string[], now = NOW) => {
      const t = testContext(h, { args, now });
      return { t, done: run(t.ctx) };
    };
    const first = at(["scan", "--json", "--no-probe"], NOW - 40 * 86_400_000);
    await first.done;
    const old = JSON.parse(first.t.io.stdout()) as Inventory;
    saveSnapshot(first.t.ctx.paths.snapshots, old);
    const s = at(["status", "--json"]);
    await s.done;
    const dormant = (JSON.parse(s.t.io.stdout()) as Status).dormant;
    expect(dormant.map((d) => d.id).sort()).toEqual(["claude-code", "cursor"]);
    expect(dormant.find((d) => d.id === "cursor")?.holds).toEqual(["a hook"]);
    const gate = createGate(testContext(h, { now: NOW - 86_400_000 }).ctx);
    await gate.decide({ surface: "hook", cwd: h.home, canAsk: false, agent: "claude-code", command: "git status" });
    const again = at(["status"]);
    await again.done;
    expect(again.t.io.stdout()).toMatch(/│ dormant {4}cursor \(silent 30 days, still holds a hook\)$/m);
  });
});

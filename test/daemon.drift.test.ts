// Drift and dormant agents in process, on real files: the daemon's own baseline in keeper.json, widened said apart
// from narrowed, no MCP server started, nothing written to the scan history; a dormant agent flagged once per silence.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { driftPass } from "../src/daemon/passes/drift.ts";
import { readKeeper } from "../src/daemon/passes/keeper-file.ts";
import { createRecorder } from "../src/ledger/index.ts";
import { installAgentHook } from "../src/wire/hooks/install.ts";
import { type FakeHome, fakeHome } from "./support/index.ts";
import { collectingPass } from "./support/pass-context.ts";

let h: FakeHome;
afterEach(() => h[Symbol.dispose]());

const KEPT = '{"version": 1, "setupAt": "2026-11-30T11:00:00.000Z", "hooked": [], "takenOut": []}';
const DAY = 86_400_000;

/** A server whose program leaves a mark if anything ever starts it. */
function servers(h: FakeHome, names: readonly string[]): string {
  const entry = (n: string) => [n, { command: "/bin/sh", args: ["-c", `touch ${h.join(`started-${n}`)}`] }];
  return `${JSON.stringify({ mcpServers: Object.fromEntries(names.map(entry)) }, null, 2)}\n`;
}

describe("drift", () => {
  test("the first look is the baseline; then what widened is said apart from what narrowed, nothing started", async () => {
    h = fakeHome({ ".memnox/kept.json": KEPT, ".cursor/mcp.json": "{}\n" });
    const mcp = h.join(".cursor", "mcp.json");
    writeFileSync(mcp, servers(h, ["postgres"]));
    const first = collectingPass(h);
    const pass = driftPass();
    await pass.run(first.pc);
    expect(first.changes).toEqual([]);
    expect(first.logs.join("\n")).toContain("drift baseline taken: 1 agent(s), 1 MCP server(s)");
    const read = readKeeper(first.pc.ctx.paths.keeper);
    expect("state" in read && read.state.inventory.mcpServers.map((s) => s.name)).toEqual(["postgres"]);

    writeFileSync(mcp, servers(h, ["stripe", "linear"]));
    const later = collectingPass(h);
    await pass.run(later.pc);
    const ops = later.changes.map((c) => `${c.operation} ${c.reason}`);
    expect(ops).toEqual([
      "drift.widened authority widened: new MCP server stripe",
      "drift.widened authority widened: new MCP server linear",
      "drift.narrowed authority narrowed: MCP server postgres removed",
    ]);
    expect(later.changes[0]).toMatchObject({ file: mcp, before: "no MCP server stripe" });
    expect(later.notices.map((n) => n.kind)).toEqual([
      "drift-server-widened",
      "drift-server-widened",
      "drift-server-narrowed",
    ]);
    // Never started a server, never wrote the scan history or the last scan.
    expect(readdirSync(h.path).filter((n) => n.startsWith("started-"))).toEqual([]);
    expect(existsSync(later.pc.ctx.paths.snapshots)).toBe(false);
    expect(existsSync(later.pc.ctx.paths.lastScan)).toBe(false);

    // The baseline moved with what was reported: the same disk again is no drift.
    const again = collectingPass(h);
    await pass.run(again.pc);
    expect(again.changes).toEqual([]);
  });

  test("nothing where setup never ran", async () => {
    h = fakeHome({ ".cursor/mcp.json": "{}\n" });
    const { pc, changes, logs } = collectingPass(h);
    await driftPass().run(pc);
    expect(changes).toEqual([]);
    expect(logs).toEqual([]);
    expect(existsSync(pc.ctx.paths.keeper)).toBe(false);
  });

  test("a keeper.json this version cannot read is named and replaced by a new baseline", async () => {
    h = fakeHome({ ".memnox/kept.json": KEPT, ".memnox/keeper.json": '{"version": 9}', ".cursor/mcp.json": "{}\n" });
    const { pc, changes, logs } = collectingPass(h);
    await driftPass().run(pc);
    expect(changes).toEqual([]);
    expect(logs[0]).toContain("is not a baseline this memnox reads; a new baseline replaces it");
    expect("state" in readKeeper(pc.ctx.paths.keeper)).toBe(true);
  });
});

describe("dormant agents", () => {
  test("flagged once per stretch of silence: not again while silent, anew after it acted and fell silent", async () => {
    h = fakeHome({ ".memnox/kept.json": KEPT, ".claude/settings.json": "{}\n" });
    const start = Date.parse("2026-11-30T12:00:00.000Z");
    const base = collectingPass(h, { now: start });
    installAgentHook(base.pc.ctx, "claude-code");
    await driftPass().run(base.pc);
    expect(base.changes).toEqual([]);

    // Forty days on, Claude Code holds its hook and nothing names it in the ledger.
    const at = (days: number) => collectingPass(h, { now: start + days * DAY });
    const first = at(40);
    await driftPass().run(first.pc);
    expect(first.changes.map((c) => c.operation)).toEqual(["agent.dormant"]);
    expect(first.changes[0]?.reason).toBe("claude-code is dormant: no work in 30 days, reach kept");
    expect(first.changes[0]?.after).toContain("still holds a hook");
    expect(first.notices[0]?.kind).toBe("dormant");

    const second = at(41);
    await driftPass().run(second.pc);
    expect(second.changes).toEqual([]);

    // It acts: the silence ends, and the flag is forgotten.
    const recorder = createRecorder(second.pc.ctx.paths, () => {});
    recorder.record({
      kind: "decision",
      occurredAt: new Date(start + 42 * DAY).toISOString(),
      surface: "hook",
      operation: "git.status",
      agent: "claude-code",
    });
    recorder.close();
    const acted = at(43);
    await driftPass().run(acted.pc);
    expect(acted.changes).toEqual([]);
    const keeper = readKeeper(acted.pc.ctx.paths.keeper);
    expect("state" in keeper && keeper.state.dormant).toEqual({});

    // Thirty more silent days: a new stretch, flagged once more.
    const silentAgain = at(80);
    await driftPass().run(silentAgain.pc);
    expect(silentAgain.changes.map((c) => c.operation)).toEqual(["agent.dormant"]);
    expect(readFileSync(acted.pc.ctx.paths.keeper, "utf8")).toContain('"claude-code"');
  });
});

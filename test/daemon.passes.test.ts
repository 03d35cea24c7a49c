// The keeping passes in process, on real files: the MCP pass wraps a new server only where setup ran and wrapping
// is on; nothing runs while `memnox stop` holds; every change is a config row and a log line.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { daemonLog } from "../src/daemon/log.ts";
import { mcpServersPass } from "../src/daemon/passes/mcp-servers.ts";
import { type ConfigChange, type DaemonPass, type PassContext, startPasses } from "../src/daemon/passes.ts";
import { createRecorder } from "../src/ledger/index.ts";
import { openLedger } from "../src/ledger/store.ts";
import { readProbation } from "../src/state/probation.ts";
import { type FakeHome, fakeHome, testContext } from "./support/index.ts";

let home: FakeHome;
afterEach(() => home[Symbol.dispose]());

const SET_UP = '{"version": 1, "setupAt": "2026-11-30T11:00:00.000Z", "wrapNewMcpServers": true}';
const SERVERS = { mcpServers: { linear: { type: "stdio", command: "npx", args: ["-y", "linear-mcp"], env: {} } } };

function passContext(h: FakeHome) {
  const { ctx } = testContext(h);
  const changes: ConfigChange[] = [];
  const notices: string[] = [];
  const pc: PassContext = {
    ctx,
    trigger: "change",
    changed: [],
    log: () => {},
    recordChange: (c) => {
      changes.push(c);
      return undefined;
    },
    notice: (_kind, body) => notices.push(body),
  };
  return { pc, changes, notices };
}

describe("the MCP servers pass", () => {
  test("a server added after setup goes through the proxy, starts probation, and is said once", async () => {
    home = fakeHome({
      ".claude.json": JSON.stringify(SERVERS, null, 2),
      ".memnox/kept.json": SET_UP,
    });
    const { pc, changes, notices } = passContext(home);
    await mcpServersPass.run(pc);
    const wrapped = JSON.parse(readFileSync(join(home.home, ".claude.json"), "utf8")).mcpServers.linear;
    expect(wrapped.args).toContain("proxy");
    expect(wrapped.args).toContain("linear-mcp");
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ operation: "mcp.wrap", file: join(home.home, ".claude.json") });
    expect(changes[0]?.after).toContain("goes through memnox's proxy");
    expect(notices[0]).toContain("New MCP server linear now goes through Memnox");
    expect(readProbation(join(home.memnoxHome, "probation.json"))).toMatchObject([{ kind: "server", name: "linear" }]);
    // A second pass finds nothing new and writes nothing.
    await mcpServersPass.run(pc);
    expect(changes).toHaveLength(1);
  });

  test("never where setup did not run, nor after `mcp unwrap` turned wrapping off", async () => {
    const off = '{"version": 1, "setupAt": "2026-11-30T11:00:00.000Z", "wrapNewMcpServers": false}';
    // kept.json without setupAt: `mcp session off` recorded a choice on a machine setup never reached.
    const noSetup = '{"version": 1, "sessionServer": false}';
    for (const kept of [undefined, off, noSetup]) {
      home = fakeHome({
        ".claude.json": JSON.stringify(SERVERS, null, 2),
        ...(kept ? { ".memnox/kept.json": kept } : {}),
      });
      const before = readFileSync(join(home.home, ".claude.json"), "utf8");
      const { pc, changes } = passContext(home);
      await mcpServersPass.run(pc);
      expect(readFileSync(join(home.home, ".claude.json"), "utf8")).toBe(before);
      expect(changes).toEqual([]);
      if (kept !== noSetup) home[Symbol.dispose]();
    }
  });
});

describe("the pass runner", () => {
  const counting = (runs: string[]): DaemonPass => ({
    name: "counting",
    watched: () => [],
    async run(pc) {
      runs.push(pc.trigger);
      pc.recordChange({ operation: "test.change", file: "/x", before: "a", after: "b", reason: "a test change" });
    },
  });

  test("a change is a config row in the ledger and a line in daemon.log naming its row", async () => {
    home = fakeHome();
    const { ctx } = testContext(home);
    const runs: string[] = [];
    const log = daemonLog(ctx.paths.daemonLog, ctx.clock);
    const recorder = createRecorder(ctx.paths, () => {});
    const runner = startPasses({ ctx, passes: [counting(runs)], log, recorder });
    await runner.started;
    await runner.close();
    recorder.close();
    expect(runs).toEqual(["start"]);
    const ledger = openLedger(ctx.paths);
    const row = [...ledger.iterate()].find((r) => r.kind === "config");
    ledger.close();
    expect(row).toMatchObject({ surface: "config", operation: "test.change", reason: "a test change" });
    expect(row?.detail).toMatchObject({ file: "/x", before: "a", after: "b", by: "daemon" });
    expect(readFileSync(ctx.paths.daemonLog, "utf8")).toContain(`config a test change: /x: a -> b (${row?.id})`);
  });

  test("while `memnox stop` holds, no pass runs, and the log says so once", async () => {
    home = fakeHome();
    const { ctx } = testContext(home);
    const until = new Date(ctx.clock.now() + 3_600_000).toISOString();
    writeFileSync(ctx.paths.stop, JSON.stringify({ stoppedAt: until, until, by: "pat", mode: "enforce" }));
    const runs: string[] = [];
    const recorder = createRecorder(ctx.paths, () => {});
    const runner = startPasses({
      ctx,
      passes: [counting(runs)],
      log: daemonLog(ctx.paths.daemonLog, ctx.clock),
      recorder,
    });
    await runner.started;
    await runner.close();
    recorder.close();
    expect(runs).toEqual([]);
    expect(readFileSync(ctx.paths.daemonLog, "utf8")).toContain("memnox stop holds: the daemon keeps nothing");
  });
});

// The keeper in a real daemon process on a temporary MEMNOX_HOME, waited on through the ledger and the log, never a
// sleep: a removed Claude Code hook put back, a hook a person took out left out, a new agent hooked and put on
// probation, drift widened and narrowed, a dormant agent flagged once. Stand-in notify-send and systemctl come first
// on PATH, so nothing reaches the real desktop session, and the notices shown are counted.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { driftPass } from "../src/daemon/passes/drift.ts";
import { readKeeper } from "../src/daemon/passes/keeper-file.ts";
import type { LedgerRow } from "../src/ledger/row.ts";
import { openLedger } from "../src/ledger/store.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { readProbation } from "../src/state/probation.ts";
import { agentHookState, installAgentHook } from "../src/wire/hooks/install.ts";
import { type RunningDaemon, startDaemon } from "./support/daemon.ts";
import { type FakeHome, fakeHome, runBinary, testContext } from "./support/index.ts";
import { collectingPass } from "./support/pass-context.ts";
import { whenChanged } from "./support/wait.ts";

const running: { daemon?: RunningDaemon | undefined; home: FakeHome }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.daemon?.stop();
    r.home[Symbol.dispose]();
  }
});

const DAY = 86_400_000;
const MINE = {
  permissions: { allow: ["Bash(npm test)"] },
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo mine" }] }] },
};

function kept(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ version: 1, setupAt: "2026-11-30T11:00:00.000Z", hooked: [], takenOut: [], ...extra });
}

/** A home whose PATH starts with stand-ins: notify-send writes each notice to a file, systemctl does nothing. */
function keptHome(tree: Record<string, string>) {
  const home = fakeHome(tree);
  const notices = home.join("notices.txt");
  mkdirSync(home.join("stub"));
  writeFileSync(home.join("stub", "notify-send"), `#!/bin/sh\nprintf '%s\\n' "$2" >> '${notices}'\n`, { mode: 0o755 });
  writeFileSync(home.join("stub", "systemctl"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const path = `${home.join("stub")}:${process.env.PATH ?? ""}`;
  const slot: (typeof running)[number] = { home };
  running.push(slot);
  return {
    home,
    env: home.env({ PATH: path }),
    /** Resolves once notify-send was run `n` times (a notice is shown after its row is written). */
    noticesShown: (n: number) =>
      whenChanged(home.home, () => {
        const lines = shown(notices);
        return lines.length >= n ? lines : undefined;
      }),
    async start() {
      slot.daemon = await startDaemon(home, { env: { PATH: path } });
      return slot.daemon;
    },
    async stop() {
      await slot.daemon?.stop();
      slot.daemon = undefined;
    },
  };
}

/** The notices shown so far: only whole lines, as a stand-in may be caught mid-write. */
function shown(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(0, -1) : [];
}

function configRows(home: FakeHome, operation?: string): LedgerRow[] {
  const paths = memnoxPaths(home.env());
  if (!existsSync(paths.db)) return [];
  const ledger = openLedger(paths);
  try {
    return ledger
      .select("SELECT * FROM events WHERE kind = 'config' ORDER BY seq")
      .filter((r) => operation === undefined || r.operation === operation);
  } finally {
    ledger.close();
  }
}

/** Resolves once the ledger holds `n` config rows of `operation`. */
function rowsOf(home: FakeHome, operation: string, n = 1): Promise<LedgerRow[]> {
  return whenChanged(home.memnoxHome, () => {
    const rows = configRows(home, operation);
    return rows.length >= n ? rows : undefined;
  });
}

describe("the hook keeper", () => {
  test("a Claude Code settings file edited to drop the memnox hook: the daemon puts it back", async () => {
    const k = keptHome({
      ".memnox/kept.json": kept({ hooked: ["claude-code"], sessionServer: false }),
      ".claude/settings.json": "{}\n",
    });
    const settings = k.home.join(".claude", "settings.json");
    installAgentHook(testContext(k.home).ctx, "claude-code");
    await k.start();

    writeFileSync(settings, `${JSON.stringify(MINE, null, 2)}\n`);
    const [row] = await rowsOf(k.home, "hook.restore");
    expect(row?.reason).toBe("the memnox hook was taken out of Claude Code, so it was put back");
    expect(row?.detail).toMatchObject({ file: settings, before: "no memnox hook", by: "daemon" });
    const text = readFileSync(settings, "utf8");
    expect(text).toContain("echo mine");
    expect(agentHookState(testContext(k.home).ctx, "claude-code").presence).toBe("hooked");
    // The notice comes after the log line, which comes after the row.
    expect(await k.noticesShown(1)).toEqual(["The Memnox hook was taken out of Claude Code, so it was put back."]);
    expect(readFileSync(join(k.home.memnoxHome, "daemon.log"), "utf8")).toContain(
      `config the memnox hook was taken out of Claude Code, so it was put back: ${settings}`,
    );
  });

  test("an agent whose hook a person took out stays out", async () => {
    const k = keptHome({
      ".memnox/kept.json": kept({ hooked: ["claude-code"], sessionServer: false }),
      ".claude/settings.json": `${JSON.stringify(MINE, null, 2)}\n`,
    });
    installAgentHook(testContext(k.home).ctx, "claude-code");
    await k.start();
    const out = await runBinary("memnox", ["protect", "--revert-claude-hook"], { env: k.env, cwd: k.home.home });
    expect(out.code).toBe(0);
    const log = join(k.home.memnoxHome, "daemon.log");
    await whenChanged(k.home.memnoxHome, () => readFileSync(log, "utf8").includes("a person took it out"));
    expect(agentHookState(testContext(k.home).ctx, "claude-code").presence).toBe("absent");
    expect(readFileSync(k.home.join(".claude", "settings.json"), "utf8")).toContain("echo mine");
    expect(configRows(k.home).filter((r) => r.operation.startsWith("hook."))).toEqual([]);
  });

  test("a new agent's config appearing gets hooked and put on probation, and its folder is watched from then on", async () => {
    const k = keptHome({ ".memnox/kept.json": kept() });
    await k.start();
    mkdirSync(k.home.join(".cursor"));
    writeFileSync(k.home.join(".cursor", "mcp.json"), '{\n  "mcpServers": {}\n}\n');
    const [adopted] = await rowsOf(k.home, "hook.adopt");
    expect(adopted?.reason).toBe("Cursor is new on this machine, so memnox hooked it");
    expect(readProbation(join(k.home.memnoxHome, "probation.json"))).toMatchObject([{ kind: "agent", name: "cursor" }]);
    await rowsOf(k.home, "session.add");
    expect(readFileSync(k.home.join(".cursor", "mcp.json"), "utf8")).toContain("memnox-session");
    expect(await k.noticesShown(1)).toContain(
      "Cursor is new on this machine, so Memnox hooked it. Nothing needed running. It asks before writes for 7 days (memnox agents trust cursor).",
    );

    // The folder appeared after the daemon started: a hook taken out of it now is seen within the folder.
    writeFileSync(k.home.join(".cursor", "hooks.json"), '{\n  "version": 1,\n  "hooks": {}\n}\n');
    await rowsOf(k.home, "hook.restore");
    expect(agentHookState(testContext(k.home).ctx, "cursor").presence).toBe("hooked");
  });
});

describe("drift and dormant agents", () => {
  const servers = (names: readonly string[]) =>
    `${JSON.stringify({ mcpServers: Object.fromEntries(names.map((n) => [n, { command: "/bin/true", args: [n] }])) }, null, 2)}\n`;

  test("what widened and what narrowed since the baseline, one notice per kind", async () => {
    const k = keptHome({
      ".memnox/kept.json": kept({ hooked: ["cursor"], wrapNewMcpServers: false, sessionServer: false }),
      ".cursor/mcp.json": servers(["postgres"]),
    });
    installAgentHook(testContext(k.home).ctx, "cursor");
    // The daemon's baseline, taken before it starts; the disk then moves while nothing runs.
    await driftPass().run(collectingPass(k.home, { now: Date.now() }).pc);
    writeFileSync(k.home.join(".cursor", "mcp.json"), servers(["stripe", "linear"]));
    await k.start();
    // Each kind is written on its own: wait for both rather than read one the moment the other lands.
    const narrowed = await rowsOf(k.home, "drift.narrowed");
    const widened = await rowsOf(k.home, "drift.widened", 2);
    expect(widened.map((r) => r.reason)).toEqual([
      "authority widened: new MCP server stripe",
      "authority widened: new MCP server linear",
    ]);
    expect(narrowed.map((r) => r.reason)).toEqual(["authority narrowed: MCP server postgres removed"]);
    const said = await k.noticesShown(2);
    expect(said.filter((n) => n.includes("new MCP server"))).toHaveLength(1);
    expect(said.filter((n) => n.includes("postgres removed"))).toHaveLength(1);
    expect(existsSync(join(k.home.memnoxHome, "snapshots"))).toBe(false);
  });

  test("a dormant agent is flagged once, and not again by the next daemon", async () => {
    const k = keptHome({
      ".memnox/kept.json": kept({ hooked: ["claude-code"], wrapNewMcpServers: false, sessionServer: false }),
      ".claude/settings.json": "{}\n",
    });
    installAgentHook(testContext(k.home).ctx, "claude-code");
    // Known to the daemon for forty days, with no ledger row naming it since.
    await driftPass().run(collectingPass(k.home, { now: Date.now() - 40 * DAY }).pc);
    await k.start();
    const [row] = await rowsOf(k.home, "agent.dormant");
    expect(row?.reason).toBe("claude-code is dormant: no work in 30 days, reach kept");
    await k.stop();

    // A new server while no daemon ran: the next daemon's first look moves keeper.json, and flags nobody twice.
    writeFileSync(k.home.join(".claude.json"), servers(["stripe"]));
    await k.start();
    const keeper = join(k.home.memnoxHome, "keeper.json");
    await whenChanged(k.home.memnoxHome, () => {
      const r = readKeeper(keeper);
      return "state" in r && r.state.inventory.mcpServers.some((s) => s.name === "stripe");
    });
    expect(configRows(k.home, "agent.dormant")).toHaveLength(1);
    expect(configRows(k.home, "drift.widened").map((r) => r.reason)).toEqual([
      "authority widened: new MCP server stripe",
    ]);
    const state = readKeeper(keeper);
    expect("state" in state && Object.keys(state.state.dormant)).toEqual(["claude-code"]);
  });
});

// The hook keeper in process, on real files: a new agent hooked as setup would and put on probation; a removed
// hook put back beside the person's own entries; a hook a person took out left out; nothing before setup.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentHooksPass } from "../src/daemon/passes/hooks.ts";
import { watchLine } from "../src/daemon/watch.ts";
import { readProbation } from "../src/state/probation.ts";
import { agentHookState, installAgentHook } from "../src/wire/hooks/install.ts";
import { readKept } from "../src/wire/kept.ts";
import { type FakeHome, fakeHome, testContext } from "./support/index.ts";
import { collectingPass } from "./support/pass-context.ts";

const homes: FakeHome[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) h[Symbol.dispose]();
});

function home(tree: Record<string, string>): FakeHome {
  const h = fakeHome(tree);
  homes.push(h);
  return h;
}

function kept(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    version: 1,
    setupAt: "2026-11-30T11:00:00.000Z",
    hooked: [],
    takenOut: [],
    wrapNewMcpServers: true,
    ...extra,
  });
}

const MINE = {
  permissions: { allow: ["Bash(npm test)"] },
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo mine" }] }] },
};

describe("an agent installed after setup", () => {
  test("is hooked exactly as setup hooks it, gets the session server, starts probation, and is said once", async () => {
    const h = home({ ".memnox/kept.json": kept(), ".cursor/mcp.json": '{\n  "mcpServers": {}\n}\n' });
    const { pc, changes, notices } = collectingPass(h);
    await agentHooksPass().run(pc);

    expect(changes.map((c) => c.operation)).toEqual(["hook.adopt", "session.add"]);
    expect(changes[0]?.file).toBe(join(h.home, ".cursor", "hooks.json"));
    expect(changes[0]?.reason).toBe("Cursor is new on this machine, so memnox hooked it");
    expect(changes[0]?.after).toContain("on probation until 2026-12-07");
    expect(notices).toEqual([
      {
        kind: "agent-new",
        body: "Cursor is new on this machine, so Memnox hooked it. Nothing needed running. It asks before writes for 7 days (memnox agents trust cursor).",
      },
    ]);
    expect(readProbation(pc.ctx.paths.probation)).toMatchObject([{ kind: "agent", name: "cursor" }]);
    expect(readKept(pc.ctx.paths.kept)?.hooked).toEqual(["cursor"]);
    const servers = JSON.parse(readFileSync(join(h.home, ".cursor", "mcp.json"), "utf8")).mcpServers;
    expect(servers["memnox-session"].args).toEqual(expect.arrayContaining(["mcp", "session", "serve"]));

    // What setup's own installer writes in a twin home is byte for byte what the daemon wrote.
    const twin = home({ ".cursor/mcp.json": "{}\n" });
    installAgentHook(testContext(twin).ctx, "cursor");
    expect(readFileSync(join(h.home, ".cursor", "hooks.json"), "utf8")).toBe(
      readFileSync(join(twin.home, ".cursor", "hooks.json"), "utf8"),
    );

    const again = collectingPass(h);
    await agentHooksPass().run(again.pc);
    expect(again.changes).toEqual([]);
  });

  test("gets no session server where a person turned it off (`mcp session off`)", async () => {
    const h = home({ ".memnox/kept.json": kept({ sessionServer: false }), ".cursor/mcp.json": "{}\n" });
    const { pc, changes } = collectingPass(h);
    await agentHooksPass().run(pc);
    expect(changes.map((c) => c.operation)).toEqual(["hook.adopt"]);
    expect(readFileSync(join(h.home, ".cursor", "mcp.json"), "utf8")).toBe("{}\n");
  });
});

describe("a hook something removed", () => {
  test("is put back beside the person's own entries, without probation", async () => {
    const h = home({
      ".memnox/kept.json": kept({ hooked: ["claude-code"], sessionServer: false }),
      ".claude/settings.json": "{}\n",
    });
    const { pc, changes, notices } = collectingPass(h);
    installAgentHook(pc.ctx, "claude-code");
    const settings = join(h.home, ".claude", "settings.json");
    writeFileSync(settings, `${JSON.stringify(MINE, null, 2)}\n`);

    await agentHooksPass().run(pc);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      operation: "hook.restore",
      file: settings,
      before: "no memnox hook",
      reason: "the memnox hook was taken out of Claude Code, so it was put back",
    });
    expect(notices.map((n) => n.body)).toEqual(["The Memnox hook was taken out of Claude Code, so it was put back."]);
    const text = readFileSync(settings, "utf8");
    expect(text).toContain("echo mine");
    expect(text).toContain("Bash(npm test)");
    expect(agentHookState(pc.ctx, "claude-code").presence).toBe("hooked");
    expect(readProbation(pc.ctx.paths.probation)).toEqual([]);
  });

  test("whose program is gone is pointed at memnox again", async () => {
    const h = home({ ".memnox/kept.json": kept({ hooked: ["codex"] }), ".codex/config.toml": "" });
    const { ctx } = testContext(h);
    installAgentHook({ ...ctx, selfArgv: [join(h.home, "gone", "memnox")] }, "codex");
    const { pc, changes } = collectingPass(h);
    await agentHooksPass().run(pc);
    expect(changes[0]).toMatchObject({ operation: "hook.repoint" });
    expect(changes[0]?.before).toContain("which is gone");
    const state = agentHookState(pc.ctx, "codex");
    expect(state).toMatchObject({ presence: "hooked", launcherExists: true });
  });

  test("the session server of a kept agent is put back too, unless a person turned it off", async () => {
    const h = home({ ".memnox/kept.json": kept({ hooked: ["claude-code"] }), ".claude/settings.json": "{}\n" });
    const { pc, changes, notices } = collectingPass(h);
    installAgentHook(pc.ctx, "claude-code");
    await agentHooksPass().run(pc);
    expect(changes.map((c) => c.operation)).toEqual(["session.restore"]);
    expect(notices[0]?.kind).toBe("session-server");
    expect(readFileSync(join(h.home, ".claude.json"), "utf8")).toContain("memnox-session");
  });
});

describe("what the keeper leaves alone", () => {
  test("an agent a person took the hook out of stays out, and the log says so once", async () => {
    const h = home({
      ".memnox/kept.json": kept({ takenOut: ["claude-code"] }),
      ".claude/settings.json": `${JSON.stringify(MINE, null, 2)}\n`,
    });
    const before = readFileSync(join(h.home, ".claude", "settings.json"), "utf8");
    const { pc, changes, logs } = collectingPass(h);
    const pass = agentHooksPass();
    await pass.run(pc);
    await pass.run(pc);
    expect(changes).toEqual([]);
    expect(readFileSync(join(h.home, ".claude", "settings.json"), "utf8")).toBe(before);
    expect(existsSync(join(h.home, ".claude.json"))).toBe(false);
    expect(logs).toEqual([
      "hooks claude-code is left without memnox's hook: a person took it out (memnox protect --claude-hook puts it back)",
    ]);
  });

  test("a machine setup never reached: nothing is hooked", async () => {
    for (const k of [undefined, '{"version": 1, "sessionServer": false}']) {
      const h = home({ ".cursor/mcp.json": "{}\n", ...(k ? { ".memnox/kept.json": k } : {}) });
      const { pc, changes } = collectingPass(h);
      await agentHooksPass().run(pc);
      expect(changes).toEqual([]);
      expect(existsSync(join(h.home, ".cursor", "hooks.json"))).toBe(false);
    }
  });

  test("a settings file that will not parse is left as it is, and said once", async () => {
    const h = home({ ".memnox/kept.json": kept({ hooked: ["claude-code"] }), ".claude/settings.json": "{ nope" });
    const { pc, changes, logs } = collectingPass(h);
    const pass = agentHooksPass();
    await pass.run(pc);
    await pass.run(pc);
    expect(changes).toEqual([]);
    expect(readFileSync(join(h.home, ".claude", "settings.json"), "utf8")).toBe("{ nope");
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain("settings.json was not changed");
  });
});

describe("memnox watch's line for what the keeper did", () => {
  test("a headline marked for attention where reach widened or a hook was taken out; other rows as they were", () => {
    const at = "2026-11-30T12:00:00.000Z";
    const base = { at, kind: "config", source: "ledger" as const, message: "m" };
    expect(watchLine({ ...base, headline: "WIDENED", attention: true })).toBe(`${at}  ⚠ WIDENED  m`);
    expect(watchLine({ ...base, headline: "NARROWED", attention: false })).toBe(`${at}  · NARROWED  m`);
    expect(watchLine({ ...base, kind: "rules", source: "daemon.log" })).toBe(`${at}  rules    m`);
  });
});

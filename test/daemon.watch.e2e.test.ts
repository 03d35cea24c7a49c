// The daemon keeping a machine setup reached: a server added with the real `claude mcp add` is put through the
// proxy, and `memnox watch` prints it as it happens; rule files changed under a running daemon are reloaded.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RunningDaemon, startDaemon } from "./support/daemon.ts";
import { compiledBinary, fakeHome, gitRepo } from "./support/index.ts";
import { whenChanged } from "./support/wait.ts";

const CLAUDE = join(import.meta.dir, "..", "node_modules", ".bin", "claude");
const home = fakeHome({
  ".memnox/kept.json": '{"version": 1, "setupAt": "2026-11-30T11:00:00.000Z", "wrapNewMcpServers": true}\n',
});
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(home);
});

afterAll(async () => {
  await daemon.stop();
  home[Symbol.dispose]();
});

/** `memnox watch --json` as a child, with each line it prints collected as it comes. */
async function watching() {
  const child = Bun.spawn([await compiledBinary(), "watch", "--json"], {
    env: home.env(),
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: Record<string, string>[] = [];
  const waiters: { check: (l: Record<string, string>) => boolean; resolve: (l: Record<string, string>) => void }[] = [];
  void (async () => {
    let buf = "";
    for await (const chunk of child.stdout) {
      buf += new TextDecoder().decode(chunk);
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        const line = JSON.parse(buf.slice(0, nl)) as Record<string, string>;
        buf = buf.slice(nl + 1);
        lines.push(line);
        for (const w of waiters.filter((x) => x.check(line))) w.resolve(line);
      }
    }
  })();
  const header = new Promise<string>((resolve) => {
    void (async () => {
      let said = "";
      for await (const chunk of child.stderr) {
        said += new TextDecoder().decode(chunk);
        if (said.includes("watching")) resolve(said);
      }
    })();
  });
  return {
    header,
    next: (check: (l: Record<string, string>) => boolean) =>
      new Promise<Record<string, string>>((resolve) => {
        const seen = lines.find(check);
        if (seen) resolve(seen);
        else waiters.push({ check, resolve });
      }),
    stop: () => {
      child.kill("SIGTERM");
      return child.exited;
    },
  };
}

test("a server added with `claude mcp add` is put through the proxy, and watch prints it", async () => {
  const watch = await watching();
  try {
    expect(await watch.header).toContain(`the daemon (pid ${daemon.pid}) keeps this machine`);
    const added = Bun.spawnSync([CLAUDE, "mcp", "add", "--scope", "user", "linear", "--", "npx", "-y", "linear-mcp"], {
      env: home.env(),
      cwd: home.home,
    });
    expect(added.exitCode).toBe(0);
    const event = await watch.next((l) => l.kind === "config" && (l.message ?? "").includes("linear"));
    expect(event.message).toContain("new MCP server linear put through the proxy");
    expect(event).toMatchObject({ operation: "mcp.wrap", headline: "NEW MCP SERVER", attention: true });
    expect(event.eventId).toMatch(/^evt_/);
    const entry = JSON.parse(readFileSync(join(home.home, ".claude.json"), "utf8")).mcpServers.linear;
    expect(entry.command).toBe(await compiledBinary());
    expect(entry.args).toEqual(expect.arrayContaining(["proxy", "linear-mcp"]));
    expect(readFileSync(join(home.memnoxHome, "probation.json"), "utf8")).toContain('"linear"');
  } finally {
    expect(await watch.stop()).toBe(0);
  }
});

test("a hook taken out of Claude Code is put back, and watch prints it as it happens", async () => {
  const settings = join(home.home, ".claude", "settings.json");
  // The first test's `claude mcp add` made Claude Code known here, and the daemon hooked it.
  await whenChanged(home.memnoxHome, () => readFileSync(settings, "utf8").includes(" hook claude-code "));
  const watch = await watching();
  try {
    await watch.header;
    writeFileSync(settings, "{}\n");
    const event = await watch.next((l) => l.operation === "hook.restore");
    expect(event).toMatchObject({ kind: "config", headline: "HOOK PUT BACK", attention: true });
    expect(event.message).toContain(`the memnox hook was taken out of Claude Code, so it was put back: ${settings}`);
    expect(readFileSync(settings, "utf8")).toContain(" hook claude-code ");
  } finally {
    expect(await watch.stop()).toBe(0);
  }
});

test("a rule file changed under a running daemon is reloaded, and the next verdict follows it", async () => {
  const repo = gitRepo({ "README.md": "x\n" });
  const log = join(home.memnoxHome, "daemon.log");
  const rules = (effect: string) =>
    `version = 1\n[[policies]]\nname = "status"\n[policies.match]\nactions = ["git.status"]\n[policies.decision]\neffect = "${effect}"\nreason = "status is ${effect}"\n`;
  try {
    writeFileSync(repo.join("memnox.policies.toml"), rules("allow"));
    const { createGate } = await import("../src/gate/index.ts");
    const { testContext } = await import("./support/index.ts");
    const { version } = await import("../build.ts");
    const gate = createGate({ ...testContext(home, { cwd: repo.path }).ctx, version: version() });
    const before = (await daemon.ping())?.answered.evaluate ?? 0;
    const ask = () => gate.decide({ surface: "hook", command: "git status", cwd: repo.path, canAsk: true });
    expect((await ask()).reason).toBe("status is allow");
    writeFileSync(repo.join("memnox.policies.toml"), rules("deny"));
    await whenChanged(home.memnoxHome, () => readFileSync(log, "utf8").includes(`rules reloaded for ${repo.path}`));
    expect((await ask()).reason).toBe("status is deny");
    expect((await daemon.ping())?.answered.evaluate).toBe(before + 2);
  } finally {
    repo[Symbol.dispose]();
  }
});

// A real daemon process on a temporary MEMNOX_HOME, asked by the compiled binary's hook and interceptor faces.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { createGate } from "../src/gate/index.ts";
import { daemonClient } from "../src/gate/remote/client.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { startDaemon } from "./support/daemon.ts";
import { compiledBinary, fakeHome, gitRepo, runBinary, testContext } from "./support/index.ts";
import { FORCE_PUSH_DENIED } from "./support/rules.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "one\n" });
let realPath = "";

const RULES = FORCE_PUSH_DENIED;

const env = () => home.env({ PATH: `${join(home.memnoxHome, "bin")}:${realPath}` });

function payload(command: string): string {
  return JSON.stringify({
    session_id: "ses-socket",
    cwd: repo.path,
    hook_event_name: "PreToolUse",
    permission_mode: "default",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "toolu_1",
  });
}

const hook = (command: string) =>
  runBinary("memnox", ["hook", "claude-code", "PreToolUse"], { env: env(), stdin: payload(command), cwd: repo.path });

const timeline = async () =>
  JSON.parse((await runBinary("memnox", ["timeline", "--json"], { env: env(), cwd: repo.path })).stdout) as {
    events: { operation: string; effect: string; surface: string }[];
  };

beforeAll(async () => {
  realPath = process.env.PATH ?? "";
  writeFileSync(repo.join("memnox.policies.toml"), RULES);
  writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
  const binDir = join(home.memnoxHome, "bin");
  mkdirSync(binDir, { recursive: true });
  symlinkSync(await compiledBinary(), join(binDir, "git"));
});

afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

describe("the daemon socket", () => {
  test("owner only: the socket 0600 in a 0700 directory; egress.json says where the proxy listens", async () => {
    await using d = await startDaemon(home);
    expect(statSync(d.sock).mode & 0o777).toBe(0o600);
    expect(statSync(home.memnoxHome).mode & 0o777).toBe(0o700);
    const ping = await d.ping();
    expect(ping?.pid).toBe(d.pid);
    const egress = JSON.parse(readFileSync(join(home.memnoxHome, "egress.json"), "utf8"));
    expect(egress).toMatchObject({ host: "127.0.0.1", port: ping?.egress?.port, pid: d.pid });
  });

  test("a hook and an interceptor are answered through the socket, with the verdict the rules give", async () => {
    await using d = await startDaemon(home);
    const before = (await d.ping())?.answered;
    const refused = await hook("git push --force origin main");
    const answer = JSON.parse(refused.stdout);
    expect(answer.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain("a force-push can destroy work");
    const allowed = await hook("git status");
    expect(allowed.code).toBe(0);
    const shim = await runBinary("git", ["push", "--force", "origin", "main"], { env: env(), cwd: repo.path });
    expect(shim.code).toBe(126);
    expect(shim.stderr).toContain("instead: push without --force");
    const after = (await d.ping())?.answered;
    // Three decisions, each answered by the daemon, and their rows written through its connection.
    expect((after?.evaluate ?? 0) - (before?.evaluate ?? 0)).toBe(3);
    expect((after?.record ?? 0) - (before?.record ?? 0)).toBe(0);
    const events = (await timeline()).events.filter((e) => e.operation === "git.push-force");
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events.every((e) => e.effect === "deny")).toBe(true);
  });

  test("a call's outcome is written by the daemon beside its decision, which it inherits who and what from", async () => {
    await using d = await startDaemon(home);
    const id = "toolu_outcome";
    const pre = { ...JSON.parse(payload("git status")), tool_use_id: id };
    const opts = { env: env(), cwd: repo.path };
    await runBinary("memnox", ["hook", "claude-code", "PreToolUse"], { ...opts, stdin: JSON.stringify(pre) });
    const before = (await d.ping())?.answered;
    const post = {
      ...pre,
      hook_event_name: "PostToolUse",
      tool_response: { stdout: "clean", stderr: "" },
      duration_ms: 12,
    };
    const done = await runBinary("memnox", ["hook", "claude-code", "PostToolUse"], {
      ...opts,
      stdin: JSON.stringify(post),
    });
    expect(done.code).toBe(0);
    expect(((await d.ping())?.answered.record ?? 0) - (before?.record ?? 0)).toBe(1);
    using db = new Database(memnoxPaths(home.env()).db, { readonly: true });
    const row = db
      .query<{ parent: string; surface: string; operation: string; session: string; duration_ms: number }, []>(
        "SELECT parent, surface, operation, session, duration_ms FROM events WHERE kind = 'outcome' ORDER BY seq DESC LIMIT 1",
      )
      .get();
    const decision = db
      .query<{ id: string }, []>(
        "SELECT id FROM events WHERE kind = 'decision' AND operation = 'git.status' ORDER BY seq DESC LIMIT 1",
      )
      .get();
    expect(row).toEqual({
      parent: decision?.id ?? "",
      surface: "hook",
      operation: "git.status",
      session: "ses-socket",
      duration_ms: 12,
    });
  });

  test("a seam of another memnox version (a daemon left running after an update) decides in its own process", async () => {
    await using d = await startDaemon(home);
    const before = (await d.ping())?.answered;
    const ctx = { ...testContext(home, { cwd: repo.path }).ctx, version: "0.0.0-other" };
    const a = await createGate(ctx).decide({
      surface: "hook",
      command: "git push --force origin main",
      cwd: repo.path,
      canAsk: false,
    });
    expect(a.effect).toBe("deny");
    const after = (await d.ping())?.answered;
    expect([after?.evaluate, after?.local]).toEqual([before?.evaluate, (before?.local ?? 0) + 1]);
  });

  test.skipIf(!existsSync("/proc/self/net/tcp"))(
    "with no account file it makes no network call: its only TCP socket is the loopback proxy listening",
    async () => {
      await using d = await startDaemon(home);
      await hook("git status");
      const inodes = new Set(
        readdirSync(`/proc/${d.pid}/fd`).flatMap((fd) => {
          try {
            const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${d.pid}/fd/${fd}`));
            return m?.[1] ? [m[1]] : [];
          } catch {
            return [];
          }
        }),
      );
      const mine = ["tcp", "tcp6", "udp", "udp6"].flatMap((proto) =>
        readFileSync(`/proc/${d.pid}/net/${proto}`, "utf8")
          .split("\n")
          .slice(1)
          .map((l) => l.trim().split(/\s+/))
          .filter((f) => f[9] !== undefined && inodes.has(f[9]))
          .map((f) => `${proto} ${f[1]} ${f[3]}`),
      );
      const port = (await d.ping())?.egress?.port ?? 0;
      // 0100007F is 127.0.0.1, 0A is LISTEN.
      expect(mine).toEqual([`tcp 0100007F:${port.toString(16).toUpperCase().padStart(4, "0")} 0A`]);
    },
  );

  test("SIGTERM: socket and egress.json removed, exit 0, no half-written file left behind", async () => {
    const d = await startDaemon(home);
    await hook("git status");
    expect(await d.stop("SIGTERM")).toBe(0);
    expect(existsSync(d.sock)).toBe(false);
    expect(existsSync(join(home.memnoxHome, "egress.json"))).toBe(false);
    expect(readdirSync(home.memnoxHome).filter((f) => f.includes(".tmp-"))).toEqual([]);
    expect(readFileSync(join(home.memnoxHome, "daemon.log"), "utf8")).toMatch(/ stopped on SIGTERM\n$/);
    expect(d.stderr()).not.toContain("error");
  });

  test("a socket file nobody answers is found stale by ping: seams decide in process, a new daemon takes it", async () => {
    const crashed = await startDaemon(home);
    await crashed.stop("SIGKILL");
    expect(existsSync(crashed.sock)).toBe(true);
    // The verdict does not depend on the daemon: the hook decides in process on the same files.
    const alone = JSON.parse((await hook("git push --force origin main")).stdout);
    expect(alone.hookSpecificOutput.permissionDecision).toBe("deny");
    await using next = await startDaemon(home);
    expect((await next.ping())?.pid).toBe(next.pid);
    expect(readFileSync(join(home.memnoxHome, "daemon.log"), "utf8")).toContain(
      `removed a stale socket file nothing answered on: ${next.sock}`,
    );
  });

  test("with no socket file a client is not reachable, so a seam builds no request; a daemon started later is", async () => {
    using fresh = fakeHome();
    const client = daemonClient(join(fresh.memnoxHome, "memnox.sock"), { retryMs: 0 });
    try {
      expect(client.reachable).toBe(false);
      await using d = await startDaemon(fresh);
      expect(client.reachable).toBe(true);
      expect((await client.call({ method: "ping" }, { timeoutMs: 2000 }))?.pid).toBe(d.pid);
    } finally {
      client.close();
    }
  });

  test("a long-lived client (an MCP proxy, a shell) finds a restarted daemon again", async () => {
    const client = daemonClient(join(home.memnoxHome, "memnox.sock"), { retryMs: 0 });
    try {
      const first = await startDaemon(home);
      expect((await client.call({ method: "ping" }, { timeoutMs: 2000 }))?.pid).toBe(first.pid);
      await first.stop();
      expect(await client.call({ method: "ping" }, { timeoutMs: 2000 })).toBeUndefined();
      await using second = await startDaemon(home);
      expect((await client.call({ method: "ping" }, { timeoutMs: 2000 }))?.pid).toBe(second.pid);
    } finally {
      client.close();
    }
  });

  test("a second daemon refuses to start while one answers, and leaves the first one's socket alone", async () => {
    await using first = await startDaemon(home);
    const second = await runBinary("memnox", ["daemon"], { env: home.env({ MEMNOX_EGRESS_PORT: "0" }) });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`a memnox daemon already answers on \`${first.sock}\` (pid ${first.pid})`);
    expect((await first.ping())?.pid).toBe(first.pid);
  });
});

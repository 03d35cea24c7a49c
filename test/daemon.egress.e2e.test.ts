// The egress proxy with real curl: plain HTTP and CONNECT tunnels to a loopback server, ruled by host, one ledger
// row per request naming only the host; an ask held until a person answers; `memnox run` pointing an agent at it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { daemonClient } from "../src/gate/remote/client.ts";
import { openLedger } from "../src/ledger/store.ts";
import { type RunningDaemon, startDaemon } from "./support/daemon.ts";
import { agentSeat } from "./support/governed.ts";
import { fakeHome, runBinary } from "./support/index.ts";
import { whenChanged } from "./support/wait.ts";

const home = fakeHome();
let upstream: ReturnType<typeof Bun.serve>;
let daemon: RunningDaemon;
let proxy = "";
const UP = () => upstream.port;

const rule = (name: string, host: string, effect: string, reason: string) => `
[[policies]]
name = "${name}"
[policies.match]
actions = ["http.request", "http.loopback"]
targets = ["${host}"]
[policies.decision]
effect = "${effect}"
reason = "${reason}"
`;

function machineRules(text: string): void {
  writeFileSync(join(home.memnoxHome, "machine.policies.toml"), `version = 1\n${text}`);
}

async function curl(args: string[], env: Record<string, string> = home.env()) {
  const p = Bun.spawn(["curl", "-s", "-S", ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { stdout, stderr, code };
}

function egressRows() {
  const ledger = openLedger({ db: join(home.memnoxHome, "memnox.db") });
  try {
    return [...ledger.iterate()].filter((r) => r.surface === "egress");
  } finally {
    ledger.close();
  }
}

beforeAll(async () => {
  upstream = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (r) => new Response(`ok ${new URL(r.url).pathname}`),
  });
  writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
  machineRules(rule("no-localhost-by-name", "localhost", "deny", "loopback by name is not for agents"));
  daemon = await startDaemon(home);
  const port = (await daemon.ping())?.egress?.port;
  proxy = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await daemon.stop();
  upstream.stop(true);
  home[Symbol.dispose]();
});

describe("the daemon's egress proxy", () => {
  test("plain HTTP: allowed to one host, refused (403, reason) for another; one row each, the host only", async () => {
    const before = egressRows().length;
    const ok = await curl(["-x", proxy, `http://127.0.0.1:${UP()}/secret-path?token=abc123`]);
    expect(ok.stdout).toBe("ok /secret-path");
    const refused = await curl(["-x", proxy, "-w", "\n%{http_code}", `http://localhost:${UP()}/other`]);
    expect(refused.stdout).toContain("memnox refused a request to localhost: loopback by name is not for agents");
    expect(refused.stdout.trim().endsWith("403")).toBe(true);
    const rows = egressRows().slice(before);
    expect(rows.map((r) => [r.operation, r.resourceRef, r.effect])).toEqual([
      ["http.loopback", "127.0.0.1", "allow"],
      ["http.loopback", "localhost", "deny"],
    ]);
    // Never the path, the query, a header or the body.
    const all = JSON.stringify(rows);
    for (const secret of ["secret-path", "token", "abc123", "/other", "curl/"]) expect(all).not.toContain(secret);
  });

  test("CONNECT: a tunnel to an allowed host carries the request; a refused host gets 403 and no tunnel", async () => {
    const ok = await curl(["-p", "-x", proxy, `http://127.0.0.1:${UP()}/tunnelled`]);
    expect(ok.stdout).toBe("ok /tunnelled");
    const refused = await curl(["-p", "-x", proxy, `http://localhost:${UP()}/tunnelled`]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/403/);
    const rows = egressRows().slice(-2);
    expect(rows.map((r) => [r.resourceRef, r.effect])).toEqual([
      ["127.0.0.1", "allow"],
      ["localhost", "deny"],
    ]);
  });

  test("a session's own listener: the address it was given names the session on the row", async () => {
    const client = daemonClient(join(home.memnoxHome, "memnox.sock"));
    const mine = await client.call({ method: "ping", egressFor: "ses_declared" }, { timeoutMs: 2000 });
    const again = await client.call({ method: "ping", egressFor: "ses_declared" }, { timeoutMs: 2000 });
    expect(mine?.egress?.port).toBeDefined();
    expect(mine?.egress?.port).not.toBe(Number(proxy.split(":").at(-1)));
    expect(again?.egress?.port).toBe(mine?.egress?.port);
    const own = `http://127.0.0.1:${mine?.egress?.port}`;
    await curl(["-x", own, `http://127.0.0.1:${UP()}/x`]);
    expect(egressRows().at(-1)?.agentSessionId).toBe("ses_declared");
    client.close();
    await curl(["-x", proxy, `http://127.0.0.1:${UP()}/x`]);
    expect(egressRows().at(-1)?.agentSessionId).toBeUndefined();
  });

  test("ask: the request waits for a person; approved it goes through, denied it is refused", async () => {
    machineRules(rule("loopback-asks", "127.0.0.1", "ask", "a person says whether this host is reached"));
    const pending = join(home.memnoxHome, "pending");
    const held = async () =>
      whenChanged(pending, () =>
        readdirSync(pending)
          .filter((f) => f.endsWith(".json"))
          .map((f) => JSON.parse(readFileSync(join(pending, f), "utf8")))
          .find((h) => h.status === "waiting" && h.target === "127.0.0.1"),
      );
    const waiting = curl(["-x", proxy, `http://127.0.0.1:${UP()}/after-yes`]);
    const hold = await held();
    const yes = await runBinary("memnox", ["approve", hold.id], { env: home.env() });
    expect(yes.code).toBe(0);
    expect((await waiting).stdout).toBe("ok /after-yes");

    const refused = curl(["-x", proxy, "-w", "\n%{http_code}", `http://127.0.0.1:${UP()}/after-no`]);
    const second = await held();
    await runBinary("memnox", ["deny", second.id], { env: home.env() });
    const r = await refused;
    expect(r.stdout).toContain("a person denied it");
    expect(r.stdout.trim().endsWith("403")).toBe(true);
    machineRules(rule("no-localhost-by-name", "localhost", "deny", "loopback by name is not for agents"));
  });
});

describe("memnox run and the egress proxy", () => {
  test("with a daemon, the agent's requests go through the daemon's proxy under the run's session", async () => {
    const r = await runBinary("memnox", ["run", "--no-milestone", "--", "curl", "-s", `http://127.0.0.1:${UP()}/run`], {
      env: home.env(),
      cwd: home.home,
    });
    expect(r.stdout).toBe("ok /run");
    expect(r.stderr).toContain("network through the daemon's egress proxy");
    const session = /session (ses_\w+)/.exec(r.stderr)?.[1];
    expect(egressRows().at(-1)).toMatchObject({ resourceRef: "127.0.0.1", agentSessionId: session, agent: "curl" });
  });

  test("without a daemon, the run starts a proxy of its own, ruling the same way", async () => {
    await daemon.stop();
    try {
      const e = home.env();
      const ok = await runBinary(
        "memnox",
        ["run", "--no-milestone", "--", "curl", "-s", `http://127.0.0.1:${UP()}/own`],
        {
          env: e,
          cwd: home.home,
        },
      );
      expect(ok.stdout).toBe("ok /own");
      expect(ok.stderr).toContain("this run's own egress proxy (no daemon answers)");
      // An agent's shell asks (a command memnox run is handed itself is judged, and refused, before it starts).
      using seat = agentSeat();
      const refused = await runBinary(
        "memnox",
        ["run", "--no-milestone", "--", seat.bin, "-c", `curl -s http://localhost:${UP()}/own`],
        { env: e, cwd: home.home },
      );
      expect(refused.stdout).toContain("loopback by name is not for agents");
      expect(egressRows().at(-1)).toMatchObject({ resourceRef: "localhost", effect: "deny", agent: "claude" });
    } finally {
      daemon = await startDaemon(home);
    }
  });
});

// Two machines (two homes) and two `memnox cloud serve` processes on one real PostgreSQL, all compiled binaries:
// login by device code, the fleet's rules pulled and in force, events sent once, freezes, modes, a held call answered
// from the workspace, stale verdicts while unreachable, logout, revocation, and no call at all without an account.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { type Db, openDb } from "../../src/cloud/store/db.ts";
import {
  acmeIds,
  api,
  countingProxy,
  establishedTcp,
  initAcme,
  publish,
  type RunningCloud,
  startCloud,
} from "../support/cloud.ts";
import { type Browser, sessionFor } from "../support/console.ts";
import { startDaemon } from "../support/daemon.ts";
import { compiledBinary, runBinary, tempDir } from "../support/index.ts";
import { gitOn, loginWith, type Machine, machine, mx, remoteRef, syncNow, waitFor, wire } from "../support/machine.ts";
import { MCP_OPENING } from "../support/mcp.ts";
import { startPostgres, type TestPostgres } from "../support/postgres.ts";

const BUNDLE = `version = 1

[[policies]]
name = "no-force-push"
match = { actions = ["git.push-force"] }
decision = { effect = "deny", reason = "force pushes rewrite history somebody else has", alternative = { action = "git.push", note = "push without --force" } }

[[policies]]
name = "release-freeze"
match = { actions = ["git.push"], state = ["freeze:release"] }
decision = { effect = "deny", reason = "pushes wait while the release is frozen" }

[[policies]]
name = "release-pushes-ask"
match = { actions = ["git.push"], branches = ["release/*"] }
decision = { effect = "ask", reason = "a person looks at release pushes" }
`;

let pg: TestPostgres;
let cloud1: RunningCloud;
let cloud2: RunningCloud;
let admin = "";
let db: Db;
// The admin signed in to the console: what approves a rule set and answers a held call.
let signedIn: Browser;
let signedIn2: Browser;
let bin = "";
const realPath = process.env.PATH ?? "";

const A = machine("a");
const B = machine("b");

const git = gitOn;
const sync = syncNow;
const machinesListed = async () => (await api(cloud1.url, "GET", "/v1/machines", { token: admin })).body.machines;
const row = async (m: Machine) => (await machinesListed()).find((x: { id: string }) => x.id === m.id);

const login = (m: Machine, url: string, extra: string[] = []) => loginWith(m, url, admin, extra);

function account(m: Machine) {
  return JSON.parse(readFileSync(join(m.home.memnoxHome, "account.json"), "utf8"));
}

beforeAll(async () => {
  bin = await compiledBinary();
  pg = await startPostgres();
  [cloud1, cloud2] = await Promise.all([startCloud(pg.url), startCloud(pg.url)]);
  admin = await initAcme(pg.url, A.home.env());
  db = await openDb(pg.url);
  const { adminId } = await acmeIds(db);
  signedIn = await sessionFor(db, cloud1.url, adminId);
  signedIn2 = await sessionFor(db, cloud2.url, adminId);
  for (const m of [A, B]) wire(m, bin, ["git", "memnox-shell", "memnox-mcp-proxy"]);
}, 120_000);

afterAll(async () => {
  await db?.close();
  await cloud1?.stop();
  await cloud2?.stop();
  await pg?.stop();
  for (const m of [A, B]) m[Symbol.dispose]();
});

describe("enrolment", () => {
  test("login --no-open, approved with the admin's token, writes account.json 0600 with a key made here", async () => {
    const a = await login(A, cloud1.url, ["--enforce"]);
    expect(a.out).toContain("connected to workspace acme");
    const b = await login(B, cloud2.url);
    expect(b.out).toContain("(owner admin@acme.dev)");
    for (const m of [A, B]) {
      const file = join(m.home.memnoxHome, "account.json");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const acct = account(m);
      m.id = acct.machineId;
      const sql = new Bun.SQL(pg.url, { max: 1 });
      const [stored] = await sql`SELECT public_key FROM machines WHERE id = ${m.id}`;
      await sql.close();
      expect(stored.public_key).toBe(acct.publicKey);
      const dump = await pg.dump();
      expect(dump).not.toContain(acct.privateKey);
      expect(dump).not.toContain(Buffer.from(acct.privateKey, "hex").toString("base64"));
      expect(dump).not.toContain(acct.token);
    }
    expect(readFileSync(join(A.home.memnoxHome, "config.toml"), "utf8")).toContain('mode = "enforce"');
    const who = await mx(A, ["whoami"]);
    expect(who.stdout).toContain("workspace acme");
    expect(who.stdout).toContain(A.id);
    expect(who.stdout).toContain("owner admin@acme.dev");
    expect((await row(A)).mode).toMatchObject({ set: "enforce", running: "enforce" });
    expect((await row(B)).mode).toMatchObject({ set: "observe", running: "observe" });
    // A second login over an enrolled machine is refused, naming the one it is in.
    const again = await mx(A, ["login", "--no-open", "--url", cloud1.url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already enrolled in workspace acme");
  });

  test("--url refuses plain http to anything but loopback, and so does the transport under a hand-edited account", async () => {
    const r = await mx(A, ["login", "--no-open", "--url", "http://control.example.invalid"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("https only");
    const acct = account(A);
    const file = join(A.home.memnoxHome, "account.json");
    let opened = 0;
    const listener = Bun.listen({
      hostname: "0.0.0.0",
      port: 0,
      socket: {
        open: () => {
          opened += 1;
        },
        data: () => {},
      },
    });
    // An address of this machine that is not loopback, where one exists: the refusal must come before any connection.
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((i) => i?.family === "IPv4" && !i.internal)?.address;
    try {
      writeFileSync(
        file,
        JSON.stringify({ ...acct, url: `http://${lan ?? "control.example.invalid"}:${listener.port}` }),
        { mode: 0o600 },
      );
      const s = await mx(A, ["sync", "now"]);
      expect(s.code).toBe(1);
      expect(s.stderr).toContain("https only");
      expect(opened).toBe(0);
    } finally {
      listener.stop(true);
      writeFileSync(file, `${JSON.stringify(acct, null, 2)}\n`, { mode: 0o600 });
    }
  });
});

describe("rules for the fleet", () => {
  test("a bundle published once (proposed, then approved) is in force on both machines after sync now, shown as applied; unchanged is a 304", async () => {
    // The organization's one admin may approve their own proposal: the second approver is needed where one exists.
    const put = { body: await publish(cloud1.url, admin, BUNDLE, { approver: signedIn }) };
    for (const m of [A, B]) {
      const r = await sync(m);
      expect(r.bundle).toMatchObject({ outcome: "applied", hash: put.body.hash, rules: 3 });
      expect(JSON.parse(readFileSync(join(m.home.memnoxHome, "org.policies.json"), "utf8")).policies).toHaveLength(3);
    }
    for (const m of [A, B])
      expect((await row(m)).bundle).toEqual({ applied: put.body.hash, inForce: put.body.hash, current: true });
    expect((await sync(A)).bundle).toEqual({ outcome: "unchanged", hash: put.body.hash });
    const check = await mx(B, ["policy", "check"]);
    expect(check.stdout).toContain("org.policies.json");
  });

  test("a deny on machine A is in GET /v1/events exactly once, after a resend too", async () => {
    A.repo.git("commit", "-q", "--amend", "--allow-empty", "-m", "rewritten");
    const before = remoteRef(A, "main");
    const r = await git(A, ["push", "--force", "origin", "main"]);
    expect(r.code).toBe(126);
    expect(r.stderr).toContain("force pushes rewrite history somebody else has");
    expect(remoteRef(A, "main")).toBe(before);
    const first = await sync(A);
    expect(first.sent.accepted).toBeGreaterThan(0);
    const denies = async () =>
      (
        await api(cloud2.url, "GET", `/v1/events?machine=${A.id}&effect=deny&limit=1000`, { token: admin })
      ).body.events.filter((e: { operation: string }) => e.operation === "git.push-force");
    const once = await denies();
    expect(once).toHaveLength(1);
    expect(once[0]).toMatchObject({ ruleId: "no-force-push", surface: "interceptor", resourceRef: "origin main" });
    // Forget the acknowledgement, as a crash between the send and its write would: everything goes again.
    const syncFile = join(A.home.memnoxHome, "sync.json");
    writeFileSync(syncFile, JSON.stringify({ ...JSON.parse(readFileSync(syncFile, "utf8")), lastSentSeq: 0 }));
    const resent = await sync(A);
    expect(resent.sent.accepted).toBe(0);
    expect(resent.sent.duplicates).toBeGreaterThan(0);
    expect(await denies()).toHaveLength(1);
  });

  test("a fleet freeze reaches both machines on their next beat, and its lift too", async () => {
    const f = await api(cloud2.url, "POST", "/v1/state", {
      token: admin,
      body: { kind: "freeze", subject: "release", for: "2h", reason: "release 4.2 is being cut" },
    });
    expect(f.status).toBe(201);
    for (const m of [A, B]) expect((await sync(m)).bundle.outcome).toBe("applied");
    // Back on the remote's history (the deny above left a rewritten commit), so a plain push fast-forwards.
    A.repo.git("reset", "-q", "--hard", remoteRef(A, "main"));
    A.repo.git("commit", "-q", "--allow-empty", "-m", "during the freeze");
    const refused = await git(A, ["push", "-q", "origin", "main"]);
    expect(refused.code).toBe(126);
    expect(refused.stderr).toContain("pushes wait while the release is frozen");
    expect(refused.stderr).toContain("release 4.2 is being cut");
    // B watches (observe): the push runs, and the row says what enforce would have done and why.
    B.repo.git("commit", "-q", "--allow-empty", "-m", "during the freeze");
    expect((await git(B, ["push", "-q", "origin", "main"])).code).toBe(0);
    const why = JSON.parse((await mx(B, ["why", "--json"])).stdout);
    expect(why.rule.name).toBe("release-freeze");
    expect(why.evidence).toMatchObject({ effect: "allow", enforceEffect: "deny" });
    expect(why.evidence.facts[0]).toMatchObject({ kind: "freeze", subject: "release", by: "admin@acme.dev" });
    expect((await api(cloud1.url, "POST", `/v1/state/${f.body.id}/lift`, { token: admin })).status).toBe(200);
    await sync(A);
    expect((await git(A, ["push", "-q", "origin", "main"])).code).toBe(0);
    expect(remoteRef(A, "main")).toBe(A.repo.git("rev-parse", "main").trim());
  });
});

describe("the mode, set in the workspace", () => {
  test("an admin moves a machine down and up; the reply carries the change; a hand edit shows as drift, not reverted", async () => {
    const down = await api(cloud1.url, "POST", `/v1/machines/${A.id}/mode`, {
      token: admin,
      body: { mode: "observe" },
    });
    expect(down.body).toMatchObject({ from: "enforce", to: "observe", by: "admin@acme.dev" });
    expect((await row(A)).mode).toMatchObject({ set: "observe", running: "enforce", drift: false });
    const applied = await sync(A);
    expect(applied.modeChange).toEqual({ from: "enforce", to: "observe", by: "admin@acme.dev" });
    expect(readFileSync(join(A.home.memnoxHome, "config.toml"), "utf8")).toContain('mode = "observe"');
    expect((await row(A)).mode).toMatchObject({ set: "observe", running: "observe", pendingChange: null });
    await api(cloud2.url, "POST", `/v1/machines/${A.id}/mode`, { token: admin, body: { mode: "enforce" } });
    await api(cloud2.url, "POST", `/v1/machines/${B.id}/mode`, { token: admin, body: { mode: "enforce" } });
    for (const m of [A, B]) expect((await sync(m)).modeChange?.to).toBe("enforce");
    // Somebody on A sets it back by hand: the workspace shows the drift, and the next beat does not undo it.
    const edited = await mx(A, ["config", "set", "mode", "advise"]);
    expect(edited.code).toBe(0);
    expect((await sync(A)).modeChange).toBeNull();
    expect(readFileSync(join(A.home.memnoxHome, "config.toml"), "utf8")).toContain('mode = "advise"');
    expect((await row(A)).mode).toMatchObject({ set: "enforce", running: "advise", drift: true });
    const history = (await api(cloud1.url, "GET", `/v1/machines/${A.id}`, { token: admin })).body.modeHistory;
    expect(history.map((h: { from: string; to: string; by: string }) => `${h.from}>${h.to} ${h.by}`)).toEqual([
      "enforce>observe admin@acme.dev",
      "observe>enforce admin@acme.dev",
    ]);
    // Pressing it again is how an admin asks for it deliberately.
    await api(cloud1.url, "POST", `/v1/machines/${A.id}/mode`, { token: admin, body: { mode: "enforce" } });
    expect((await sync(A)).modeChange?.to).toBe("enforce");
    const timeline = JSON.parse((await mx(A, ["timeline", "--json", "--since", "30d"])).stdout);
    expect(timeline.events.some((e: { operation: string }) => e.operation === "memnox.mode")).toBe(true);
  });
});

describe("a held call on a machine nobody is at", () => {
  const holdOn = async (m: Machine) =>
    waitFor("a held call", async () => {
      const a = JSON.parse((await mx(m, ["approvals", "--json"])).stdout) as { approvals: { id: string }[] };
      return a.approvals[0]?.id;
    });

  test("travels up on the beat, is answered signed in to the console, and releases the call exactly once", async () => {
    B.repo.git("checkout", "-q", "-b", "release/1");
    B.repo.git("commit", "-q", "--allow-empty", "-m", "release one");
    const spawnPush = () =>
      Bun.spawn([join(B.home.memnoxHome, "bin", "git"), "push", "-q", "origin", "release/1"], {
        env: B.env(),
        cwd: B.repo.path,
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
    const held = spawnPush();
    const localId = await holdOn(B);
    const up = await sync(B);
    expect(up.holdsUp).toBe(1);
    const listed = (await api(cloud1.url, "GET", "/v1/holds", { token: admin })).body.holds;
    const h = listed.find((x: { localId: string }) => x.localId === localId);
    expect(h).toMatchObject({ machineId: B.id, action: "git.push", target: "origin release/1", status: "waiting" });
    expect(h.reason).toContain("a person looks at release pushes");
    // Where the agent stood: the repository the held call would act in.
    expect(h.repository).toBe(B.repo.path);
    // The admin's token answers nothing; the admin signed in does, on either server.
    const byToken = await api(cloud2.url, "POST", `/v1/holds/${h.id}/answer`, { token: admin, body: { grant: true } });
    expect(byToken.body.error.code).toBe("sign_in_required");
    const waiting = await signedIn2.get("/waiting");
    expect(waiting.html).toContain(B.repo.path);
    const answered = await signedIn2.post("/waiting", { _action: "answer", id: h.id, answer: "once" });
    expect(answered.status).toBe(303);
    expect(remoteRef(B, "release/1")).toBe("");
    const down = await sync(B);
    expect(down.answers).toEqual([{ holdId: localId, grant: true, by: "admin@acme.dev", outcome: "decided" }]);
    expect(await held.exited).toBe(0);
    expect(remoteRef(B, "release/1")).toBe(B.repo.git("rev-parse", "release/1").trim());
    // Acknowledged: the answer is not carried again, and the hold reads as granted in the workspace.
    expect((await sync(B)).answers).toEqual([]);
    expect(
      (await api(cloud1.url, "GET", "/v1/holds?all=1", { token: admin })).body.holds.find(
        (x: { id: string }) => x.id === h.id,
      ).status,
    ).toBe("granted");
    // The grant was spent by that one push: the same call again is held anew, and a refusal from the API stops it.
    B.repo.git("commit", "-q", "--allow-empty", "-m", "release one, again");
    const again = spawnPush();
    const second = await holdOn(B);
    expect(second).not.toBe(localId);
    await sync(B);
    const h2 = (await api(cloud1.url, "GET", "/v1/holds", { token: admin })).body.holds.find(
      (x: { localId: string }) => x.localId === second,
    );
    expect((await signedIn.post("/waiting", { _action: "answer", id: h2.id, answer: "deny" })).status).toBe(303);
    await sync(B);
    expect(await again.exited).toBe(126);
    const approvals = JSON.parse((await mx(B, ["timeline", "--json", "--since", "30d"])).stdout).events.filter(
      (e: { operation: string }) => e.operation === "memnox.approve",
    );
    expect(approvals).toHaveLength(1);
    B.repo.git("checkout", "-q", "main");
  });
});

describe("secrets never leave", () => {
  const CANARIES = [
    "ghp_CANARYhookAAAAbbbbCCCCddddEEEE1234",
    "sk-live-CANARYshimZZZZyyyyXXXX5678",
    "AKIACANARYSHELL12345",
    "xoxb-CANARY-mcp-0000-1111-2222",
    "glpat-CANARYgitAAAAbbbbCCCC",
    "npm_CANARYprepushAAAAbbbbCCCCdddd",
    "github_pat_CANARYegress_AAAAbbbbCCCCdddd",
  ];

  test("canaries sent through every seam reach neither the server's rows nor its files", async () => {
    const [hook, shim, shell, mcp, gitUrl, prePush = "", egress = ""] = CANARIES;
    const payload = {
      session_id: "canary-session",
      cwd: A.repo.path,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: `curl -H "Authorization: Bearer ${hook}" https://api.example.invalid/?token=${hook}` },
      tool_use_id: "toolu_canary",
    };
    const h = await runBinary("memnox", ["hook", "claude-code", "PreToolUse"], {
      env: A.env(),
      cwd: A.repo.path,
      stdin: JSON.stringify(payload),
    });
    expect(h.code).toBe(0);
    const read = {
      ...payload,
      tool_name: "Read",
      tool_input: { file_path: `/tmp/${hook}/notes.txt` },
      tool_use_id: "toolu_canary2",
    };
    await runBinary("memnox", ["hook", "claude-code", "PreToolUse"], {
      env: A.env(),
      cwd: A.repo.path,
      stdin: JSON.stringify(read),
    });
    await git(A, [
      "-c",
      `http.extraHeader=Authorization: Bearer ${shim}`,
      "ls-remote",
      `https://u:${gitUrl}@example.invalid/r.git`,
    ]);
    await runBinary("memnox-shell", ["-c", `echo ${shell} >/dev/null; export API_TOKEN=${shell}`], {
      env: A.env({ MEMNOX_REAL_SHELL: "/bin/bash" }),
      cwd: A.repo.path,
    });
    const lines = [
      ...MCP_OPENING,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "echo", arguments: { text: `token ${mcp}`, path: `/srv/${mcp}` } },
      },
    ];
    await runBinary(
      "memnox-mcp-proxy",
      [
        "--name",
        "scripted",
        "--",
        process.execPath,
        join(import.meta.dir, "..", "..", "fixtures", "mcp", "scripted-server.ts"),
      ],
      {
        env: A.env(),
        cwd: A.repo.path,
        stdin: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
      },
    );
    // git's own pre-push hook, pushing to a remote whose path holds a token, with no wrapper on PATH.
    const hookFile = A.repo.join(".git", "hooks", "pre-push");
    writeFileSync(hookFile, `#!/bin/sh\nexec '${bin}' hook git pre-push "$@"\n`, { mode: 0o755 });
    const tokenRemote = tempDir("memnox-remote");
    const bare = join(tokenRemote.path, prePush, "r.git");
    mkdirSync(bare, { recursive: true });
    Bun.spawnSync(["git", "init", "-q", "--bare", "-b", "main", bare]);
    Bun.spawnSync(["git", "push", "-q", bare, "main"], { env: A.env({ PATH: realPath }), cwd: A.repo.path });
    // The daemon's egress proxy, with the token in the query and in a header.
    await using daemon = await startDaemon(A.home, { env: { PATH: realPath } });
    const port = (await daemon.ping())?.egress?.port;
    Bun.spawnSync([
      "curl",
      "-s",
      "-m",
      "5",
      "-x",
      `http://127.0.0.1:${port}`,
      "-H",
      `Authorization: Bearer ${egress}`,
      `http://127.0.0.1:9/x?token=${egress}`,
    ]);
    const surfaces = JSON.parse((await mx(A, ["timeline", "--json", "--since", "30d"])).stdout).events.map(
      (e: { surface: string }) => e.surface,
    );
    for (const s of ["hook", "interceptor", "shell", "mcp", "git", "egress"]) expect(surfaces).toContain(s);
    rmSync(hookFile);
    tokenRemote[Symbol.dispose]();
    await daemon.stop();
    await sync(A);
    // Every seam's rows reached the server (so the canaries were on the wire, masked), yet none of the canaries did.
    const onServer = (await api(cloud1.url, "GET", `/v1/events?machine=${A.id}&limit=1000`, { token: admin })).body
      .events;
    const sentFrom = new Set(onServer.map((e: { surface: string }) => e.surface));
    for (const s of ["hook", "interceptor", "shell", "mcp", "git", "egress"]) expect(sentFrom).toContain(s);
    const dump = await pg.dump();
    expect(dump).toContain("canary-session");
    const needles = CANARIES.flatMap((c) => [c, Buffer.from(c).toString("base64"), Buffer.from(c).toString("hex")]);
    for (const needle of needles) expect(dump.includes(needle), `${needle} is in a table`).toBe(false);
    // Not in a table, an index or the write-ahead log: it never reached the database at all.
    const inFiles = await pg.filesHolding(needles);
    for (const needle of needles) expect(inFiles[needle], `${needle} is in the cluster's files`).toEqual([]);
    // The same search finds what did arrive, so an empty answer above means something.
    expect((await pg.filesHolding(["canary-session"]))["canary-session"]?.length).toBeGreaterThan(0);
  });
});

describe("when the workspace cannot be reached", () => {
  test("the machine keeps deciding on its cached rules and marks every verdict stale, shown by why", async () => {
    const file = join(B.home.memnoxHome, "account.json");
    const acct = account(B);
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => {} } });
    const port = closed.port;
    closed.stop(true);
    writeFileSync(file, JSON.stringify({ ...acct, url: `http://127.0.0.1:${port}` }), { mode: 0o600 });
    const down = await mx(B, ["sync", "now"]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain("could not reach the control plane");
    expect((await mx(B, ["whoami"])).stdout).toContain("unreachable since");
    B.repo.git("commit", "-q", "--amend", "--allow-empty", "-m", "rewritten on b");
    const refused = await git(B, ["push", "--force", "origin", "main"]);
    expect(refused.code).toBe(126);
    const why = await mx(B, ["why"]);
    expect(why.stdout).toContain("no-force-push");
    expect(why.stdout).toContain("stale");
    expect(JSON.parse((await mx(B, ["why", "--json"])).stdout).evidence.stale).toBe(true);
    writeFileSync(file, `${JSON.stringify(acct, null, 2)}\n`, { mode: 0o600 });
    await sync(B);
    expect((await git(B, ["push", "--force", "origin", "main"])).code).toBe(126);
    expect(JSON.parse((await mx(B, ["why", "--json"])).stdout).evidence.stale).toBe(false);
  });

  test("logout forgets the credential and keeps the pulled rules in force", async () => {
    const out = await mx(B, ["logout"]);
    expect(out.stdout).toContain("the rules pulled from it stay in force");
    expect(existsSync(join(B.home.memnoxHome, "account.json"))).toBe(false);
    expect(existsSync(join(B.home.memnoxHome, "org.policies.json"))).toBe(true);
    const who = await mx(B, ["whoami"]);
    expect(who.code).toBe(1);
    expect(who.stdout).toContain("not connected");
    const before = remoteRef(B, "main");
    const r = await git(B, ["push", "--force", "origin", "main"]);
    expect(r.code).toBe(126);
    expect(r.stderr).toContain("force pushes rewrite history somebody else has");
    expect(remoteRef(B, "main")).toBe(before);
    const s = await mx(B, ["sync", "now"]);
    expect(s.code).toBe(1);
    expect(s.stderr).toContain("not connected to a workspace");
  });
});

describe("the daemon's loop", () => {
  test("revoked in the workspace: the machine hears it, says so, and its daemon makes no further call", async () => {
    const relay = countingProxy(cloud1.url);
    const file = join(A.home.memnoxHome, "account.json");
    const acct = account(A);
    writeFileSync(file, JSON.stringify({ ...acct, url: relay.url }), { mode: 0o600 });
    try {
      expect((await api(cloud1.url, "POST", `/v1/machines/${A.id}/revoke`, { token: admin })).status).toBe(200);
      const r = await mx(A, ["sync", "now"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("revoked");
      expect((await mx(A, ["whoami"])).stdout).toContain("revoked");
      const seen = relay.connections();
      const said = relay.bytesIn();
      await using daemon = await startDaemon(A.home, { env: { MEMNOX_SYNC_INTERVAL_MS: "100", PATH: realPath } });
      const log = join(A.home.memnoxHome, "daemon.log");
      await waitFor(
        "the revoked line",
        () => existsSync(log) && readFileSync(log, "utf8").includes("the loop is stopped"),
      );
      await Bun.sleep(800);
      expect(relay.connections()).toBe(seen);
      expect(relay.bytesIn()).toBe(said);
      expect(establishedTcp(daemon.pid)).toBe(0);
      // Still deciding on the rules it was given.
      expect((await git(A, ["push", "--force", "origin", "main"])).code).toBe(126);
    } finally {
      relay.stop();
    }
  });

  test("with no account.json the daemon makes no call at all; once logged in it syncs; after logout it stops", async () => {
    const C = machine("c");
    const relay = countingProxy(cloud1.url);
    try {
      await using daemon = await startDaemon(C.home, { env: { MEMNOX_SYNC_INTERVAL_MS: "100", PATH: realPath } });
      const log = join(C.home.memnoxHome, "daemon.log");
      await waitFor(
        "the no-account line",
        () => existsSync(log) && readFileSync(log, "utf8").includes("no account.json"),
      );
      for (let i = 0; i < 8; i++) {
        expect(establishedTcp(daemon.pid)).toBe(0);
        await Bun.sleep(100);
      }
      expect(relay.connections()).toBe(0);
      expect(readFileSync(log, "utf8").match(/no account\.json/g)).toHaveLength(1);
      // The same daemon, once the machine logs in: it syncs through the same relay on its own.
      await login(C, relay.url);
      await waitFor("the syncing line", () => readFileSync(log, "utf8").includes("syncing with workspace acme"));
      expect(relay.connections()).toBeGreaterThan(0);
      const sent = relay.bytesIn();
      await waitFor("a later pass", () => relay.bytesIn() > sent || undefined);
      await mx(C, ["logout"]);
      await Bun.sleep(300);
      const quiet = relay.bytesIn();
      await Bun.sleep(800);
      expect(relay.bytesIn()).toBe(quiet);
    } finally {
      relay.stop();
      C[Symbol.dispose]();
    }
  });
});

// The guarantees against the real parts: two compiled `memnox cloud serve` processes sharing the private PostgreSQL
// cluster the first one started, a machine that is the compiled binary in a temporary home, and each class tried for
// its effect: a forged second admin, a byte that once blinded a machine, a delivery replayed on the other server and
// another workspace, a flood spread across both servers, a credential a forged machine sends, and the cluster
// outliving the server that started it while the other still uses it, then telling the truth when it is gone.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clusterUrl, postgresBin } from "../src/cloud/cluster.ts";
import { routeSecret, signDelivery } from "../src/cloud/intent/webhook.ts";
import { SIGNATURE_HEADER } from "../src/cloud/protocol/sync.ts";
import { type Db, openDb } from "../src/cloud/store/db.ts";
import { newKeyPair, signWith } from "../src/ledger/sign.ts";
import { api, type RunningCloud, startCloud } from "./support/cloud.ts";
import { organizationState, sessionFor } from "./support/console.ts";
import { compiledBinary, runBinary } from "./support/index.ts";
import { loginWith, machine, syncNow, wire } from "./support/machine.ts";

// Two servers, a cluster and a machine are real processes on a shared machine.
setDefaultTimeout(90_000);

const SECRET = "whsec_dHdvLXNlcnZlcnMtb25lLWNsdXN0ZXI=";

let dir = "";
let first: RunningCloud;
let second: RunningCloud;
let db: Db;
let admin = "";
let adminId = "";
let workspace = "";
const A = machine("guarantees");

/** The cluster's URL, read as a joining server reads it: the socket directory `postmaster.pid` names. */
function runningUrl(): string {
  const lines = readFileSync(join(dir, "postgres", "data", "postmaster.pid"), "utf8").split("\n");
  return clusterUrl(lines[4]?.trim() ?? "");
}

const postmasterUp = () => existsSync(join(dir, "postgres", "data", "postmaster.pid"));

beforeAll(async () => {
  const bin = await compiledBinary();
  dir = mkdtempSync(join(tmpdir(), "memnox-guarantees-"));
  // PostgreSQL runs as its own account when the tests run as root: it must be able to pass through.
  chmodSync(dir, 0o711);
  const env = { MEMNOX_WEBHOOK_SECRET: SECRET };
  first = await startCloud("", { data: dir, env });
  second = await startCloud("", { data: dir, env });
  expect(first.stderr()).toContain("started a private cluster");
  expect(second.stderr()).toContain("joined the cluster already running");
  const init = await runBinary(
    "memnox",
    ["cloud", "init", "--org", "acme", "--admin", "admin@acme.dev", "--data", dir, "--json"],
    {
      env: A.home.env(),
    },
  );
  expect(init.code).toBe(0);
  admin = JSON.parse(init.stdout).token;
  db = await openDb(runningUrl());
  const [m] = await db`SELECT m.id, m.org_id, w.id AS ws FROM members m JOIN workspaces w ON w.org_id = m.org_id`;
  adminId = m.id;
  workspace = m.ws;
  wire(A, bin, ["memnox-shell"]);
}, 120_000);

afterAll(async () => {
  await db?.close().catch(() => {});
  await first?.stop();
  await second?.stop();
  if (postmasterUp()) {
    const asPostgres =
      process.getuid?.() === 0 ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups"] : [];
    Bun.spawnSync([
      ...asPostgres,
      join(postgresBin(process.env), "pg_ctl"),
      "-D",
      join(dir, "postgres", "data"),
      "-m",
      "immediate",
      "stop",
    ]);
  }
  rmSync(dir, { recursive: true, force: true });
  A[Symbol.dispose]();
});

describe("a person's act, on either server", () => {
  test("the admin's token, an operator's, and a puppet added as admin approve nothing; a rule set stays unpublished", async () => {
    const proposed = await api(first.url, "POST", "/v1/policies/proposals", {
      token: admin,
      raw: 'version = 1\n[[policies]]\nname = "no-force"\nmatch = { actions = ["git.push-force"] }\ndecision = { effect = "deny" }\n',
    });
    expect(proposed.status).toBe(201);
    const before = await organizationState(db);
    const byToken = await api(second.url, "POST", `/v1/policies/proposals/${proposed.body.id}/approve`, {
      token: admin,
    });
    expect(byToken.body.error.code).toBe("sign_in_required");
    const minted = await api(second.url, "POST", "/v1/members", {
      token: admin,
      body: { email: "puppet@acme.dev", role: "admin", token: true },
    });
    expect(minted.status).toBe(403);
    expect(await organizationState(db)).toBe(before);
    // Signed in on the first server, the admin adds the puppet; on the second, the puppet approves nothing.
    const signed = await sessionFor(db, first.url, adminId);
    expect((await signed.post("/people", { _action: "add", email: "puppet@acme.dev", role: "admin" })).status).toBe(
      303,
    );
    const [puppet] = await db`SELECT id, role FROM members WHERE email = 'puppet@acme.dev'`;
    expect(puppet.role).toBe("viewer");
    const asPuppet = await sessionFor(db, second.url, puppet.id);
    expect((await asPuppet.post("/waiting", { _action: "approve-proposal", id: proposed.body.id })).status).toBe(403);
    const bundle = (await api(first.url, "GET", "/v1/bundle", { token: admin })).body;
    expect(bundle.published).toBeNull();
  });
});

describe("a byte that once blinded a machine", () => {
  test("a real machine's file name with a control character arrives, escaped; the machine is heard in full", async () => {
    await loginWith(A, first.url, admin);
    A.id = JSON.parse(readFileSync(join(A.home.memnoxHome, "account.json"), "utf8")).machineId;
    for (const line of ["echo x > $'odd\\x01name.txt'", "echo y > plain.txt"]) {
      const ran = await runBinary("memnox-shell", ["-c", line], { env: A.env(), cwd: A.repo.path });
      expect(ran.code).toBe(0);
    }
    const sent = await syncNow(A);
    expect(sent.sent.refused).toBe(0);
    const { events } = (await api(second.url, "GET", `/v1/events?machine=${A.id}&limit=1000`, { token: admin })).body;
    const refs = events.map((e: { resourceRef: string | null }) => e.resourceRef ?? "");
    expect(refs.some((r: string) => r.includes("odd\\u0001name.txt"))).toBe(true);
    expect(refs.some((r: string) => r.endsWith("plain.txt"))).toBe(true);
    // A forged batch with the raw byte: that row refused, the rest stored, and the machine's page says so.
    const keys = newKeyPair();
    const asked = await api(second.url, "POST", "/v1/devices", {
      body: { publicKey: keys.publicKey, hostname: "forged" },
    });
    await api(first.url, "POST", `/v1/devices/${asked.body.user_code}/approve`, { token: admin });
    const got = await api(second.url, "POST", "/v1/devices/token", { body: { device_code: asked.body.device_code } });
    const row = (i: number, resourceRef: string) => ({
      dedupKey: `evt_forged_${i}`,
      subjectId: `evt_forged_${i}`,
      occurredAt: new Date().toISOString(),
      surface: "shell",
      operation: "filesystem.write",
      effect: "deny",
      resourceRef,
    });
    const raw = JSON.stringify({
      machineId: got.body.machine_id,
      sentAt: new Date().toISOString(),
      events: [row(1, "/a"), row(2, "/b\u0000c"), row(3, "/d")],
    });
    const r = await api(first.url, "POST", "/v1/events", {
      token: got.body.access_token,
      raw,
      headers: { [SIGNATURE_HEADER]: signWith(keys.secret, new TextEncoder().encode(raw)) },
    });
    expect(r.body).toMatchObject({ accepted: 2, refused: [{ index: 1, field: "resourceRef" }] });
    const status = (await api(second.url, "GET", `/v1/machines/${got.body.machine_id}`, { token: admin })).body;
    expect(status.refused.count).toBe(1);
  });
});

describe("a delivery replayed", () => {
  test("accepted once on its route; refused on the other server for another workspace; a resend there is a duplicate", async () => {
    const other = await runBinary(
      "memnox",
      ["cloud", "init", "--org", "globex", "--admin", "a@globex.dev", "--data", dir, "--json"],
      {
        env: A.home.env(),
      },
    );
    const globex = JSON.parse(other.stdout);
    for (const token of [admin, globex.token])
      await api(first.url, "PUT", "/v1/sources/slack", {
        token,
        body: { baseUrl: "https://x.slack.com", streams: ["C1"] },
      });
    const body = JSON.stringify({
      type: "event_callback",
      event: { type: "message", text: "we freeze on Fridays", user: "U1", ts: "1690203600.000300", channel: "C1" },
    });
    const ts = Math.floor(Date.now() / 1000);
    const headers = {
      "webhook-id": "msg_e2e_replay",
      "webhook-timestamp": String(ts),
      "webhook-signature": signDelivery(routeSecret(SECRET, workspace, "slack"), "msg_e2e_replay", ts, body),
    };
    expect((await api(first.url, "POST", `/v1/inbound/${workspace}/slack`, { raw: body, headers })).status).toBe(201);
    const replay = await api(second.url, "POST", `/v1/inbound/${globex.workspace.id}/slack`, { raw: body, headers });
    expect(replay.status).toBe(401);
    const [{ n }] = await db`SELECT count(*)::int AS n FROM source_events WHERE workspace_id = ${globex.workspace.id}`;
    expect(n).toBe(0);
    expect(
      (await api(second.url, "POST", `/v1/inbound/${workspace}/slack`, { raw: body, headers })).body.duplicate,
    ).toBe(true);
  });
});

describe("a credential a forged machine sends", () => {
  test("is masked before it is stored", async () => {
    const key = ["wJalrXUtnFEMI/K7MDENG/", "e2eCanaryKEY9"].join("");
    const keys = newKeyPair();
    const asked = await api(first.url, "POST", "/v1/devices", {
      body: { publicKey: keys.publicKey, hostname: "leaky" },
    });
    expect(asked.status).toBe(200);
    await api(second.url, "POST", `/v1/devices/${asked.body.user_code}/approve`, { token: admin });
    const got = await api(first.url, "POST", "/v1/devices/token", { body: { device_code: asked.body.device_code } });
    const raw = JSON.stringify({
      machineId: got.body.machine_id,
      sentAt: new Date().toISOString(),
      events: [
        {
          dedupKey: "evt_leak_1",
          subjectId: "evt_leak_1",
          occurredAt: new Date().toISOString(),
          surface: "shell",
          operation: "filesystem.write",
          reason: `appended aws_secret_access_key = ${key}`,
          resourceRef: "/home/dev/.aws/credentials",
        },
      ],
    });
    const r = await api(second.url, "POST", "/v1/events", {
      token: got.body.access_token,
      raw,
      headers: { [SIGNATURE_HEADER]: signWith(keys.secret, new TextEncoder().encode(raw)) },
    });
    expect(r.body.accepted).toBe(1);
    const [row] = await db`SELECT reason FROM events WHERE dedup_key = 'evt_leak_1'`;
    expect(row.reason).toBe("appended aws_secret_access_key = ***");
    const [{ t }] = await db`SELECT string_agg(e::text, ' ') AS t FROM events e`;
    expect(t).not.toContain(key);
  });
});

describe("a flood across both servers", () => {
  test("enrolment requests from one address store at most what the database lets one requester hold", async () => {
    const [{ n: before }] = await db`SELECT count(*)::int AS n FROM device_codes WHERE status = 'pending'`;
    const replies = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        api(i % 2 ? first.url : second.url, "POST", "/v1/devices", {
          body: { publicKey: newKeyPair().publicKey, hostname: "flood" },
        }),
      ),
    );
    const ok = replies.filter((r) => r.status === 200).length;
    expect(ok).toBeLessThanOrEqual(20);
    expect(replies.filter((r) => r.status === 429).length).toBe(300 - ok);
    const [{ n: after }] = await db`SELECT count(*)::int AS n FROM device_codes WHERE status = 'pending'`;
    expect(after - before).toBe(ok);
    // The servers are free again the moment the flood stops: a health check answers at once on both.
    for (const s of [first, second]) expect((await api(s.url, "GET", "/v1/health")).status).toBe(200);
  });
});

describe("the private cluster and the truth about it", () => {
  test("it outlives the server that started it while the other uses it; with it gone, health says so", async () => {
    expect(await first.stop()).toBe(0);
    expect(first.stderr()).toContain("left running");
    expect(postmasterUp()).toBe(true);
    // The second server still reads and writes.
    const h = await api(second.url, "GET", "/v1/health");
    expect(h.body).toMatchObject({ ok: true, database: "up" });
    expect(
      (await api(second.url, "POST", "/v1/state", { token: admin, body: { subject: "after", for: "1h" } })).status,
    ).toBe(201);
    // The database stopped under it (not by memnox): health says it cannot serve.
    await db.close();
    const data = join(dir, "postgres", "data");
    const asPostgres =
      process.getuid?.() === 0 ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups"] : [];
    Bun.spawnSync([...asPostgres, join(postgresBin(process.env), "pg_ctl"), "-D", data, "-m", "fast", "-w", "stop"]);
    const down = await api(second.url, "GET", "/v1/health");
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ ok: false, database: "unreachable" });
    expect(await second.stop()).toBe(0);
    expect(postmasterUp()).toBe(false);
  });
});

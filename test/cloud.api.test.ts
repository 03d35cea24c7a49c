// The control plane's API against a real PostgreSQL: roles checked for every route, the device-code flow, bundles
// validated by the engine's loader and pulled with ETags, signed batches deduplicated, fleet state, held calls, modes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Route } from "../src/cloud/http.ts";
import { SENT_FIELDS, type SentEvent, SIGNATURE_HEADER } from "../src/cloud/protocol/sync.ts";
import { ACCEPTED_FIELDS } from "../src/cloud/routes/events.ts";
import { ROUTES } from "../src/cloud/routes/index.ts";
import { type RunningServer, startServer } from "../src/cloud/server.ts";
import { type Db, openDb } from "../src/cloud/store/db.ts";
import { migrate, SCHEMA_VERSION } from "../src/cloud/store/migrate.ts";
import { createOrg, type NewOrg } from "../src/cloud/store/people.ts";
import { newKeyPair, signWith } from "../src/ledger/sign.ts";
import { api, memberWithToken, operatorToken, publish } from "./support/cloud.ts";
import { sessionFor } from "./support/console.ts";
import { startPostgres, type TestPostgres } from "./support/postgres.ts";

let pg: TestPostgres;
let db: Db;
let db2: Db;
let server: RunningServer;
let second: RunningServer;
let org: NewOrg;
let url: string;

const config = { deviceIntervalS: 1, deviceTtlS: 60, version: "test" };

beforeAll(async () => {
  pg = await startPostgres();
  db = await openDb(pg.url);
  db2 = await openDb(pg.url);
  // Two processes starting together: the advisory lock lets each migration run once.
  const [a, b] = await Promise.all([migrate(db), migrate(db2)]);
  expect([...a.applied, ...b.applied]).toEqual([
    "1_init",
    "2_console",
    "3_decisions",
    "4_guarantees",
    "5_quickstart",
    "6_operate",
    "7_teams",
  ]);
  org = await createOrg(db, "acme", "admin@acme.dev", "test");
  // The fleet these tests enrol comes from one address: the limits have a suite of their own.
  const base = { config, hostname: "127.0.0.1", port: 0, now: Date.now, log: () => {}, rateScale: 20 };
  server = startServer({ ...base, db });
  second = startServer({ ...base, db: db2 });
  url = server.url;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await second?.stop();
  await db?.close();
  await db2?.close();
  await pg?.stop();
});

async function memberFor(role: "viewer" | "reviewer" | "admin") {
  return memberWithToken(db, org.org.id, `${role}-${crypto.randomUUID().slice(0, 6)}@acme.dev`, role);
}

async function tokenFor(role: "viewer" | "reviewer" | "admin"): Promise<string> {
  return (await memberFor(role)).token;
}

interface Enrolled {
  readonly machineId: string;
  readonly token: string;
  readonly secret: Uint8Array;
  readonly userCode: string;
}

async function enrol(approver = org.token, hostname = "laptop-of-alice"): Promise<Enrolled> {
  const keys = newKeyPair();
  const asked = await api(url, "POST", "/v1/devices", {
    body: { publicKey: keys.publicKey, hostname, version: "1.0.0", platform: "linux-x64", mode: "observe" },
  });
  expect(asked.status).toBe(200);
  const approved = await api(url, "POST", `/v1/devices/${asked.body.user_code}/approve`, { token: approver });
  expect(approved.status).toBe(200);
  const got = await api(url, "POST", "/v1/devices/token", { body: { device_code: asked.body.device_code } });
  expect(got.status).toBe(200);
  return {
    machineId: got.body.machine_id,
    token: got.body.access_token,
    secret: keys.secret,
    userCode: asked.body.user_code,
  };
}

function event(i: number, extra: Partial<SentEvent> = {}): SentEvent {
  return {
    dedupKey: `evt_api${String(i).padStart(6, "0")}`,
    subjectId: `evt_api${String(i).padStart(6, "0")}`,
    occurredAt: new Date(Date.UTC(2026, 10, 30, 12, 0, i % 60)).toISOString(),
    surface: "shell",
    operation: "git.push-force",
    classes: ["destructive"],
    effect: "deny",
    ...extra,
  };
}

async function sendBatch(m: Enrolled, events: readonly unknown[], opts: { at?: string; key?: Uint8Array } = {}) {
  const raw = JSON.stringify({ machineId: m.machineId, sentAt: new Date().toISOString(), events });
  const sig = signWith(opts.key ?? m.secret, new TextEncoder().encode(raw));
  return api(opts.at ?? url, "POST", "/v1/events", { token: m.token, raw, headers: { [SIGNATURE_HEADER]: sig } });
}

function sampleParams(path: string): string {
  return path.replace(/:[a-z]+/g, "x");
}

describe("roles are checked in one place, before any handler", () => {
  test("every route refuses a caller below its requirement, and a machine is never a person", async () => {
    const viewer = await tokenFor("viewer");
    const reviewer = await tokenFor("reviewer");
    const machine = await enrol();
    const below: Record<string, readonly string[]> = {
      viewer: [machine.token, ""],
      reviewer: [viewer, machine.token, ""],
      admin: [viewer, reviewer, machine.token, ""],
      machine: [viewer, reviewer, org.token, ""],
    };
    const checked: string[] = [];
    for (const r of ROUTES as readonly Route[]) {
      if (r.needs.includes("public")) continue;
      // The weakest requirement the route accepts is what a caller must at least meet.
      const weakest = ["viewer", "reviewer", "admin", "machine"].find((n) => r.needs.includes(n as never)) ?? "admin";
      const refused = r.needs.includes("machine") && r.needs.includes("viewer") ? [""] : (below[weakest] ?? []);
      for (const token of refused) {
        const res = await api(url, r.method, sampleParams(r.path), { ...(token ? { token } : {}), body: {} });
        expect([401, 403], `${r.method} ${r.path} with ${token ? token.slice(0, 6) : "no token"}`).toContain(
          res.status,
        );
        expect(res.body.error.code).toMatch(/^(unauthenticated|forbidden|rate_limited)$/);
      }
      checked.push(`${r.method} ${r.path}`);
    }
    expect(checked.length).toBeGreaterThan(20);
  });

  test("a reviewer answers held calls but configures nothing; an admin's publish needs the admin role", async () => {
    const reviewer = await tokenFor("reviewer");
    const put = await api(url, "POST", "/v1/policies/proposals", { token: reviewer, raw: "version = 1\n" });
    expect(put.status).toBe(403);
    expect(put.body.error.message).toContain("admin");
  });
});

describe("enrolment by device code", () => {
  test("pending, approved once by an admin, claimed once; the hostname is shown until decided and never kept", async () => {
    const keys = newKeyPair();
    const asked = await api(url, "POST", "/v1/devices", {
      body: { publicKey: keys.publicKey, hostname: "bobs-macbook.corp.example", version: "1.2.3", mode: "enforce" },
    });
    expect(Object.keys(asked.body).sort()).toEqual(
      ["device_code", "expires_in", "interval", "user_code", "verification_uri", "verification_uri_complete"].sort(),
    );
    expect(asked.body.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    const poll = () => api(url, "POST", "/v1/devices/token", { body: { device_code: asked.body.device_code } });
    expect((await poll()).body.error).toBe("authorization_pending");
    // Polling again before the interval is told to slow down, with the longer interval to keep from then on.
    const hasty = await api(url, "POST", "/v1/devices", { body: { publicKey: keys.publicKey, hostname: "h" } });
    const tooSoon = () => api(url, "POST", "/v1/devices/token", { body: { device_code: hasty.body.device_code } });
    expect((await tooSoon()).body.error).toBe("authorization_pending");
    expect((await tooSoon()).body).toMatchObject({ error: "slow_down", interval: 6 });
    const seen = await api(url, "GET", `/v1/devices/${asked.body.user_code.toLowerCase()}`, { token: org.token });
    expect(seen.body).toMatchObject({
      status: "pending",
      hostname: "bobs-macbook.corp.example",
      requestedMode: "enforce",
    });
    expect(seen.body.expiresIn).toBeGreaterThan(30);
    const viewer = await tokenFor("viewer");
    expect((await api(url, "POST", `/v1/devices/${asked.body.user_code}/approve`, { token: viewer })).status).toBe(403);
    const ok = await api(url, "POST", `/v1/devices/${asked.body.user_code}/approve`, { token: org.token });
    expect(ok.body).toMatchObject({ status: "approved", owner: "admin@acme.dev" });
    const again = await api(url, "POST", `/v1/devices/${asked.body.user_code}/approve`, { token: org.token });
    expect(again.status).toBe(409);
    await Bun.sleep(1100);
    // The poll lands on the other server process: every request is stateless.
    const got = await api(second.url, "POST", "/v1/devices/token", {
      raw: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        device_code: asked.body.device_code,
      }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(got.body).toMatchObject({
      token_type: "Bearer",
      machine_id: ok.body.machineId,
      owner: "admin@acme.dev",
      mode: "enforce",
    });
    await Bun.sleep(1000);
    expect((await poll()).body.error).toBe("invalid_grant");
    const dump = await pg.dump();
    expect(dump).not.toContain("bobs-macbook");
    expect(dump).not.toContain(got.body.access_token);
    expect(dump).not.toContain(asked.body.device_code);
    const listed = await api(url, "GET", "/v1/machines", { token: org.token });
    const row = listed.body.machines.find((m: { id: string }) => m.id === ok.body.machineId);
    expect(row).toMatchObject({
      owner: "admin@acme.dev",
      hostnameHash: ok.body.hostnameHash,
      mode: { set: "enforce" },
    });
    expect(JSON.stringify(listed.body)).not.toContain("bobs-macbook");
  });

  test("a refusal is access_denied; an operator token approves a machine as unowned", async () => {
    const keys = newKeyPair();
    const asked = await api(url, "POST", "/v1/devices", { body: { publicKey: keys.publicKey, hostname: "ci-7" } });
    expect((await api(url, "POST", `/v1/devices/${asked.body.user_code}/deny`, { token: org.token })).status).toBe(200);
    const refused = await api(url, "POST", "/v1/devices/token", { body: { device_code: asked.body.device_code } });
    expect(refused.body.error).toBe("access_denied");
    const op = await operatorToken(db, org.org.id, "ci", "admin");
    const m = await enrol(op, "ci-runner-3");
    const shown = await api(url, "GET", `/v1/machines/${m.machineId}`, { token: org.token });
    expect(shown.body.owner).toBeNull();
    expect(shown.body.approvedBy).toBe("operator:ci");
  });

  test("a key that is not an Ed25519 public key, or a missing hostname, is refused", async () => {
    expect((await api(url, "POST", "/v1/devices", { body: { publicKey: "abc", hostname: "h" } })).status).toBe(400);
    const keys = newKeyPair();
    expect((await api(url, "POST", "/v1/devices", { body: { publicKey: keys.publicKey } })).status).toBe(400);
  });
});

describe("the bundle", () => {
  test("validated with the engine's loader: a bad rule is refused with its line, nothing is published", async () => {
    const before = await api(url, "GET", "/v1/bundle", { token: org.token });
    const bad = await api(url, "POST", "/v1/policies/proposals", {
      token: org.token,
      raw: 'version = 1\n\n[[policies]]\nname = "x"\ndecision = { effect = "block-ish" }\n',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.problems[0]).toMatchObject({ line: 5 });
    const unknown = await api(url, "POST", "/v1/policies/proposals", {
      token: org.token,
      raw: 'version = 1\n[[policies]]\nname = "x"\nsurprise = 1\ndecision = { effect = "deny" }\n',
    });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body)).toContain("unknown field `surprise`");
    expect((await api(url, "GET", "/v1/bundle", { token: org.token })).body.hash).toBe(before.body.hash);
  });

  test("TOML or YAML in, the same document as JSON out; an unchanged pull is one 304", async () => {
    const m = await enrol();
    const yaml =
      "version: 1\npolicies:\n  - name: no-force\n    match: { actions: [git.push-force] }\n    decision: { effect: deny, reason: no force pushes }\n";
    const put = await publish(url, org.token, yaml, {
      headers: { "content-type": "application/yaml" },
      approver: await sessionFor(db, url, org.admin.id),
    });
    expect(put.proposal).toMatchObject({
      status: "published",
      changes: { added: ["no-force"], removed: [], modified: [] },
    });
    const first = await api(url, "GET", "/v1/bundle", { token: m.token });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body.rules).policies[0].name).toBe("no-force");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toBe(`"${first.body.hash}"`);
    const again = await api(second.url, "GET", "/v1/bundle", { token: m.token, headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    // A freeze changes the bundle, so the next pull is a 200 again.
    const frozen = await api(url, "POST", "/v1/state", {
      token: org.token,
      body: { subject: "release", for: "2h", reason: "cut" },
    });
    expect(frozen.status).toBe(201);
    const after = await api(url, "GET", "/v1/bundle", { token: m.token, headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body.conditions).facts[0]).toMatchObject({
      kind: "freeze",
      subject: "release",
      reason: "cut",
    });
    expect((await api(url, "POST", `/v1/state/${frozen.body.id}/lift`, { token: org.token })).status).toBe(200);
    const lifted = await api(url, "GET", "/v1/bundle", { token: m.token });
    expect(JSON.parse(lifted.body.conditions).facts).toEqual([]);
    expect((await api(url, "POST", "/v1/state", { token: org.token, body: { subject: "release" } })).status).toBe(400);
  });
});

describe("events", () => {
  test("the server's schema is the allow-list, field for field", () => {
    expect([...ACCEPTED_FIELDS].sort()).toEqual([...SENT_FIELDS].sort());
  });

  test("signed by the machine's own key or refused; a field off the allow-list is refused", async () => {
    const m = await enrol();
    const other = newKeyPair();
    expect((await sendBatch(m, [event(1)], { key: other.secret })).status).toBe(401);
    const unsigned = await api(url, "POST", "/v1/events", {
      token: m.token,
      raw: JSON.stringify({ machineId: m.machineId, sentAt: new Date().toISOString(), events: [event(1)] }),
    });
    expect(unsigned.status).toBe(401);
    // A row carrying a field off the allow-list is refused on its own, named; nothing of it is kept.
    const extra = await sendBatch(m, [{ ...event(1), cwd: "/home/alice/secret-project" }]);
    expect(extra.status).toBe(200);
    expect(extra.body).toMatchObject({ accepted: 0, refused: [{ index: 0, field: "cwd" }] });
    const tooMany = await sendBatch(
      m,
      Array.from({ length: 501 }, (_, i) => event(i)),
    );
    expect(tooMany.status).toBe(400);
    expect(await pg.dump()).not.toContain("secret-project");
  });

  test("a resend is never doubled, even when both server processes take the same batch at once", async () => {
    const m = await enrol();
    const batch = Array.from({ length: 500 }, (_, i) => event(i));
    const [a, b] = await Promise.all([sendBatch(m, batch), sendBatch(m, batch, { at: second.url })]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.accepted + b.body.accepted).toBe(500);
    expect(a.body.duplicates + b.body.duplicates).toBe(500);
    const again = await sendBatch(m, batch.slice(0, 10));
    expect(again.body).toEqual({ accepted: 0, duplicates: 10, refused: [] });
    const [n] = await db`SELECT count(*)::int AS n FROM events WHERE machine_id = ${m.machineId}`;
    expect(n.n).toBe(500);
    const page = await api(url, "GET", `/v1/events?machine=${m.machineId}&limit=200`, { token: org.token });
    expect(page.body.events).toHaveLength(200);
    expect(page.body.next).toBeNumber();
  });
});

describe("held calls and modes travel on the heartbeat", () => {
  const beat = (m: Enrolled, extra: Record<string, unknown> = {}) =>
    api(url, "POST", "/v1/heartbeat", {
      token: m.token,
      body: { bundleHash: null, modeRunning: "observe", holds: [], answersApplied: [], version: "1.0.0", ...extra },
    });
  const hold = {
    id: "a_0123456789ab",
    surface: "shell",
    action: "git.push-force",
    target: "origin main",
    reason: "force pushes are asked about",
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
  };

  test("a hold goes up, a reviewer answers it once, the answer comes down until the machine applied it", async () => {
    const m = await enrol();
    expect((await beat(m, { holds: [hold] })).status).toBe(200);
    const listed = await api(url, "GET", "/v1/holds", { token: org.token });
    const h = listed.body.holds.find((x: { machineId: string }) => x.machineId === m.machineId);
    expect(h).toMatchObject({ localId: hold.id, status: "waiting", action: "git.push-force" });
    const viewer = await tokenFor("viewer");
    expect((await api(url, "POST", `/v1/holds/${h.id}/answer`, { token: viewer, body: { grant: true } })).status).toBe(
      403,
    );
    const reviewer = await memberFor("reviewer");
    // A token of the reviewer's own answers nothing: answering is done signed in.
    const byToken = await api(url, "POST", `/v1/holds/${h.id}/answer`, {
      token: reviewer.token,
      body: { grant: true },
    });
    expect(byToken.body.error.code).toBe("sign_in_required");
    const yes = await (await sessionFor(db, url, reviewer.id)).post("/waiting", {
      _action: "answer",
      id: h.id,
      answer: "once",
    });
    expect(yes.status).toBe(303);
    const late = await (await sessionFor(db, second.url, org.admin.id)).post("/waiting", {
      _action: "answer",
      id: h.id,
      answer: "deny",
    });
    expect(late.status).toBe(303);
    const after = await api(url, "GET", "/v1/holds?all=1", { token: org.token });
    expect(after.body.holds.find((x: { id: string }) => x.id === h.id).answer).toMatchObject({
      grant: true,
      by: expect.stringContaining("reviewer-"),
    });
    const down = await beat(m, { holds: [hold] });
    expect(down.body.answers).toEqual([
      expect.objectContaining({ id: h.id, localId: hold.id, grant: true, scope: "once" }),
    ]);
    expect((await beat(m, { holds: [hold] })).body.answers).toHaveLength(1);
    expect((await beat(m, { answersApplied: [h.id] })).body.answers).toEqual([]);
  });

  test("a mode change is carried until acknowledged; a hand edit after that shows as drift", async () => {
    const m = await enrol();
    const set = await api(url, "POST", `/v1/machines/${m.machineId}/mode`, {
      token: org.token,
      body: { mode: "enforce" },
    });
    expect(set.body).toMatchObject({ from: "observe", to: "enforce", by: "admin@acme.dev" });
    const carried = await beat(m);
    expect(carried.body.modeChange).toMatchObject({ id: set.body.changeId, to: "enforce", by: "admin@acme.dev" });
    let shown = await api(url, "GET", `/v1/machines/${m.machineId}`, { token: org.token });
    expect(shown.body.mode).toMatchObject({ set: "enforce", running: "observe", drift: false });
    expect(shown.body.mode.pendingChange.to).toBe("enforce");
    expect(
      (await beat(m, { modeRunning: "enforce", modeChangeApplied: set.body.changeId })).body.modeChange,
    ).toBeNull();
    await beat(m, { modeRunning: "observe" });
    shown = await api(url, "GET", `/v1/machines/${m.machineId}`, { token: org.token });
    expect(shown.body.mode).toMatchObject({ set: "enforce", running: "observe", drift: true, pendingChange: null });
    expect(shown.body.modeHistory).toEqual([
      expect.objectContaining({ from: "observe", to: "enforce", by: "admin@acme.dev" }),
    ]);
  });

  test("a revoked machine is told so on every call", async () => {
    const m = await enrol();
    expect((await api(url, "POST", `/v1/machines/${m.machineId}/revoke`, { token: org.token })).status).toBe(200);
    const r = await beat(m);
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ code: "revoked", revokedBy: "admin@acme.dev" });
    expect((await api(url, "GET", "/v1/bundle", { token: m.token })).body.error.code).toBe("revoked");
  });
});

test("the health route names the schema version; the console answers in one strict policy", async () => {
  const h = await api(url, "GET", "/v1/health");
  expect(h.body).toMatchObject({ ok: true, schemaVersion: SCHEMA_VERSION, database: "up" });
  const page = await fetch(`${url}/device?code=<script>`);
  expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(await page.text()).not.toContain("<script>alert");
  const [v] = await db`SELECT max(version)::int AS v FROM schema_migrations`;
  expect(v.v).toBe(SCHEMA_VERSION);
});

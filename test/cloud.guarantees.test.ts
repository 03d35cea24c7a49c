// The control plane's guarantees, tried the way they were broken, against a real PostgreSQL and the real HTTP face (two
// servers on one database, a clock passed in): identity minted to satisfy a rule about people, one byte blinding a
// machine, a signature replayed on another route, floods, secrets stored, health and audit saying less than the
// truth, and decisions reaching further than their reviewer read. Each test proves the effect (what is stored, what
// is in force), not only the status code. The compiled two-process runs are cloud.guarantees.e2e.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Route } from "../src/cloud/http.ts";
import { routeSecret, signDelivery } from "../src/cloud/intent/webhook.ts";
import { FairGate } from "../src/cloud/limits.ts";
import { type SentEvent, SIGNATURE_HEADER } from "../src/cloud/protocol/sync.ts";
import { ROUTES } from "../src/cloud/routes/index.ts";
import { type RunningServer, startServer } from "../src/cloud/server.ts";
import { type Db, openDb } from "../src/cloud/store/db.ts";
import { migrate } from "../src/cloud/store/migrate.ts";
import { createOrg, type NewOrg } from "../src/cloud/store/people.ts";
import { newKeyPair, signWith } from "../src/ledger/sign.ts";
import { api, memberWithToken, operatorToken } from "./support/cloud.ts";
import { type Browser, organizationState, sessionFor } from "./support/console.ts";
import { startPostgres, type TestPostgres } from "./support/postgres.ts";

const SECRET = "whsec_R3VhcmFudGVlcy1hcmUtbm90LWZvcmdlZA==";
const DAY = 86_400_000;

let pg: TestPostgres;
let db: Db;
let server: RunningServer;
/** The same code with every limit at its default: where floods are tried. */
let strict: RunningServer;
let url = "";
let clock = Date.now();
const modelRequests: string[] = [];
let model: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  pg = await startPostgres();
  db = await openDb(pg.url);
  await migrate(db);
  model = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      modelRequests.push(await req.text());
      return Response.json({
        content: [{ type: "text", text: '{"candidates": []}' }],
        model: "claude-sonnet-4-5",
        usage: { input_tokens: 1, output_tokens: 1 },
      });
    },
  });
  const config = {
    deviceIntervalS: 1,
    deviceTtlS: 600,
    version: "test",
    webhookSecret: SECRET,
    model: { apiKey: "not-a-key", baseUrl: `http://127.0.0.1:${model.port}`, model: "claude-sonnet-4-5" },
  };
  const base = { db, config, hostname: "127.0.0.1", port: 0, now: () => clock, log: () => {} };
  // The fleets these tests enrol come from one address; the flood tests use `strict`, at the defaults.
  server = startServer({ ...base, rateScale: 100 });
  strict = startServer(base);
  url = server.url;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await strict?.stop();
  model?.stop(true);
  await db?.close();
  await pg?.stop();
});

let orgs = 0;

interface Org extends NewOrg {
  readonly admin: NewOrg["admin"] & { readonly browser: Browser };
}

/** A fresh organization per test, its founding admin signed in: nothing one test does leaks into another's. */
async function newOrg(): Promise<Org> {
  orgs += 1;
  const o = await createOrg(db, `org${orgs}`, `admin@org${orgs}.dev`, "test");
  return { ...o, admin: { ...o.admin, browser: await sessionFor(db, url, o.admin.id) } };
}

async function person(o: NewOrg, name: string, role: "viewer" | "reviewer" | "admin") {
  const m = await memberWithToken(db, o.org.id, `${name}@${o.org.name}.dev`, role);
  return { ...m, browser: await sessionFor(db, url, m.id) };
}

interface Enrolled {
  readonly id: string;
  readonly token: string;
  readonly secret: Uint8Array;
}

async function enrol(o: NewOrg): Promise<Enrolled> {
  const keys = newKeyPair();
  const asked = await api(url, "POST", "/v1/devices", { body: { publicKey: keys.publicKey, hostname: "box" } });
  await api(url, "POST", `/v1/devices/${asked.body.user_code}/approve`, { token: o.token });
  const got = await api(url, "POST", "/v1/devices/token", { body: { device_code: asked.body.device_code } });
  return { id: got.body.machine_id, token: got.body.access_token, secret: keys.secret };
}

let seq = 0;
function action(extra: Partial<SentEvent> = {}): SentEvent {
  seq += 1;
  const key = `evt_g${String(seq).padStart(7, "0")}`;
  return {
    dedupKey: key,
    subjectId: key,
    occurredAt: new Date(clock).toISOString(),
    surface: "shell",
    operation: "filesystem.write",
    classes: ["write"],
    effect: "allow",
    ...extra,
  };
}

function sendBatch(m: Enrolled, events: readonly unknown[], at = url) {
  const raw = JSON.stringify({ machineId: m.id, sentAt: new Date(clock).toISOString(), events });
  const sig = signWith(m.secret, new TextEncoder().encode(raw));
  return api(at, "POST", "/v1/events", { token: m.token, raw, headers: { [SIGNATURE_HEADER]: sig } });
}

const beat = (m: Enrolled, extra: Record<string, unknown> = {}, at = url) =>
  api(at, "POST", "/v1/heartbeat", {
    token: m.token,
    body: { bundleHash: null, modeRunning: "observe", holds: [], answersApplied: [], version: "1", ...extra },
  });

const hold = (extra: Record<string, unknown> = {}) => ({
  id: `a_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`,
  surface: "interceptor",
  action: "git.push",
  target: "origin release/1",
  repository: "/home/dev/checkout",
  reason: "a person looks at release pushes",
  createdAt: new Date(clock).toISOString(),
  expiresAt: new Date(clock + 3_600_000).toISOString(),
  ...extra,
});

const RULES =
  'version = 1\n[[policies]]\nname = "no-force-push"\nmatch = { actions = ["git.push-force"] }\ndecision = { effect = "deny", reason = "no" }\n';

async function propose(token: string, source = RULES): Promise<string> {
  const r = await api(url, "POST", "/v1/policies/proposals", { token, raw: source });
  expect(r.status).toBe(201);
  return r.body.id;
}

const bundleOf = async (token: string) => (await api(url, "GET", "/v1/bundle", { token })).body;

async function auditOf(o: NewOrg, action: string) {
  const rows: { actor: string; detail: Record<string, unknown>; severity: string }[] = await db`
    SELECT actor, detail, severity FROM audit WHERE org_id = ${o.org.id} AND action = ${action} ORDER BY id`;
  return rows;
}

describe("a person's act is a signed-in person's, never a token's", () => {
  test("nobody mints a token for somebody else; a member added as admin is a viewer until confirmed", async () => {
    const o = await newOrg();
    const before = await bundleOf(o.token);
    // The forge: add a member with a token, approve the rule set as that "second admin".
    const minted = await api(url, "POST", "/v1/members", {
      token: o.token,
      body: { email: "puppet@org.dev", role: "admin", token: true },
    });
    expect(minted.status).toBe(403);
    expect(minted.body.error.code).toBe("sign_in_required");
    // Signed in, the admin adds them; the field `token` is not one the body takes at all.
    const withToken = await o.admin.browser.post("/people", { _action: "add", email: "x@org.dev", role: "viewer" });
    expect(withToken.status).toBe(303);
    const added = await o.admin.browser.post("/people", { _action: "add", email: "puppet@org.dev", role: "admin" });
    expect(added.status).toBe(303);
    const [puppet] = await db`SELECT id, role FROM members WHERE email = 'puppet@org.dev' AND org_id = ${o.org.id}`;
    expect(puppet.role).toBe("viewer");
    const [{ n }] = await db`SELECT count(*)::int AS n FROM tokens WHERE member_id = ${puppet.id}`;
    expect(n).toBe(0);
    // Even signed in as them, the puppet approves nothing: they hold no role that approves.
    const id = await propose(o.token);
    const puppetSession = await sessionFor(db, url, puppet.id);
    const approve = await puppetSession.post("/waiting", { _action: "approve-proposal", id });
    expect(approve.status).toBe(403);
    expect((await bundleOf(o.token)).hash).toBe(before.hash);
    expect(await auditOf(o, "member.elevate.request")).toEqual([
      expect.objectContaining({
        actor: o.admin.email,
        severity: "warning",
        detail: expect.objectContaining({ role: "admin" }),
      }),
    ]);
  });

  test("an operator token does what automation may, and none of what a person does", async () => {
    const o = await newOrg();
    const op = await operatorToken(db, o.org.id, "ci", "admin", o.admin.email);
    const m = await enrol(o);
    await beat(m, { holds: [hold()] });
    const h = (await api(url, "GET", "/v1/holds", { token: op })).body.holds[0];
    const proposal = await propose(o.token);
    const [member] = await db`SELECT id FROM members WHERE org_id = ${o.org.id}`;
    await db`INSERT INTO candidates (id, workspace_id, origin, statement, evidence, classification, tainted)
             VALUES (${`cand_op_${o.org.id}`}, ${o.workspace.id}, 'pattern', 'We never push on Fridays.', '{}', 'internal', false)`;
    const before = await organizationState(db);
    const acts: [string, string, unknown][] = [
      ["POST", "/v1/tokens", { name: "mine" }],
      ["POST", "/v1/operator-tokens", { name: "another", role: "admin" }],
      ["POST", "/v1/members", { email: "new@org.dev", role: "admin" }],
      ["PATCH", `/v1/members/${member.id}`, { role: "viewer" }],
      ["POST", `/v1/members/${member.id}/confirm`, {}],
      ["POST", `/v1/holds/${h.id}/answer`, { grant: true }],
      ["POST", `/v1/candidates/cand_op_${o.org.id}/approve`, { rules: "0".repeat(32) }],
      ["POST", `/v1/candidates/cand_op_${o.org.id}/reject`, {}],
      ["POST", `/v1/policies/proposals/${proposal}/approve`, {}],
      ["POST", `/v1/policies/proposals/${proposal}/reject`, {}],
      ["POST", "/v1/state/cnd_x/lift", {}],
      ["POST", "/v1/agents/claude-code/lift", {}],
      ["POST", "/v1/mcp-servers/stripe/approve", {}],
      ["POST", `/v1/machines/${m.id}/mode`, { mode: "off" }],
      ["PATCH", "/v1/org", { about: "owned" }],
    ];
    for (const [method, path, body] of acts) {
      const r = await api(url, method, path, { token: op, body });
      expect([r.status, r.body.error?.code], `${method} ${path}`).toEqual([
        403,
        expect.stringMatching(/^(not_automation|sign_in_required)$/),
      ]);
    }
    expect(await organizationState(db)).toBe(before);
    // A relay uploads a document as forwarded; calling it the team's own (untainted) is a person's judgement.
    const own = await api(url, "POST", "/v1/files", {
      token: op,
      body: { name: "d.md", content: "# x\ny", own: true },
    });
    expect(own.status).toBe(403);
    // What the spec gives automation: enrolling a runner unowned, proposing, freezing, halting, relaying documents.
    expect((await api(url, "POST", "/v1/files", { token: op, body: { name: "d.md", content: "# x\ny" } })).status).toBe(
      201,
    );
    expect((await api(url, "POST", "/v1/state", { token: op, body: { subject: "deploys", for: "1h" } })).status).toBe(
      201,
    );
    expect((await api(url, "POST", "/v1/policies/proposals", { token: op, raw: RULES })).status).toBe(201);
  });

  test("a person's own token answers, approves and rejects nothing: those are done signed in", async () => {
    const o = await newOrg();
    const m = await enrol(o);
    await beat(m, { holds: [hold()] });
    const h = (await api(url, "GET", "/v1/holds", { token: o.token })).body.holds[0];
    const proposal = await propose(o.token);
    const before = await organizationState(db);
    for (const [path, body] of [
      [`/v1/holds/${h.id}/answer`, { grant: true }],
      [`/v1/policies/proposals/${proposal}/approve`, {}],
      ["/v1/tokens", { name: "more" }],
      ["/v1/members", { email: "a@b.dev" }],
    ] as const) {
      const r = await api(url, "POST", path, { token: o.token, body });
      expect(r.body.error.code, path).toBe("sign_in_required");
    }
    expect(await organizationState(db)).toBe(before);
    // Signed in, the same person does it; the audit says it was a session.
    expect((await o.admin.browser.post("/waiting", { _action: "answer", id: h.id, answer: "once" })).status).toBe(303);
    const [answered] = await auditOf(o, "hold.grant");
    expect(answered?.detail).toMatchObject({ via: "session", repository: "/home/dev/checkout" });
  });

  test("with another admin, the power to approve waits on that admin, never on whoever asked for it", async () => {
    const o = await newOrg();
    const second = await person(o, "second", "admin");
    const m = await enrol(o);
    await beat(m, { holds: [hold()] });
    const h = (await api(url, "GET", "/v1/holds", { token: o.token })).body.holds[0];
    expect(
      (await o.admin.browser.post("/people", { _action: "add", email: "carol@org.dev", role: "reviewer" })).status,
    ).toBe(303);
    const [carol] = await db`SELECT id FROM members WHERE email = 'carol@org.dev' AND org_id = ${o.org.id}`;
    const pending = (await api(url, "GET", "/v1/members", { token: o.token })).body.members.find(
      (x: { id: string }) => x.id === carol.id,
    );
    expect(pending).toMatchObject({ role: "viewer", pending: { to: "reviewer", coolingOffUntil: null } });
    const carolSession = await sessionFor(db, url, carol.id);
    expect((await carolSession.post("/waiting", { _action: "answer", id: h.id, answer: "once" })).status).toBe(403);
    // The one who asked cannot confirm it, nor can the member; clock moving on changes nothing without a cooling-off.
    expect((await o.admin.browser.post("/waiting", { _action: "confirm-member", id: carol.id })).status).toBe(403);
    clock += 30 * DAY;
    expect(
      (await api(url, "GET", "/v1/members", { token: o.token })).body.members.find(
        (x: { id: string }) => x.id === carol.id,
      ).role,
    ).toBe("viewer");
    expect((await second.browser.post("/waiting", { _action: "confirm-member", id: carol.id })).status).toBe(303);
    expect((await carolSession.post("/waiting", { _action: "answer", id: h.id, answer: "once" })).status).toBe(303);
    expect((await api(url, "GET", "/v1/holds?all=1", { token: o.token })).body.holds[0].answer.by).toBe(
      "carol@org.dev",
    );
    expect(await auditOf(o, "member.elevate.confirm")).toEqual([
      expect.objectContaining({
        detail: expect.objectContaining({ requestedBy: o.admin.email, confirmedBy: `second@${o.org.name}.dev` }),
      }),
    ]);
  });

  test("a sole admin's new admin waits out the cooling-off, and the publish names the chain behind its approver", async () => {
    const o = await newOrg();
    const start = clock;
    expect(
      (await o.admin.browser.post("/people", { _action: "add", email: "bob@org.dev", role: "admin" })).status,
    ).toBe(303);
    const [bob] = await db`SELECT id FROM members WHERE email = 'bob@org.dev' AND org_id = ${o.org.id}`;
    const [e] = await db`SELECT cooling_off_until FROM elevations WHERE member_id = ${bob.id}`;
    expect(e.cooling_off_until.getTime()).toBe(start + DAY);
    const bobSession = await sessionFor(db, url, bob.id);
    const id = await propose(o.token);
    clock += DAY - 60_000;
    expect((await bobSession.post("/waiting", { _action: "approve-proposal", id })).status).toBe(403);
    clock += 120_000;
    expect((await bobSession.post("/waiting", { _action: "approve-proposal", id })).status).toBe(303);
    const [cooled] = await auditOf(o, "member.elevate.cooled");
    expect(cooled).toMatchObject({
      actor: "cooling-off",
      severity: "warning",
      detail: { role: "admin", requestedBy: o.admin.email },
    });
    const [published] = await auditOf(o, "rules.publish");
    expect(published?.detail).toMatchObject({
      proposedBy: o.admin.email,
      approvedBy: "bob@org.dev",
      approval: "second-admin",
      via: "session",
      approverGrant: { via: "cooling-off", requestedBy: o.admin.email, role: "admin" },
    });
  });

  test("suspending the other admin does not make a second approval unnecessary", async () => {
    const o = await newOrg();
    const other = await person(o, "other", "admin");
    const before = await bundleOf(o.token);
    const id = await propose(o.token);
    expect(
      (await api(url, "PATCH", `/v1/members/${other.id}`, { token: o.token, body: { status: "suspended" } })).status,
    ).toBe(200);
    const own = await o.admin.browser.post("/waiting", { _action: "approve-proposal", id });
    expect(own.status).toBe(403);
    expect(own.html).toContain("a second admin approves this");
    expect((await bundleOf(o.token)).hash).toBe(before.hash);
    // Letting them back in is giving power back: asked signed in, and with nobody else to confirm, it cools off.
    const back = await api(url, "PATCH", `/v1/members/${other.id}`, { token: o.token, body: { status: "active" } });
    expect(back.body.error.code).toBe("sign_in_required");
  });
});

describe("one bad row never blinds a machine", () => {
  test("a NUL in one row refuses that row, names it, stores the rest, and the console's machine status says so", async () => {
    const o = await newOrg();
    const m = await enrol(o);
    const good = action({ resourceRef: "/repo/a.txt", effect: "deny", ruleId: "r" });
    const rows = [
      good,
      action({ resourceRef: "/repo/\u0000evil" }),
      action({ classes: ["teleport" as never] }),
      action({ reason: "x".repeat(5000) }),
      action({ effect: "deny", resourceRef: "/repo/b.txt" }),
    ];
    const r = await sendBatch(m, rows);
    expect(r.status).toBe(200);
    expect(r.body.accepted).toBe(2);
    expect(r.body.refused.map((x: { index: number; field: string }) => [x.index, x.field])).toEqual([
      [1, "resourceRef"],
      [2, "classes.0"],
      [3, "reason"],
    ]);
    // The machine's next batch is not blinded by the one before it.
    expect((await sendBatch(m, [action({ effect: "deny" })])).body.accepted).toBe(1);
    const [{ n }] = await db`SELECT count(*)::int AS n FROM events WHERE machine_id = ${m.id}`;
    expect(n).toBe(3);
    const shown = (await api(url, "GET", `/v1/machines/${m.id}`, { token: o.token })).body;
    expect(shown.refused).toMatchObject({ count: 3, last: { field: "reason" } });
    const page = await o.admin.browser.get("/machines");
    expect(page.html).toContain("3 reported action(s) refused");
    // A heartbeat carrying one is refused naming where, and the next clean one is taken.
    const bad = await beat(m, { holds: [hold({ target: "a\u0000b" })] });
    expect([bad.status, bad.body.error.field]).toEqual([400, "holds.0.target"]);
    expect((await beat(m)).status).toBe(200);
  });

  test("a control character or an overlong number anywhere is a 400 naming where, never a 500, on every route", async () => {
    const o = await newOrg();
    const m = await enrol(o);
    const tokenFor = (r: Route) =>
      r.needs.includes("public")
        ? undefined
        : r.needs.includes("machine") && !r.needs.includes("viewer")
          ? m.token
          : o.token;
    let tried = 0;
    for (const r of ROUTES) {
      const at = (p: string, opts: { body?: unknown; raw?: string } = {}) => {
        const token = tokenFor(r);
        return api(url, r.method, p, { ...(token ? { token } : {}), ...opts });
      };
      if (r.path.includes(":")) {
        const path = r.path.replace(/:[a-z]+/g, "a%00b");
        const nul = await at(path);
        expect(nul.status, `${r.method} ${path}`).toBe(400);
        expect(nul.body.error.field).toMatch(/^:/);
      }
      const q = await at(`${r.path.replace(/:[a-z]+/g, "x")}?after=a%00b`);
      expect([q.status, q.body.error?.field], `${r.method} ${r.path}?after=`).toEqual([400, "?after"]);
      for (const raw of r.method === "GET"
        ? []
        : ['{"x": "\\u0000"}', '"\\ud800"', "{", "[]", "null", `{"a":${"[".repeat(5000)}}`]) {
        const res = await at(r.path.replace(/:[a-z]+/g, "x"), { raw });
        expect(res.status, `${r.method} ${r.path} ${raw.slice(0, 20)}`).toBeLessThan(500);
      }
      // Every field of its schema given a NUL: refused at the edge with the field it stopped at, never a 500.
      if (r.body && r.body !== "text" && "entries" in r.body) {
        const entries = (r.body as unknown as { entries: Record<string, unknown> }).entries;
        for (const field of Object.keys(entries)) {
          const res = await at(r.path.replace(/:[a-z]+/g, "x"), { body: { [field]: "a\u0000b" } });
          expect(res.status, `${r.method} ${r.path} ${field}`).toBeLessThan(500);
          if (res.status === 400) expect(Object.keys(entries), `${r.path} ${field}`).toContain(res.body.error.field);
          tried += 1;
        }
      }
      for (const n of ["99999999999999999999", "1e400", "-1", "9223372036854775808"]) {
        const res = await at(`${r.path.replace(/:[a-z]+/g, n)}?after=${n}&before=${n}&limit=${n}`);
        expect(res.status, `${r.method} ${r.path} with ${n}`).toBeLessThan(500);
      }
    }
    expect(tried).toBeGreaterThan(40);
    // With the rest of a body right, the refusal names the very field that holds it.
    const named: [string, string, Record<string, unknown>, string][] = [
      ["POST", "/v1/devices", { publicKey: newKeyPair().publicKey, hostname: "box\u0000" }, "hostname"],
      ["POST", "/v1/state", { subject: "release", for: "1h", reason: "cut\u0007" }, "reason"],
      ["PATCH", "/v1/me", { name: "Ada\u202Eevil" }, "name"],
      ["PATCH", "/v1/org", { about: "we\u0000" }, "about"],
      ["POST", "/v1/agents/x/halt", { reason: "a\nforged log line" }, "reason"],
      ["PUT", "/v1/sources/slack", { streams: ["C1", "C\u00002"] }, "streams.1"],
    ];
    for (const [method, path, body, field] of named) {
      const res = await api(url, method, path, { token: o.token, body });
      expect([res.status, res.body.error.field], `${method} ${path}`).toEqual([400, field]);
      expect(res.body.error.message).toContain("control character");
    }
    // Nothing the fuzzing sent was stored with its NUL, and PostgreSQL refused nothing (no 500 above).
    expect(await pg.dump()).not.toContain("\u0000");
  });
});

describe("an inbound signature holds on its own route only", () => {
  test("a delivery replayed to another workspace, another source or with the deployment's own key is refused", async () => {
    const x = await newOrg();
    const y = await newOrg();
    for (const o of [x, y])
      await api(url, "PUT", "/v1/sources/slack", {
        token: o.token,
        body: { baseUrl: "https://acme.slack.com", streams: ["C1"] },
      });
    const body = JSON.stringify({
      type: "event_callback",
      event: { type: "message", text: "we ship on Tuesdays", user: "U1", ts: "1690203600.000200", channel: "C1" },
    });
    const id = "msg_replay_1";
    const ts = Math.floor(clock / 1000);
    const send = (ws: string, source: string, secret: string, msg = id) =>
      api(url, "POST", `/v1/inbound/${ws}/${source}`, {
        raw: body,
        headers: {
          "content-type": "application/json",
          "webhook-id": msg,
          "webhook-timestamp": String(ts),
          "webhook-signature": signDelivery(secret, msg, ts, body),
        },
      });
    const forX = routeSecret(SECRET, x.workspace.id, "slack");
    expect((await send(x.workspace.id, "slack", forX)).status).toBe(201);
    const stored = async (ws: string) =>
      ((await db`SELECT count(*)::int AS n FROM source_events WHERE workspace_id = ${ws}`) as { n: number }[])[0]?.n;
    // The same bytes, the same headers, to Y's route: the signature is X's route's, so it holds nowhere else.
    expect((await send(y.workspace.id, "slack", forX)).status).toBe(401);
    expect((await send(x.workspace.id, "github", forX)).status).toBe(401);
    expect((await send(y.workspace.id, "slack", SECRET, "msg_raw")).status).toBe(401);
    expect(await stored(y.workspace.id)).toBe(0);
    // A resend to its own route is the resend it is; the same id signed for Y's route is a replay, refused.
    expect((await send(x.workspace.id, "slack", forX)).body.duplicate).toBe(true);
    const replay = await send(y.workspace.id, "slack", routeSecret(SECRET, y.workspace.id, "slack"));
    expect([replay.status, replay.body.error.code]).toEqual([409, "replayed"]);
    expect(await stored(y.workspace.id)).toBe(0);
    expect(await stored(x.workspace.id)).toBe(1);
    // The route's secret is shown to an admin signed in, never to a token.
    expect((await api(url, "GET", "/v1/sources/slack/delivery", { token: x.token })).status).toBe(403);
  });
});

describe("limits, public routes first", () => {
  test("a flood of enrolments stores at most a burst; the rest are 429 with Retry-After", async () => {
    const [{ n: before }] = await db`SELECT count(*)::int AS n FROM device_codes`;
    const replies = await Promise.all(
      Array.from({ length: 200 }, () =>
        api(strict.url, "POST", "/v1/devices", { body: { publicKey: newKeyPair().publicKey, hostname: "flood" } }),
      ),
    );
    const ok = replies.filter((r) => r.status === 200).length;
    const limited = replies.filter((r) => r.status === 429);
    expect(ok).toBeLessThanOrEqual(10);
    expect(limited.length).toBe(200 - ok);
    expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
    const [{ n: after }] = await db`SELECT count(*)::int AS n FROM device_codes`;
    expect(after - before).toBe(ok);
  });

  test("unknown credentials are refused, counted per address, audited as critical, and stopped before any lookup", async () => {
    const [{ n: before }] = await db`SELECT count(*)::int AS n FROM audit WHERE org_id IS NULL`;
    const codes: number[] = [];
    for (let i = 0; i < 40; i++)
      codes.push((await api(strict.url, "GET", "/v1/me", { token: `mnx_p_${crypto.randomUUID()}` })).status);
    expect(codes.filter((c) => c === 401).length).toBe(20);
    expect(codes.slice(20).every((c) => c === 429)).toBe(true);
    const rows: { action: string; severity: string; actor: string }[] = await db`
      SELECT action, severity, actor FROM audit WHERE org_id IS NULL ORDER BY id`;
    expect(rows.length - before).toBe(1);
    expect(rows[rows.length - 1]).toMatchObject({ action: "auth.unknown_credential", severity: "critical" });
    // A minute on, the count of what was refused since is written with the next one.
    clock += 61_000;
    await api(strict.url, "GET", "/v1/me", { token: "mnx_p_guess" });
    const [last] = await db`SELECT detail FROM audit WHERE org_id IS NULL ORDER BY id DESC LIMIT 1`;
    expect(last.detail.refusedSinceLast).toBeGreaterThanOrEqual(19);
  });

  test("signed deliveries beyond a source's burst are refused, not stored", async () => {
    const o = await newOrg();
    await api(url, "PUT", "/v1/sources/slack", {
      token: o.token,
      body: { baseUrl: "https://acme.slack.com", streams: ["C1"] },
    });
    const secret = routeSecret(SECRET, o.workspace.id, "slack");
    const ts = Math.floor(clock / 1000);
    const replies = [];
    for (const delivery of Array.from({ length: 150 }, (_, i) => {
      const body = JSON.stringify({
        type: "event_callback",
        event: {
          type: "message",
          text: `note ${i}`,
          user: "U1",
          ts: `1690203600.${String(i).padStart(6, "0")}`,
          channel: "C1",
        },
      });
      const msg = `msg_flood_${o.org.id}_${i}`;
      return () =>
        api(strict.url, "POST", `/v1/inbound/${o.workspace.id}/slack`, {
          raw: body,
          headers: {
            "webhook-id": msg,
            "webhook-timestamp": String(ts),
            "webhook-signature": signDelivery(secret, msg, ts, body),
          },
        });
    }))
      replies.push(await delivery());
    const stored = replies.filter((r) => r.status === 201).length;
    expect(stored).toBe(60);
    expect(replies.filter((r) => r.status === 429).length).toBe(90);
    const [{ n }] = await db`SELECT count(*)::int AS n FROM source_events WHERE workspace_id = ${o.workspace.id}`;
    expect(n).toBe(60);
  });

  test("one machine's flood of heartbeats is its own: another workspace's machine is answered", async () => {
    const loud = await newOrg();
    const quiet = await newOrg();
    const [a, b] = [await enrol(loud), await enrol(quiet)];
    const flood = [];
    for (let i = 0; i < 60; i++) flood.push(await beat(a, {}, strict.url));
    expect(flood.filter((r) => r.status === 200).length).toBe(30);
    expect(flood.filter((r) => r.status === 429).length).toBe(30);
    expect((await beat(b, {}, strict.url)).status).toBe(200);
  });

  test("turns go round the workspaces: a quiet one waits for one turn, however long a loud one's line", async () => {
    const gate = new FairGate(2, 2, 3);
    const order: string[] = [];
    const running = [await gate.enter("loud"), await gate.enter("loud")];
    const noted = (name: string) => (leave: (() => void) | undefined) => {
      order.push(name);
      return leave;
    };
    const queued = [1, 2, 3].map((i) => gate.enter("loud").then(noted(`loud${i}`)));
    // A line longer than its bound is refused at once.
    expect(await gate.enter("loud")).toBeUndefined();
    const quiet = gate.enter("quiet").then(noted("quiet"));
    running[0]?.();
    running[1]?.();
    const [first, second] = await Promise.all([queued[0], quiet]);
    // The quiet workspace had the second turn freed, not the fourth.
    expect(order).toEqual(["loud1", "quiet"]);
    first?.();
    second?.();
    for (const q of queued.slice(1)) (await q)?.();
    expect(await gate.enter("other")).toBeFunction();
    // And one workspace holds at most its share of the turns, even with turns to spare.
    const shared = new FairGate(4, 2, 5);
    const held = [await shared.enter("loud"), await shared.enter("loud")];
    let third = false;
    const waiting = shared.enter("loud").then((leave) => {
      third = true;
      return leave;
    });
    const quick = await shared.enter("quiet");
    expect(quick).toBeFunction();
    await Bun.sleep(0);
    expect(third).toBe(false);
    held[0]?.();
    (await waiting)?.();
    expect(third).toBe(true);
    held[1]?.();
    quick?.();
  });
});

describe("no credential is stored, shown, exported or sent to the model", () => {
  const AWS_ID = ["AKIA", "GUARANTEES7Q2X"].join("");
  const AWS_SECRET = ["wJalrXUtnFEMI/K7MDENG/", "bPxRfiCYcanary7Q2X"].join("");
  const GHP = ["ghp_", "canaryGuarantees0123456789abcdef"].join("");
  const NEEDLES = [AWS_SECRET, GHP, AWS_ID, "hunter2canary"];

  test("the AWS pair and a GitHub token sent every way a tenant can send text land nowhere", async () => {
    const o = await newOrg();
    const m = await enrol(o);
    const file = `[default]\naws_access_key_id = ${AWS_ID}\naws_secret_access_key = ${AWS_SECRET}\n`;
    // A machine that did not mask (an older one, a forged one): the server masks on its way in.
    const r = await sendBatch(m, [
      action({
        effect: "deny",
        reason: `wrote ${file}`,
        resourceRef: `https://x-access-token:${GHP}@github.com/acme/r.git`,
        operation: "git.push",
        agent: "claude-code",
      }),
    ]);
    expect(r.body.accepted).toBe(1);
    await beat(m, {
      holds: [hold({ target: `aws_secret_access_key = ${AWS_SECRET}`, reason: `token ${GHP}` })],
      inventory: {
        hash: "sha256:i",
        scannedAt: new Date(clock).toISOString(),
        agents: [{ name: "claude-code", kind: `token=${GHP}` }],
        mcpServers: [],
      },
    });
    await api(url, "POST", "/v1/state", {
      token: o.token,
      body: { subject: "release", for: "1h", reason: `password = hunter2canary` },
    });
    await api(url, "PATCH", "/v1/org", {
      token: o.token,
      body: { about: `we keep aws_secret_access_key = ${AWS_SECRET}` },
    });
    await api(url, "PATCH", "/v1/me", { token: o.token, body: { name: `Ada ${GHP}` } });
    await api(url, "POST", "/v1/files", { token: o.token, body: { name: "creds.md", content: `# Keys\n${file}` } });
    await api(url, "PUT", "/v1/sources/slack", {
      token: o.token,
      body: { baseUrl: "https://acme.slack.com", streams: ["C1"] },
    });
    const body = JSON.stringify({
      type: "event_callback",
      event: {
        type: "message",
        text: `rotate: aws_secret_access_key = ${AWS_SECRET}`,
        user: "U1",
        ts: "1.5",
        channel: "C1",
      },
    });
    const ts = Math.floor(clock / 1000);
    const landed = await api(url, "POST", `/v1/inbound/${o.workspace.id}/slack`, {
      raw: body,
      headers: {
        "webhook-id": `msg_canary_${o.org.id}`,
        "webhook-timestamp": String(ts),
        "webhook-signature": signDelivery(
          routeSecret(SECRET, o.workspace.id, "slack"),
          `msg_canary_${o.org.id}`,
          ts,
          body,
        ),
      },
    });
    expect(landed.status).toBe(201);
    await api(url, "PATCH", "/v1/extraction", { token: o.token, body: { readsUpTo: "confidential" } });
    const run = await api(url, "POST", "/v1/extraction/runs", { token: o.token, body: {} });
    expect(run.status).toBe(201);
    expect(run.body.sent).toBeGreaterThan(0);
    // The surfaces: the database's every row and file, every page, every export, the model's request.
    const dump = await pg.dump();
    const files = await pg.filesHolding(NEEDLES);
    for (const needle of NEEDLES) {
      expect(dump, needle).not.toContain(needle);
      expect(files[needle], needle).toEqual([]);
    }
    expect(dump).toContain("aws_secret_access_key = ***");
    for (const page of [
      "/",
      "/machines",
      `/machines?id=${m.id}`,
      "/caught",
      "/waiting",
      "/agents",
      "/memory",
      "/settings",
      "/people",
      "/files",
      "/sources",
    ]) {
      const html = (await o.admin.browser.get(page)).html;
      for (const needle of NEEDLES) expect(html, `${page} ${needle}`).not.toContain(needle);
    }
    for (const path of [
      "/v1/events",
      "/v1/holds?all=1",
      "/v1/audit",
      "/v1/source-events",
      "/v1/org",
      "/v1/members",
      "/v1/state",
      "/v1/agents",
    ]) {
      const text = JSON.stringify((await api(url, "GET", path, { token: o.token })).body);
      for (const needle of NEEDLES) expect(text, `${path} ${needle}`).not.toContain(needle);
    }
    expect(modelRequests.length).toBeGreaterThan(0);
    for (const sent of modelRequests) for (const needle of NEEDLES) expect(sent, needle).not.toContain(needle);
  });

  test("a rule set holding a credential is refused, naming its line, and nothing of it is stored", async () => {
    const o = await newOrg();
    const r = await api(url, "POST", "/v1/policies/proposals", {
      token: o.token,
      raw: `version = 1\n[[policies]]\nname = "x"\nmatch = { targets = ["${GHP}"] }\ndecision = { effect = "deny" }\n`,
    });
    expect([r.status, r.body.error.line]).toEqual([422, 4]);
    expect(await pg.dump()).not.toContain(GHP);
  });
});

describe("health, retries and the audit tell the truth", () => {
  test("health reads the database", async () => {
    const h = await api(url, "GET", "/v1/health");
    expect(h.body).toMatchObject({ ok: true, database: "up" });
    const other = await startPostgres();
    const otherDb = await openDb(other.url);
    await migrate(otherDb);
    const lonely = startServer({
      db: otherDb,
      config: { deviceIntervalS: 1, deviceTtlS: 60, version: "t" },
      hostname: "127.0.0.1",
      port: 0,
      now: () => clock,
      log: () => {},
    });
    try {
      expect((await api(lonely.url, "GET", "/v1/health")).status).toBe(200);
      await other.stop();
      const down = await api(lonely.url, "GET", "/v1/health");
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ ok: false, database: "unreachable" });
      expect(down.headers.get("retry-after")).toBe("5");
    } finally {
      await lonely.stop();
      await otherDb.close().catch(() => {});
      await other.stop();
    }
  });

  test("rows stored by a request cut off before its detectors ran are detected when the machine resends them", async () => {
    const o = await newOrg();
    const m = await enrol(o);
    const refusals = [0, 1, 2].map(() => action({ effect: "deny", agent: "loop-bot", agentSessionId: "s-cut" }));
    // What a `kill -9` between the insert and the detectors leaves: the rows, never looked at.
    for (const e of refusals)
      await db`INSERT INTO events (workspace_id, machine_id, dedup_key, subject_id, occurred_at, agent, agent_session_id,
                                   surface, operation, classes, effect, detected)
               VALUES (${o.workspace.id}, ${m.id}, ${e.dedupKey}, ${e.subjectId}, ${new Date(e.occurredAt)}, 'loop-bot',
                       's-cut', 'shell', 'filesystem.write', '{write}', 'deny', false)`;
    const resent = await sendBatch(m, refusals);
    expect(resent.body).toMatchObject({ accepted: 0, duplicates: 3 });
    const incidents = (await api(url, "GET", "/v1/incidents", { token: o.token })).body.incidents;
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ detector: "repeated_refusals", agent: "loop-bot", session: "s-cut" });
    const [{ n }] = await db`SELECT count(*)::int AS n FROM events WHERE machine_id = ${m.id} AND NOT detected`;
    expect(n).toBe(0);
  });
});

describe("a decision publishes exactly what its reviewer read", () => {
  test("the preview counts what the rules would have caught; a changed or unread approval is refused; the bundle is the preview", async () => {
    const o = await newOrg();
    const reviewer = await person(o, "rev", "reviewer");
    const m = await enrol(o);
    const writes = [
      ...Array.from({ length: 5 }, (_, i) => action({ resourceRef: `/repo/logs/req-${i}.txt` })),
      action({ resourceRef: "/repo/logs/pii-export.csv" }),
      action({ resourceRef: "/repo/pii/logs/users.txt" }),
      action({ resourceRef: "/repo/logs/pii.txt", classes: ["read"], operation: "filesystem.read" }),
    ];
    expect((await sendBatch(m, writes)).body.accepted).toBe(writes.length);
    const [ev] = await db`INSERT INTO source_events (workspace_id, dedup_key, source_type, source_ref, kind, author,
                                     author_trusted, content, occurred_at, tainted, classification)
                          VALUES (${o.workspace.id}, ${`dk_${o.org.id}`}, 'slack', 'https://acme.slack.com/archives/C1/p1',
                                  'message', 'U1', true, 'we do not log PII', now(), false, 'internal') RETURNING id`;
    const cand = `cand_pii_${o.org.id}`;
    await db`INSERT INTO candidates (id, workspace_id, origin, statement, evidence, classification, tainted)
             VALUES (${cand}, ${o.workspace.id}, 'extraction', 'We do not log PII.', ${[ev.id]}, 'internal', false)`;
    const preview = await api(url, "GET", `/v1/candidates/${cand}/preview`, { token: reviewer.token });
    expect(preview.body).toMatchObject({ terms: ["log", "pii"], bound: ["log", "pii"], effect: "deny" });
    expect(preview.body.fleet).toMatchObject({ read: writes.length, caught: 2 });
    expect(preview.body.fleet.byTarget.map((t: { value: string }) => t.value).sort()).toEqual([
      "/repo/logs/pii-export.csv",
      "/repo/pii/logs/users.txt",
    ]);
    // One word alone would have caught every log written last week: the reviewer sees that before choosing it.
    const broad = await api(url, "GET", `/v1/candidates/${cand}/preview?terms=log`, { token: reviewer.token });
    expect(broad.body.fleet.caught).toBe(7);
    const before = await organizationState(db);
    const unread = await reviewer.browser.post("/waiting", { _action: "approve-decision", id: cand });
    expect(unread.status).toBe(400);
    const swapped = await reviewer.browser.post("/waiting", {
      _action: "approve-decision",
      id: cand,
      terms: "log",
      effect: "deny",
      rules: preview.body.rulesHash,
    });
    expect(swapped.status).toBe(409);
    expect(await organizationState(db)).toBe(before);
    const ok = await reviewer.browser.post("/waiting", {
      _action: "approve-decision",
      id: cand,
      terms: "log,pii",
      effect: "deny",
      rules: preview.body.rulesHash,
    });
    expect(ok.status).toBe(303);
    const published = JSON.parse((await bundleOf(o.token)).rules).policies;
    expect(published.map((r: { match: unknown }) => r.match)).toEqual(
      preview.body.rules.map((r: { match: unknown }) => r.match),
    );
  });

  test("a proposal shows its diff and which of last week's verdicts it turns", async () => {
    const o = await newOrg();
    const m = await enrol(o);
    await sendBatch(m, [
      action({ operation: "git.push-force", classes: ["destructive"], resourceRef: "origin main" }),
      action({ operation: "git.push-force", classes: ["destructive"], resourceRef: "origin dev" }),
      action({ operation: "git.push", classes: ["write"], resourceRef: "origin main" }),
    ]);
    const id = await propose(o.token);
    const shown = (await api(url, "GET", `/v1/policies/proposals/${id}`, { token: o.token })).body;
    expect(shown.diff).toContain('+      "name": "no-force-push",');
    expect(shown.fleet.changes).toEqual([expect.objectContaining({ from: "allow", to: "deny", count: 2 })]);
    const page = await o.admin.browser.get("/waiting");
    expect(page.html).toContain("would now be");
    expect(page.html).toContain("no-force-push");
  });
});

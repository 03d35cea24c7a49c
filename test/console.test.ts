// The console against a real PostgreSQL, through its own HTTP face: every page rendered on the server for each role
// (one policy, no caching, readable without scripts), every form a page offers refused to a role below it by the
// server, forms bound to the session and the origin, rule sets needing a second admin, incidents contained, agents
// stopped on every machine, and signing out ending the session on the server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CSP } from "../src/cloud/console/html.ts";
import { PAGES } from "../src/cloud/console/index.ts";
import { SENT_FIELDS, type SentEvent, SIGNATURE_HEADER } from "../src/cloud/protocol/sync.ts";
import { type RunningServer, startServer } from "../src/cloud/server.ts";
import { type Db, openDb } from "../src/cloud/store/db.ts";
import { migrate } from "../src/cloud/store/migrate.ts";
import { createOrg, type NewOrg } from "../src/cloud/store/people.ts";
import { newKeyPair, signWith } from "../src/ledger/sign.ts";
import { api, memberWithToken, operatorToken, publish } from "./support/cloud.ts";
import { type Browser, formsOf, organizationState, type PageForm, sessionFor } from "./support/console.ts";
import { startPostgres, type TestPostgres } from "./support/postgres.ts";

let pg: TestPostgres;
let db: Db;
let server: RunningServer;
let url = "";
let org: NewOrg;
const people: Record<"admin" | "admin2" | "reviewer" | "viewer", { id: string; token: string; browser: Browser }> =
  {} as never;

const config = { deviceIntervalS: 1, deviceTtlS: 600, version: "test" };

async function member(email: string, role: "viewer" | "reviewer" | "admin"): Promise<{ id: string; token: string }> {
  return memberWithToken(db, org.org.id, email, role);
}

interface Machine {
  readonly id: string;
  readonly token: string;
  readonly secret: Uint8Array;
}

async function enrol(): Promise<Machine> {
  const keys = newKeyPair();
  const asked = await api(url, "POST", "/v1/devices", {
    body: { publicKey: keys.publicKey, hostname: "ci-box", version: "1.0.0", platform: "linux-x64" },
  });
  await api(url, "POST", `/v1/devices/${asked.body.user_code}/approve`, { token: org.token });
  const got = await api(url, "POST", "/v1/devices/token", { body: { device_code: asked.body.device_code } });
  return { id: got.body.machine_id, token: got.body.access_token, secret: keys.secret };
}

let seq = 0;
function deny(agent: string, session: string, extra: Partial<SentEvent> = {}): SentEvent {
  seq += 1;
  return {
    dedupKey: `evt_console_${seq}`,
    subjectId: `evt_console_${seq}`,
    occurredAt: new Date().toISOString(),
    agentSessionId: session,
    agent,
    surface: "hook",
    operation: "git.push-force",
    classes: ["destructive"],
    effect: "deny",
    reason: "force pushes rewrite history somebody else has",
    ruleId: "no-force-push",
    resourceRef: "origin main",
    ...extra,
  };
}

async function send(m: Machine, events: SentEvent[]) {
  const bytes = new TextEncoder().encode(JSON.stringify({ machineId: m.id, sentAt: new Date().toISOString(), events }));
  const r = await fetch(`${url}/v1/events`, {
    method: "POST",
    headers: { authorization: `Bearer ${m.token}`, [SIGNATURE_HEADER]: signWith(m.secret, bytes) },
    body: bytes,
  });
  expect(r.status).toBe(200);
}

const beat = (m: Machine, extra: Record<string, unknown> = {}) =>
  api(url, "POST", "/v1/heartbeat", {
    token: m.token,
    body: { bundleHash: null, modeRunning: "observe", holds: [], answersApplied: [], version: "1.0.0", ...extra },
  });

const state = () => organizationState(db);

beforeAll(async () => {
  pg = await startPostgres();
  db = await openDb(pg.url);
  await migrate(db);
  org = await createOrg(db, "acme", "admin@acme.dev", "test");
  server = startServer({ db, config, hostname: "127.0.0.1", port: 0, now: Date.now, log: () => {} });
  url = server.url;
  const [adminRow] = await db`SELECT id FROM members WHERE email = 'admin@acme.dev'`;
  const rows = {
    admin: { id: adminRow.id as string, token: org.token },
    admin2: await member("second@acme.dev", "admin"),
    reviewer: await member("reviewer@acme.dev", "reviewer"),
    viewer: await member("viewer@acme.dev", "viewer"),
  };
  for (const [k, v] of Object.entries(rows))
    people[k as keyof typeof people] = { ...v, browser: await sessionFor(db, url, v.id) };
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await db?.close();
  await pg?.stop();
});

describe("pages", () => {
  test("the first time in, an admin finishes onboarding: the team's name, what it does, who they are", async () => {
    const first = await people.admin.browser.get("/");
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/onboarding");
    const form = (await formsOf((await people.admin.browser.get("/onboarding")).html)).find(
      (f) => f.fields._action === "profile",
    );
    if (!form) throw new Error("no onboarding form");
    expect(form.labels).toEqual(["Team name", "What the team does", "Who you are"]);
    const done = await people.admin.browser.post("/onboarding", { ...form.fields, about: "payments APIs", you: "Ada" });
    expect(done.headers.get("location")).toBe("/");
    expect((await people.admin.browser.get("/")).status).toBe(200);
    const o = (await api(url, "GET", "/v1/org", { token: org.token })).body;
    expect(o).toMatchObject({ name: "acme", about: "payments APIs" });
    expect(o.onboardedAt).not.toBeNull();
  });

  test("every page is rendered on the server for every role, in one policy, never cached, readable without scripts", async () => {
    for (const role of ["viewer", "reviewer", "admin"] as const) {
      for (const def of PAGES) {
        const r = await people[role].browser.get(def.path);
        expect(r.status, `${role} ${def.path}: ${r.html.slice(0, 300)}`).toBe(200);
        expect(r.headers.get("content-security-policy")).toBe(CSP);
        expect(r.headers.get("cache-control")).toBe("no-store");
        expect(r.html).toContain(`<h1>${def.title}</h1>`);
        for (const group of ["Fleet", "Govern", "Record", "Inputs", "Organization"])
          expect(r.html).toContain(`<h2>${group}</h2>`);
        // No inline script or style anywhere: the policy would refuse one, so none is written.
        expect(r.html).not.toMatch(/<script(?![^>]*\bsrc=)|\sstyle=|\son[a-z]+=/i);
      }
    }
    const htmx = await fetch(`${url}/htmx.js`);
    expect(htmx.status).toBe(200);
    expect(await htmx.text()).toContain("htmx");
  });

  test("without a session a page sends the browser to sign in, and a form does nothing", async () => {
    const r = await fetch(`${url}/machines?id=x`, { redirect: "manual" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(`/signin?return=${encodeURIComponent("/machines?id=x")}`);
    const signin = await fetch(`${url}/signin`);
    expect(await signin.text()).toContain("Sign-in is not configured on this control plane");
    // `memnox login` points at /device; with no sign-in configured the page says how a token approves it instead.
    const device = await fetch(`${url}/device?code=BCDF-GHJK`);
    expect(await device.text()).toContain(
      `curl -X POST -H "Authorization: Bearer $TOKEN" ${url}/v1/devices/BCDF-GHJK/approve`,
    );
    const before = await state();
    const p = await fetch(`${url}/machines`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "_action=mode&id=x&mode=off",
      redirect: "manual",
    });
    expect(p.status).toBe(401);
    expect(await state()).toBe(before);
  });

  test("with nothing reported a tile draws a dash, never a zero; Waiting on you says nothing needs you", async () => {
    const home = await people.viewer.browser.get("/");
    expect(home.html).toMatch(/<dt>Actions<\/dt><dd>–<\/dd>/);
    expect(home.html).not.toMatch(/<dt>Actions<\/dt><dd>0<\/dd>/);
    const waiting = await people.viewer.browser.get("/waiting");
    expect(waiting.html).toContain("Nothing needs you. Memnox is running.");
  });
});

let machine: Machine;

describe("what a person owes, once machines report", () => {
  test("a held call, a rule change, a shadow MCP server and a condition each open their section", async () => {
    machine = await enrol();
    const now = Date.now();
    const r = await beat(machine, {
      holds: [
        {
          id: "a_1a2b3c4d",
          surface: "interceptor",
          action: "git.push",
          target: "origin release/1",
          agent: "claude-code",
          session: "sess-1",
          reason: "a person looks at release pushes",
          ruleId: "release-pushes-ask",
          createdAt: new Date(now).toISOString(),
          expiresAt: new Date(now + 3_600_000).toISOString(),
        },
      ],
      inventory: {
        hash: "sha256:inv1",
        scannedAt: new Date(now).toISOString(),
        agents: [{ name: "claude-code", kind: "claude-code" }],
        mcpServers: [
          { name: "stripe", proxied: false, tools: 12, writeTools: 5, agents: ["claude-code"] },
          { name: "github", proxied: true, tools: 30, writeTools: 9, agents: ["claude-code"] },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.inventoryHash).toBe("sha256:inv1");
    const proposed = await api(url, "POST", "/v1/policies/proposals", {
      token: org.token,
      raw: 'version = 1\n[[policies]]\nname = "no-force-push"\nmatch = { actions = ["git.push-force"] }\ndecision = { effect = "deny", reason = "no" }\n',
    });
    expect(proposed.status).toBe(201);
    expect(proposed.body.changes).toEqual({ added: ["no-force-push"], removed: [], modified: [] });
    await api(url, "POST", "/v1/state", { token: org.token, body: { subject: "release", for: "2h", reason: "cut" } });
    const w = (await people.viewer.browser.get("/waiting")).html;
    for (const title of [
      "Agents waiting on a question, on machines nobody is at",
      "Rule changes waiting on a second admin",
      "MCP servers nobody approved",
      "Conditions in force",
    ])
      expect(w).toContain(title);
    expect(w).not.toContain("Nothing needs you");
    expect(w).toContain("stripe");
    expect(w).not.toContain("<code>github</code>");
    // A viewer sees all of it and is offered nothing to press.
    expect((await formsOf(w)).filter((f) => f.method === "post" && f.action === "/waiting")).toEqual([]);
  });

  test("three refusals of one agent session open an incident, whose drawer holds the evidence", async () => {
    await send(machine, [
      deny("claude-code", "sess-9"),
      deny("claude-code", "sess-9"),
      deny("claude-code", "sess-9"),
      deny("codex", "sess-10"),
    ]);
    const inc = (await api(url, "GET", "/v1/incidents", { token: org.token })).body.incidents;
    expect(inc).toHaveLength(1);
    expect(inc[0]).toMatchObject({
      detector: "repeated_refusals",
      agent: "claude-code",
      session: "sess-9",
      status: "open",
    });
    expect(inc[0].evidence).toHaveLength(3);
    // More evidence joins the open incident rather than opening another.
    await send(machine, [deny("claude-code", "sess-9")]);
    const again = (await api(url, "GET", "/v1/incidents", { token: org.token })).body.incidents;
    expect(again).toHaveLength(1);
    expect(again[0].evidence).toHaveLength(4);
    const page = (await people.admin.browser.get("/caught")).html;
    expect(page).toContain("Incidents");
    expect(page).toContain('<details class="incident"');
    expect(page).toContain("Contain it");
    expect(page).toMatch(/<code>no-force-push<\/code>/);
    const home = (await people.viewer.browser.get("/")).html;
    expect(home).toMatch(/<dt>Refused<\/dt><dd><a href="\/caught\?effect=deny">5<\/a><\/dd>/);
  });
});

/** Every form the admin's pages offer that acts on something: what a lower role's attempt is tested against. */
async function adminForms(): Promise<{ path: string; form: PageForm }[]> {
  const code = await api(url, "POST", "/v1/devices", {
    body: { publicKey: newKeyPair().publicKey, hostname: "laptop" },
  });
  const paths = [
    ...PAGES.map((p) => p.path),
    `/machines?id=${machine.id}`,
    "/agents?name=claude-code",
    `/device?code=${code.body.user_code}`,
  ];
  const out: { path: string; form: PageForm }[] = [];
  for (const path of paths) {
    const html = (await people.admin.browser.get(path)).html;
    for (const form of await formsOf(html)) if (form.method === "post" && form.fields._action) out.push({ path, form });
  }
  return out;
}

function variants(form: PageForm): Record<string, string>[] {
  const named = form.buttons.filter((b) => b.name);
  if (named.length === 0) return [{ ...form.fields }];
  return named.map((b) => ({ ...form.fields, [b.name]: b.value }));
}

describe("roles, enforced on the server for every action a page offers", () => {
  test("a viewer sending each of the admin's forms is refused by the server, and nothing changes", async () => {
    const forms = await adminForms();
    const actions = new Set(forms.map(({ form }) => `${form.action} ${form.fields._action}`));
    // Every kind of action the tree offers is among them.
    for (const a of [
      "/machines mode",
      "/machines revoke",
      "/agents halt",
      "/agents freeze",
      "/agents revoke",
      "/agents owners",
      "/waiting answer",
      "/waiting approve-mcp",
      "/waiting block-mcp",
      "/waiting lift",
      "/waiting reject-proposal",
      "/caught acknowledge",
      "/caught resolve",
      "/caught contain",
      "/people add",
      "/people role",
      "/people status",
      "/settings profile",
      "/device approve",
      "/device deny",
    ])
      expect(actions).toContain(a);
    const before = await state();
    let tried = 0;
    for (const { form } of forms)
      for (const fields of variants(form)) {
        const r = await people.viewer.browser.post(form.action, fields);
        expect(r.status, `${form.action} ${fields._action} as a viewer`).toBe(403);
        expect(r.html).toContain("holds the viewer role");
        tried += 1;
      }
    expect(tried).toBeGreaterThan(25);
    expect(await state()).toBe(before);
  });

  test("a reviewer answers and acknowledges, and is refused what configures", async () => {
    const forms = await adminForms();
    const pick = (action: string) => {
      const f = forms.find(({ form }) => form.fields._action === action);
      if (!f) throw new Error(`no ${action} form`);
      return f.form;
    };
    for (const action of ["mode", "revoke", "contain", "add", "block-mcp", "approve-mcp", "profile"]) {
      const f = pick(action);
      const r = await people.reviewer.browser.post(f.action, variants(f)[0] ?? f.fields);
      expect(r.status, action).toBe(403);
      expect(r.html).toContain("this needs the admin role");
    }
    const ack = pick("acknowledge");
    expect((await people.reviewer.browser.post(ack.action, ack.fields)).status).toBe(303);
    const answer = pick("answer");
    const once = await people.reviewer.browser.post(answer.action, { ...answer.fields, answer: "once" });
    expect(once.status).toBe(303);
    expect(once.headers.get("location")).toBe("/waiting");
    const holds = (await api(url, "GET", "/v1/holds?all=1", { token: org.token })).body.holds;
    expect(holds[0].answer).toMatchObject({ grant: true, scope: "once", by: "reviewer@acme.dev" });
  });

  test("a form without the session's token, with another's, or from another origin is not acted on", async () => {
    const f = (await adminForms()).find(({ form }) => form.fields._action === "mode")?.form;
    if (!f) throw new Error("no mode form");
    const before = await state();
    const fields = { ...f.fields, mode: "enforce" };
    expect((await people.admin.browser.post(f.action, fields, { csrf: null })).status).toBe(403);
    expect((await people.admin.browser.post(f.action, fields, { csrf: people.admin2.browser.csrf })).status).toBe(403);
    const cross = await people.admin.browser.post(f.action, fields, { headers: { origin: "https://evil.example" } });
    expect(cross.status).toBe(403);
    expect(cross.html).toContain("came from another site");
    const opaque = await people.admin.browser.post(f.action, fields, { headers: { origin: "null" } });
    expect(opaque.status).toBe(403);
    const site = await people.admin.browser.post(f.action, fields, { headers: { "sec-fetch-site": "cross-site" } });
    expect(site.status).toBe(403);
    expect(await state()).toBe(before);
    const ok = await people.admin.browser.post(f.action, fields);
    expect(ok.status).toBe(303);
    expect((await api(url, "GET", `/v1/machines/${machine.id}`, { token: org.token })).body.mode.set).toBe("enforce");
  });
});

describe("rule changes need two admins", () => {
  const RULES =
    'version = 1\n[[policies]]\nname = "no-force-push"\nmatch = { actions = ["git.push-force"] }\ndecision = { effect = "deny", reason = "no" }\n';

  test("the proposer cannot approve while a second admin exists; the second admin's approval publishes it", async () => {
    const before = (await api(url, "GET", "/v1/bundle", { token: org.token })).body.hash;
    const pending = (await api(url, "GET", "/v1/policies/proposals", { token: org.token })).body.proposals;
    const p = pending.find((x: { changes: { added: string[] } }) => x.changes.added.includes("no-force-push"));
    const own = await people.admin.browser.post("/waiting", { _action: "approve-proposal", id: p.id });
    expect(own.status).toBe(403);
    expect(own.html).toContain("a second admin approves this");
    expect((await api(url, "GET", "/v1/bundle", { token: org.token })).body.hash).toBe(before);
    // In the console the proposer is offered Withdraw, never Approve; the second admin is offered Approve.
    const mine = await formsOf((await people.admin.browser.get("/waiting")).html);
    expect(mine.some((f) => f.fields._action === "approve-proposal" && f.fields.id === p.id)).toBe(false);
    expect(mine.find((f) => f.fields._action === "reject-proposal" && f.fields.id === p.id)?.buttons[0]?.label).toBe(
      "Withdraw",
    );
    const theirs = await formsOf((await people.admin2.browser.get("/waiting")).html);
    const approve = theirs.find((f) => f.fields._action === "approve-proposal" && f.fields.id === p.id);
    if (!approve) throw new Error("the second admin is offered no Approve");
    expect((await people.admin2.browser.post(approve.action, approve.fields)).status).toBe(303);
    const after = await api(url, "GET", "/v1/bundle", { token: org.token });
    expect(after.body.hash).not.toBe(before);
    expect(JSON.parse(after.body.rules).policies[0].name).toBe("no-force-push");
    expect(after.body.published.by).toBe("admin@acme.dev, approved by second@acme.dev");
  });

  test("an operator token counts as the admin who made it; a stale proposal is refused; a proposer withdraws alone", async () => {
    const op = await operatorToken(db, org.org.id, "ci", "admin", "second@acme.dev");
    const proposed = await api(url, "POST", "/v1/policies/proposals", {
      token: op,
      raw: RULES.replace('"no"', '"never"'),
    });
    expect(proposed.body.changes.modified).toEqual(["no-force-push"]);
    const byMaker = await people.admin2.browser.post("/waiting", { _action: "approve-proposal", id: proposed.body.id });
    expect(byMaker.status).toBe(403);
    expect(byMaker.html).toContain("an operator token you made");
    const byToken = await api(url, "POST", `/v1/policies/proposals/${proposed.body.id}/approve`, { token: op });
    expect(byToken.status).toBe(403);
    expect(byToken.body.error.code).toBe("not_automation");
    // Another proposal published first makes this one stale: approving it would silently drop what that published.
    const other = await publish(url, people.admin2.token, RULES.replace('"no"', '"no!"'), {
      approver: people.admin.browser,
    });
    expect(other.proposal.status).toBe("published");
    const stale = await people.admin.browser.post("/waiting", { _action: "approve-proposal", id: proposed.body.id });
    expect(stale.status).toBe(409);
    const withdrawn = await api(url, "POST", `/v1/policies/proposals/${proposed.body.id}/reject`, { token: op });
    expect(withdrawn.body.status).toBe("withdrawn");
  });

  test("Block for the team proposes a rule refusing every tool on that server, added to the rules in force", async () => {
    const forms = await formsOf((await people.admin.browser.get("/waiting")).html);
    const block = forms.find((f) => f.fields._action === "block-mcp" && f.fields.name === "stripe");
    if (!block) throw new Error("no Block for the team");
    expect((await people.admin.browser.post(block.action, block.fields)).status).toBe(303);
    const p = (await api(url, "GET", "/v1/policies/proposals", { token: org.token })).body.proposals[0];
    expect(p).toMatchObject({ kind: "block-mcp", changes: { added: ["team-blocks-mcp-stripe"], removed: [] } });
    expect((await people.admin2.browser.post("/waiting", { _action: "approve-proposal", id: p.id })).status).toBe(303);
    const rules = JSON.parse((await api(url, "GET", "/v1/bundle", { token: org.token })).body.rules).policies;
    expect(rules.map((r: { name: string }) => r.name)).toEqual(["no-force-push", "team-blocks-mcp-stripe"]);
    expect(rules[1]).toMatchObject({ match: { actions: ["mcp.stripe.*"] }, decision: { effect: "deny" } });
  });
});

describe("stopping an agent", () => {
  test("Contain it freezes the agent in every machine's bundle and moves every machine to enforce", async () => {
    const second = await enrol();
    await api(url, "POST", `/v1/machines/${machine.id}/mode`, { token: org.token, body: { mode: "observe" } });
    await beat(machine, { modeRunning: "observe" });
    const inc = (await api(url, "GET", "/v1/incidents", { token: org.token })).body.incidents[0];
    const forms = await formsOf((await people.admin.browser.get("/caught")).html);
    const contain = forms.find((f) => f.fields._action === "contain" && f.fields.id === inc.id);
    if (!contain) throw new Error("no Contain it");
    expect((await people.admin.browser.post(contain.action, { ...contain.fields, for: "2h" })).status).toBe(303);
    for (const m of [machine, second]) {
      const pulled = await api(url, "GET", "/v1/bundle", { token: m.token });
      const facts = JSON.parse(pulled.body.conditions).facts;
      expect(facts).toContainEqual(
        expect.objectContaining({ kind: "freeze-agent", subject: "claude-code", by: "admin@acme.dev" }),
      );
      const reply = await beat(m);
      expect(reply.body.modeSet).toBe("enforce");
      expect(reply.body.modeChange).toMatchObject({ to: "enforce", by: "admin@acme.dev" });
    }
    const agent = (await api(url, "GET", "/v1/agents/claude-code", { token: org.token })).body;
    expect(agent.frozen.by).toBe("admin@acme.dev");
  });

  test("a reviewer halts an agent (with a reason) and lifts it; an admin revokes it; owners must be members", async () => {
    const viewer = await api(url, "POST", "/v1/agents/codex/halt", {
      token: people.viewer.token,
      body: { reason: "x" },
    });
    expect(viewer.status).toBe(403);
    const halted = await api(url, "POST", "/v1/agents/codex/halt", {
      token: people.reviewer.token,
      body: { reason: "looking at it" },
    });
    expect(halted.body).toMatchObject({ state: "halted", halt: { by: "reviewer@acme.dev", reason: "looking at it" } });
    const facts = JSON.parse((await api(url, "GET", "/v1/bundle", { token: machine.token })).body.conditions).facts;
    expect(facts).toContainEqual(
      expect.objectContaining({ kind: "halt-agent", subject: "codex", reason: "looking at it" }),
    );
    expect((await api(url, "POST", "/v1/agents/codex/lift", { token: people.reviewer.token })).body.state).toBe("live");
    expect((await api(url, "POST", "/v1/agents/codex/revoke", { token: people.reviewer.token })).status).toBe(403);
    expect((await api(url, "POST", "/v1/agents/codex/revoke", { token: org.token })).body.state).toBe("revoked");
    const stranger = await api(url, "PATCH", "/v1/agents/claude-code", {
      token: org.token,
      body: { owners: ["nobody@else.dev"] },
    });
    expect(stranger.status).toBe(400);
    const named = await api(url, "PATCH", "/v1/agents/claude-code", {
      token: org.token,
      body: { owners: ["reviewer@acme.dev"] },
    });
    expect(named.body).toMatchObject({ owners: ["reviewer@acme.dev"], ownersFrom: "named" });
  });
});

describe("the session", () => {
  test("signing out ends it on the server: the same cookie is worth nothing afterwards", async () => {
    const s = await sessionFor(db, url, people.admin2.id);
    expect((await s.get("/machines")).status).toBe(200);
    const out = await s.post("/signout", {});
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    const again = await s.get("/machines");
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toStartWith("/signin");
    expect((await s.post("/machines", { _action: "mode", id: machine.id, mode: "off" })).status).toBe(401);
    const [row] =
      await db`SELECT ended_at, ended_by FROM sessions WHERE member_id = ${people.admin2.id} AND ended_at IS NOT NULL`;
    expect(row.ended_by).toBe("second@acme.dev");
  });

  test("a suspended member's session ends with the suspension", async () => {
    const s = await sessionFor(db, url, people.viewer.id);
    expect((await s.get("/")).status).toBe(200);
    await api(url, "PATCH", `/v1/members/${people.viewer.id}`, { token: org.token, body: { status: "suspended" } });
    expect((await s.get("/")).status).toBe(303);
    await api(url, "PATCH", `/v1/members/${people.viewer.id}`, { token: org.token, body: { status: "active" } });
    expect((await s.get("/")).status).toBe(303);
  });

  test("the cookie is HttpOnly, Secure, SameSite and __Host-, and no page carries it in a link", async () => {
    expect(SENT_FIELDS).toContain("agent");
    const html = (await people.admin.browser.get("/")).html;
    expect(html).not.toContain(people.admin.browser.cookie.split("=")[1] ?? "never");
  });
});

// The team quickstart's pieces through the console's own forms, against a real PostgreSQL and the real HTTP face: a
// system connected under Connectors, its delivery URL and secret shown once to an admin signed in, a recorded GitHub
// App delivery (x-hub-signature-256) landing and appearing in Knowledge with its link, per-source health counting
// deliveries and refusals, and a member removed with an erasure receipt. The Chromium run is test/e2e/quickstart.e2e.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { providerName } from "../src/cloud/console/signin-pages.ts";
import { routeSecret } from "../src/cloud/intent/webhook.ts";
import type { Db } from "../src/cloud/store/db.ts";
import { api, memberWithToken } from "./support/cloud.ts";
import { type InProcessCloud, startInProcessCloud } from "./support/cloud-in-process.ts";
import { sessionFor } from "./support/console.ts";

const SECRET = "whsec_UXVpY2tzdGFydHMtY2FuLWJlLWZvbGxvd2Vk";
const FIXTURES = join(import.meta.dir, "..", "fixtures", "intent");
const PR = readFileSync(join(FIXTURES, "github-pull-request-opened.json"), "utf8");

let cloud: InProcessCloud;
let db: Db;
let url = "";

beforeAll(async () => {
  cloud = await startInProcessCloud(SECRET);
  ({ db, url } = cloud);
}, 60_000);

afterAll(() => cloud?.stop());

const newOrg = () => cloud.newOrg("qs");

/** GitHub's own way of signing: `sha256=` and the hex HMAC of the raw body, keyed with the secret's text. */
function github(secret: string, body: string, id: string, event = "pull_request"): Record<string, string> {
  const mac = new Bun.CryptoHasher("sha256", new TextEncoder().encode(secret)).update(body).digest("hex");
  return {
    "content-type": "application/json",
    "x-github-event": event,
    "x-github-delivery": id,
    "x-hub-signature-256": `sha256=${mac}`,
  };
}

/** The text between two markers of a page, to read what it showed once. */
function codeById(html: string, id: string): string {
  return new RegExp(`<code id="${id}">([^<]*)</code>`).exec(html)?.[1] ?? "";
}

describe("Connectors: connect, paste, deliver, see it", () => {
  test("an admin connects GitHub with its streams; the URL and secret are shown once to them signed in, never to a token", async () => {
    const o = await newOrg();
    const page = await o.browser.get("/connectors");
    expect(page.html).toContain("pull requests opened and merged");
    expect(page.html).toContain("Connect GitHub");
    const saved = await o.browser.post("/connectors", {
      _action: "connect",
      type: "github",
      streams: "acme/checkout, acme/web",
    });
    expect(saved.status).toBe(200);
    const [row] =
      await db`SELECT streams FROM sources WHERE workspace_id = ${o.workspace.id} AND source_type = 'github'`;
    expect(row.streams).toEqual(["acme/checkout", "acme/web"]);
    const shown = await o.browser.post("/connectors", { _action: "delivery", type: "github" });
    const secret = codeById(shown.html, "delivery-secret");
    expect(secret).toBe(routeSecret(SECRET, o.workspace.id, "github"));
    expect(codeById(shown.html, "delivery-url")).toBe(`${url}/v1/inbound/${o.workspace.id}/github`);
    // Shown in answer to the press only: the page itself never carries it, and no row holds it.
    expect((await o.browser.get("/connectors")).html).not.toContain(secret);
    const rows = JSON.stringify(await db`SELECT * FROM audit WHERE org_id = ${o.org.id}`);
    expect(rows).not.toContain(secret);
    expect(rows).toContain("source.secret.shown");
    // The admin's own token cannot read it.
    expect((await api(url, "GET", "/v1/sources/github/delivery", { token: o.token })).status).toBe(403);
    // A viewer is shown neither the form nor the secret, and the server refuses the form sent anyway.
    const viewer = await memberWithToken(db, o.org.id, "vera@qs.dev", "viewer");
    const vb = await sessionFor(db, url, viewer.id);
    const vpage = (await vb.get("/connectors")).html;
    expect(vpage).not.toContain("Connect GitHub");
    expect(vpage).not.toContain("delivery URL and secret");
    const refused = await vb.post("/connectors", { _action: "delivery", type: "github" });
    expect(refused.status).toBe(403);
    expect(refused.html).not.toContain("whsec_");
  });

  test("a recorded GitHub App delivery signed x-hub-signature-256 lands once, with its link, in Knowledge; health counts it and the refusals", async () => {
    const o = await newOrg();
    await o.browser.post("/connectors", { _action: "connect", type: "github", streams: "acme/checkout" });
    const secret = routeSecret(SECRET, o.workspace.id, "github");
    const route = `/v1/inbound/${o.workspace.id}/github`;
    const ping = await api(url, "POST", route, { raw: "{}", headers: github(secret, "{}", "ping-1", "ping") });
    expect(ping.body).toEqual({ pong: true });
    const landed = await api(url, "POST", route, { raw: PR, headers: github(secret, PR, "d-1") });
    expect(landed.status).toBe(201);
    // A replay of the same delivery is the resend it is; the same delivery to another workspace's route is refused.
    expect((await api(url, "POST", route, { raw: PR, headers: github(secret, PR, "d-1") })).status).toBe(200);
    const other = await newOrg();
    await other.browser.post("/connectors", { _action: "connect", type: "github", streams: "acme/checkout" });
    const elsewhere = await api(url, "POST", `/v1/inbound/${other.workspace.id}/github`, {
      raw: PR,
      headers: github(secret, PR, "d-1"),
    });
    expect(elsewhere.status).toBe(401);
    // Signed with another route's secret, or changed by one byte: refused, nothing stored.
    const tampered = PR.replace("Strip PII", "Strip pii");
    expect((await api(url, "POST", route, { raw: tampered, headers: github(secret, PR, "d-2") })).status).toBe(401);
    const [n] = await db`SELECT count(*)::int AS n FROM source_events WHERE workspace_id = ${o.workspace.id}`;
    expect(n.n).toBe(1);
    const [m] = await db`SELECT count(*)::int AS n FROM source_events WHERE workspace_id = ${other.workspace.id}`;
    expect(m.n).toBe(0);
    const knowledge = (await o.browser.get("/knowledge")).html;
    expect(knowledge).toContain('href="https://github.com/acme/checkout/pull/1347"');
    expect(knowledge).toContain("Strip PII from request logs");
    expect(knowledge).toContain("untrusted author");
    const connectors = (await o.browser.get("/connectors")).html;
    expect(connectors).toMatch(/<dt>Delivered<\/dt><dd>3<\/dd>/);
    expect(connectors).toMatch(
      /<dt>Refused<\/dt><dd>1 <span class="warn">\(last [^)]*: 401 the x-hub-signature-256 does not check/,
    );
    // A stranger naming a source nobody connected grows nothing.
    await api(url, "POST", `/v1/inbound/${o.workspace.id}/jira`, { raw: "{}", headers: github(secret, "{}", "x") });
    const [h] = await db`SELECT count(*)::int AS n FROM source_health WHERE workspace_id = ${o.workspace.id}`;
    expect(h.n).toBe(1);
  });

  test("Knowledge filters by the reader's clearance and says how much it withheld", async () => {
    const o = await newOrg();
    await o.browser.post("/connectors", { _action: "connect", type: "github", streams: "acme/checkout" });
    const secret = routeSecret(SECRET, o.workspace.id, "github");
    const landed = await api(url, "POST", `/v1/inbound/${o.workspace.id}/github`, {
      raw: PR,
      headers: github(secret, PR, "k-1"),
    });
    expect(
      (
        await api(url, "POST", `/v1/source-events/${landed.body.id}/classify`, {
          token: o.token,
          body: { level: "restricted" },
        })
      ).status,
    ).toBe(200);
    const viewer = await memberWithToken(db, o.org.id, "vic@qs.dev", "viewer");
    const page = (await (await sessionFor(db, url, viewer.id)).get("/knowledge")).html;
    expect(page).not.toContain("Strip PII");
    expect(page).toContain("1 event(s) withheld");
  });
});

describe("People: invite, remove", () => {
  test("an invite shows its sign-in link; removing erases the account's personal data with a receipt, keeps what they approved, and the session ends", async () => {
    const o = await newOrg();
    const invited = await o.browser.post("/people", { _action: "add", email: "rita@qs.dev", role: "viewer" });
    expect(codeById(invited.html, "invite-link")).toBe(`${url}/signin`);
    const rita = await memberWithToken(db, o.org.id, "ron@qs.dev", "viewer");
    const rb = await sessionFor(db, url, rita.id);
    expect((await rb.get("/machines")).status).toBe(200);
    await db`UPDATE members SET display_name = 'Ron Viewer', oidc_issuer = 'https://id.example', oidc_subject = 'sub-ron' WHERE id = ${rita.id}`;
    await db`INSERT INTO audit (org_id, actor, action, subject) VALUES (${o.org.id}, 'ron@qs.dev', 'hold.answer', 'h1')`;
    // Nobody removes themselves here, and a token never removes anybody.
    expect((await o.browser.post("/people", { _action: "remove", id: o.admin.id })).status).toBe(403);
    expect((await api(url, "POST", `/v1/members/${rita.id}/remove`, { token: o.token })).status).toBe(403);
    const removed = await o.browser.post("/people", { _action: "remove", id: rita.id });
    expect(removed.status).toBe(200);
    expect(removed.html).toContain("Erasure receipt");
    expect(removed.html).toMatch(/<td><code>tokens<\/code><\/td><td>1<\/td><td>deleted/);
    expect(removed.html).toMatch(/<td><code>sessions<\/code><\/td><td>1<\/td><td>deleted/);
    // The effect: no address, name or identity left; the session and token are dead; the approval keeps its name.
    const [m] = await db`SELECT * FROM members WHERE id = ${rita.id}`;
    expect(JSON.stringify(m)).not.toMatch(/ron@qs|Ron Viewer|sub-ron/);
    expect(m.status).toBe("removed");
    expect((await rb.get("/machines")).status).toBe(303);
    expect((await api(url, "GET", "/v1/me", { token: rita.token })).status).toBe(401);
    const [kept] = await db`SELECT actor FROM audit WHERE org_id = ${o.org.id} AND action = 'hold.answer'`;
    expect(kept.actor).toBe("ron@qs.dev");
    const [a] = await db`SELECT severity, detail FROM audit WHERE org_id = ${o.org.id} AND action = 'member.remove'`;
    expect(a.severity).toBe("warning");
    expect((await o.browser.get("/people")).html).not.toContain(rita.id);
    // Inviting them back makes a new account.
    const again = await o.browser.post("/people", { _action: "add", email: "ron@qs.dev", role: "viewer" });
    expect(again.status).toBe(200);
    const [fresh] = await db`SELECT id FROM members WHERE org_id = ${o.org.id} AND email = 'ron@qs.dev'`;
    expect(fresh.id).not.toBe(rita.id);
  });

  test("a reviewer is not shown Remove and is refused it", async () => {
    const o = await newOrg();
    const rev = await memberWithToken(db, o.org.id, "rev@qs.dev", "reviewer");
    const rb = await sessionFor(db, url, rev.id);
    expect((await rb.get("/people")).html).not.toContain(">Remove<");
    expect((await rb.post("/people", { _action: "remove", id: o.admin.id })).status).toBe(403);
    const [a] = await db`SELECT status FROM members WHERE id = ${o.admin.id}`;
    expect(a.status).toBe("active");
  });
});

describe("Agents: a grant with a credential minted once, a spend limit, an expiry and a principal", () => {
  test("an admin signed in enrols an agent; the credential works once shown and never again appears; spend above the limit asks; expiry lapses it", async () => {
    const o = await newOrg();
    const shown = await o.browser.post("/agents", {
      _action: "grant",
      name: "release-bot",
      principal: o.admin.email,
      role: "release engineer",
      actions: "deploy.release",
      spendLimit: "100",
      currency: "USD",
      expiresIn: "2h",
    });
    expect(shown.status).toBe(200);
    const credential = codeById(shown.html, "agent-credential");
    expect(credential).toMatch(/^mnx_a_/);
    // Never again: not on the agent's page, not in any row.
    expect((await o.browser.get("/agents?name=release-bot")).html).not.toContain(credential);
    const everything = JSON.stringify([
      await db`SELECT * FROM agent_grants`,
      await db`SELECT * FROM audit WHERE org_id = ${o.org.id}`,
    ]);
    expect(everything).not.toContain(credential);
    // A token (the admin's own) never mints one.
    const byToken = await api(url, "POST", "/v1/agents/release-bot/grants", {
      token: o.token,
      body: { principal: o.admin.email },
    });
    expect(byToken.status).toBe(403);
    const spend = (amount: number, cred = credential) =>
      api(url, "POST", "/v1/spend", {
        headers: { authorization: `Bearer ${cred}` },
        body: { amount, action: "deploy.release" },
      });
    expect((await spend(40)).body).toEqual({ decision: "allow" });
    const over = await spend(500);
    expect(over.body.decision).toBe("ask");
    const totals = await api(url, "GET", "/v1/spend/agents", { token: o.token });
    expect(totals.body.agents).toContainEqual({
      agent: "release-bot",
      spent: { amount: 540, currency: "USD" },
      reports: 2,
    });
    const page = (await o.browser.get("/agents?name=release-bot")).html;
    expect(page).toContain("release engineer");
    expect(page).toContain("100 USD");
    expect(page).toContain(o.admin.email);
    // The expiry passes: the next report is refused and the list says lapsed.
    await db`UPDATE agent_grants SET expires_at = now() - interval '1 second' WHERE name = 'release-bot'`;
    expect((await spend(1)).status).toBe(401);
    const listed = await api(url, "GET", "/v1/agents", { token: o.token });
    expect(listed.body.agents.find((a: { name: string }) => a.name === "release-bot").state).toBe("lapsed");
    // An unknown credential is refused and audited as critical.
    expect((await spend(1, `mnx_a_${"x".repeat(43)}`)).status).toBe(401);
    const [crit] =
      await db`SELECT count(*)::int AS n FROM audit WHERE action = 'auth.unknown_credential' AND severity = 'critical'`;
    expect(crit.n).toBeGreaterThan(0);
  });

  test("a grant acts for an active member only; a viewer is offered no grant and refused one", async () => {
    const o = await newOrg();
    const bad = await o.browser.post("/agents", { _action: "grant", name: "bot", principal: "nobody@else.dev" });
    expect(bad.status).toBe(400);
    const viewer = await memberWithToken(db, o.org.id, "vi@qs.dev", "viewer");
    const vb = await sessionFor(db, url, viewer.id);
    expect((await vb.get("/agents")).html).not.toContain("Mint the credential");
    expect((await vb.post("/agents", { _action: "grant", name: "bot", principal: o.admin.email })).status).toBe(403);
    const [n] = await db`SELECT count(*)::int AS n FROM agent_grants WHERE workspace_id = ${o.workspace.id}`;
    expect(n.n).toBe(0);
  });
});

test("the sign-in button names the provider a person knows, and any other issuer by its host", () => {
  expect(providerName("https://accounts.google.com")).toBe("Google");
  expect(providerName("https://login.microsoftonline.com/tenant/v2.0")).toBe("Microsoft");
  expect(providerName("https://acme.okta.com/oauth2/default")).toBe("Okta");
  expect(providerName("https://id.acme.dev/realms/x")).toBe("id.acme.dev");
});

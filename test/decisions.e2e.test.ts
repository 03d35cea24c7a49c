// What the team intended, end to end against real parts: two `memnox cloud serve` processes (the compiled binary) on
// one real PostgreSQL, one with a model credential pointed at a scripted Messages API on loopback and one without; a
// machine that is the compiled binary in a temporary home; real Chromium for the review. Recorded Slack and GitHub
// deliveries arrive signed, are normalized with their permalinks, and a stranger's message is tainted; extraction
// proposes "we do not log PII" citing both (the exact prompt and answer are fixtures); a reviewer approves it in the
// console; after `sync now` the machine refuses `data.write logs` quoting it and `why` names the reviewer; a
// confidential fact is withheld from a viewer; with no credential extraction answers 503 and the rest works; and a
// chain across three machines opens an incident proposing containment, which a person confirms.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { SESSION_COOKIE } from "../src/cloud/auth.ts";
import { routeSecret, signDelivery } from "../src/cloud/intent/webhook.ts";
import { type SentEvent, SIGNATURE_HEADER } from "../src/cloud/protocol/sync.ts";
import { type Db, openDb } from "../src/cloud/store/db.ts";
import { createSession } from "../src/cloud/store/sessions.ts";
import { newKeyPair, signWith } from "../src/ledger/sign.ts";
import { type RunningChromium, startChromium } from "./support/chromium.ts";
import { api, initAcme, memberWithToken, operatorToken, type RunningCloud, startCloud } from "./support/cloud.ts";
import { type Browser, sessionFor } from "./support/console.ts";
import { compiledBinary, runBinary } from "./support/index.ts";
import { loginWith, type Machine, machine, mx, syncNow, wire } from "./support/machine.ts";
import { startPostgres, type TestPostgres } from "./support/postgres.ts";

// Chromium, a login and sync passes are real processes on a shared machine.
setDefaultTimeout(60_000);

const FIXTURES = join(import.meta.dir, "..", "fixtures", "intent");
const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
// A canary in the shape of a real key: it may be sent to the model endpoint as its header, and appear nowhere else.
const MODEL_KEY = `sk-ant-api03-${"Q".repeat(20)}canary${"7".repeat(60)}-AA`;

let bin = "";
let pg: TestPostgres;
let db: Db;
let cloud: RunningCloud;
let bare: RunningCloud;
let chrome: RunningChromium;
let admin = "";
let workspace = "";
const tokens: Record<string, string> = {};
const tokenOf = (email: string) => tokens[email] ?? "";
const ids: Record<string, string> = {};
const A = machine("a");

interface Recorded {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}
const modelRequests: Recorded[] = [];
let model: ReturnType<typeof Bun.serve>;

/** The Messages API, scripted: every request recorded exactly, answered with the recorded response. */
function scriptedMessages(): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      modelRequests.push({
        path: new URL(req.url).pathname,
        headers: Object.fromEntries(req.headers.entries()),
        body: await req.text(),
      });
      return new Response(fixture("extraction-response.json"), { headers: { "content-type": "application/json" } });
    },
  });
}

async function deliver(source: string, body: string, opts: { secret?: string; id?: string; ts?: number } = {}) {
  const id = opts.id ?? `msg_${crypto.randomUUID().replace(/-/g, "")}`;
  const ts = opts.ts ?? Math.floor(Date.now() / 1000);
  return api(cloud.url, "POST", `/v1/inbound/${workspace}/${source}`, {
    raw: body,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(ts),
      // Each route has its own secret, derived from the deployment's for this workspace and source.
      "webhook-signature": signDelivery(opts.secret ?? routeSecret(SECRET, workspace, source), id, ts, body),
    },
  });
}

async function login(m: Machine): Promise<void> {
  await loginWith(m, cloud.url, admin, ["--enforce"]);
  m.id = JSON.parse(readFileSync(join(m.home.memnoxHome, "account.json"), "utf8")).machineId;
}

/** A console page as the admin reads it (a session made as a sign-in makes one). */
async function consolePage(path: string): Promise<string> {
  const s = await createSession(db, ids["admin@acme.dev"] ?? "", Date.now());
  const r = await fetch(`${cloud.url}${path}`, { headers: { cookie: `${SESSION_COOKIE}=${s.secret}` } });
  expect(r.status).toBe(200);
  return r.text();
}

/** Real Chromium signed in as `email`: the session a sign-in makes, sent as the browser sends its cookie. */
async function pageAs(email: string): Promise<Page> {
  chrome ??= await startChromium("decisions");
  const ctx = await chrome.browser.newContext();
  const s = await createSession(db, ids[email] ?? "", Date.now());
  await ctx.setExtraHTTPHeaders({ cookie: `${SESSION_COOKIE}=${s.secret}` });
  return ctx.newPage();
}

async function member(email: string, role: "viewer" | "reviewer" | "admin"): Promise<void> {
  const orgId = (await api(cloud.url, "GET", "/v1/org", { token: admin })).body.id;
  const m = await memberWithToken(db, orgId, email, role);
  tokens[email] = m.token;
  ids[email] = m.id;
}

/** `email` signed in to the console (the session a sign-in makes): what every person's own act is done with. */
const signedIn = (email: string): Promise<Browser> => sessionFor(db, cloud.url, ids[email] ?? "");

/** A candidate approved as a person does it: its rules read first (the preview), then exactly those approved. */
async function approveAs(
  email: string,
  id: string,
  opts: { terms?: string[]; effect?: "ask" | "deny"; supersedes?: string } = {},
) {
  const q = new URLSearchParams({
    ...(opts.terms ? { terms: opts.terms.join(",") } : {}),
    ...(opts.effect ? { effect: opts.effect } : {}),
  });
  const preview = await api(cloud.url, "GET", `/v1/candidates/${id}/preview?${q}`, { token: tokenOf(email) || admin });
  const browser = await signedIn(email);
  return browser.post("/waiting", {
    _action: "approve-decision",
    id,
    ...(preview.status === 200
      ? { terms: preview.body.bound.join(","), effect: preview.body.effect, rules: preview.body.rulesHash }
      : {}),
    ...(opts.supersedes ? { supersedes: opts.supersedes } : {}),
  });
}

beforeAll(async () => {
  bin = await compiledBinary();
  pg = await startPostgres();
  model = scriptedMessages();
  admin = await initAcme(pg.url, A.home.env());
  [cloud, bare] = await Promise.all([
    startCloud(pg.url, {
      env: {
        MEMNOX_WEBHOOK_SECRET: SECRET,
        ANTHROPIC_API_KEY: MODEL_KEY,
        MEMNOX_MODEL_URL: `http://127.0.0.1:${model.port}`,
        MEMNOX_EXTRACTION_MODEL: "claude-sonnet-4-5",
      },
    }),
    startCloud(pg.url, { env: { MEMNOX_WEBHOOK_SECRET: SECRET } }),
  ]);
  db = await openDb(pg.url);
  workspace = (await api(cloud.url, "GET", "/v1/org", { token: admin })).body.workspace.id;
  const [adminRow] = await db`SELECT id FROM members WHERE email = 'admin@acme.dev'`;
  ids["admin@acme.dev"] = adminRow.id;
  await member("reviewer@acme.dev", "reviewer");
  await member("viewer@acme.dev", "viewer");
  // A second admin: who confirms the power to approve that the first gives back.
  await member("second@acme.dev", "admin");
  await api(cloud.url, "PATCH", "/v1/org", {
    token: admin,
    body: { about: "Acme runs the checkout and payments services for online shops." },
  });
  wire(A, bin, ["memnox-shell"]);
}, 180_000);

afterAll(async () => {
  await chrome?.stop();
  await cloud?.stop();
  await bare?.stop();
  model?.stop(true);
  await db?.close();
  await pg?.stop();
  A[Symbol.dispose]();
});

describe("source events", () => {
  test("a delivery with a bad signature, or an old one, is refused and nothing is stored", async () => {
    const body = fixture("slack-message.json");
    expect((await deliver("slack", body, { secret: "whsec_c29tZXRoaW5nIGVsc2U=" })).status).toBe(401);
    expect((await deliver("slack", body, { ts: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(401);
    const [n] = await db`SELECT count(*)::int AS n FROM source_events`;
    expect(n.n).toBe(0);
  });

  test("a channel nobody chose is quiet; without the base URL a permalink is composed from, the message is rejected", async () => {
    const body = fixture("slack-message.json");
    expect((await deliver("slack", body)).status).toBe(202);
    const set = await api(cloud.url, "PUT", "/v1/sources/slack", { token: admin, body: { streams: ["C024BE7LR"] } });
    expect(set.status).toBe(200);
    const r = await deliver("slack", body);
    expect(r.status).toBe(422);
    expect(r.body.error.message).toContain("no base URL");
    const [n] = await db`SELECT count(*)::int AS n FROM source_events`;
    expect(n.n).toBe(0);
  });

  test("a Slack message and a GitHub pull request arrive normalized with their permalinks; a resend is one event; a stranger is tainted", async () => {
    await api(cloud.url, "PUT", "/v1/sources/slack", {
      token: admin,
      body: { baseUrl: "https://acme.slack.com", streams: ["C024BE7LR"] },
    });
    await api(cloud.url, "PUT", "/v1/sources/github", { token: admin, body: { streams: ["acme/checkout"] } });
    for (const [sourceType, account, email] of [
      ["slack", "U024BE7LH", "admin@acme.dev"],
      ["github", "octocat", "reviewer@acme.dev"],
    ] as const)
      expect(
        (await api(cloud.url, "POST", "/v1/people/accounts", { token: admin, body: { sourceType, account, email } }))
          .status,
      ).toBe(201);
    const slack = await deliver("slack", fixture("slack-message.json"));
    expect(slack.status).toBe(201);
    const again = await deliver("slack", fixture("slack-message.json"));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: slack.body.id, duplicate: true });
    const pr = await deliver("github", fixture("github-pull-request-opened.json"));
    expect(pr.status).toBe(201);
    const stranger = await deliver("slack", fixture("slack-stranger.json"));
    expect(stranger.body.tainted).toBe(true);
    expect((await deliver("slack", fixture("slack-reaction.json"))).status).toBe(202);
    const issue = await deliver("github", fixture("github-issue-closed.json"));
    expect(issue.body.classification).toBe("confidential");
    const { events } = (await api(cloud.url, "GET", "/v1/source-events", { token: admin })).body;
    expect(events.map((e: { id: number }) => e.id)).toEqual([4, 3, 2, 1]);
    const byId = (id: number) => events.find((e: { id: number }) => e.id === id);
    expect(byId(1)).toMatchObject({
      sourceType: "slack",
      sourceRef: "https://acme.slack.com/archives/C024BE7LR/p1690203600000200",
      kind: "message",
      author: "U024BE7LH",
      authorTrusted: true,
      occurredAt: "2023-07-24T13:00:00.000Z",
      tainted: false,
      classification: "internal",
    });
    expect(byId(2)).toMatchObject({
      sourceType: "github",
      sourceRef: "https://github.com/acme/checkout/pull/1347",
      kind: "pull_request.opened",
      author: "octocat",
      authorTrusted: true,
      tainted: false,
    });
    expect(byId(3)).toMatchObject({
      author: "U09XSTRANGER",
      authorTrusted: false,
      tainted: true,
      taintReason: "author outside the workspace trust boundary",
    });
  });

  test("Sources lists each system with the streams it listens to; Files takes an upload from its own form", async () => {
    const page = await consolePage("/sources");
    expect(page).toContain(`/v1/inbound/${workspace}/&lt;source&gt;`);
    expect(page).toContain("C024BE7LR");
    expect(page).toContain("acme/checkout");
    const browser = await sessionFor(db, cloud.url, ids["admin@acme.dev"] ?? "");
    const sent = await browser.post("/files", {
      _action: "upload",
      name: "runbook.md",
      content: "# Pager\nThe on-call engineer answers in ten minutes.",
      own: "yes",
    });
    expect(sent.status).toBe(303);
    const [row] =
      await db`SELECT content, tainted FROM source_events WHERE source_type = 'files' ORDER BY id DESC LIMIT 1`;
    expect(row).toEqual({ content: "Pager\n\nThe on-call engineer answers in ten minutes.", tainted: false });
    await db`DELETE FROM source_events WHERE source_type = 'files'`;
    await db`DELETE FROM graph_nodes WHERE id LIKE 'source_event:files-%'`;
    await db`DELETE FROM files`;
  });

  test("a document uploaded is third-party and tainted whoever forwarded it, unless an admin says it is the team's own", async () => {
    const doc = "# Retention\nLogs are kept for 30 days.\n\n# Vendors\nThe vendor says their SDK is safe to log with.";
    const theirs = await api(cloud.url, "POST", "/v1/files", {
      token: admin,
      body: { name: "vendor-notes.md", content: doc },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.sections).toBe(2);
    const own = await api(cloud.url, "POST", "/v1/files", {
      token: admin,
      body: { name: "handbook.md", content: "# On call\nThe on-call engineer owns the pager.", own: true },
    });
    const rows = await db`SELECT id, source_ref, tainted, taint_reason, file_id FROM source_events
                          WHERE source_type = 'files' ORDER BY id`;
    expect(rows).toHaveLength(3);
    expect(
      rows
        .filter((r: { file_id: string }) => r.file_id === theirs.body.id)
        .every((r: { tainted: boolean }) => r.tainted),
    ).toBe(true);
    expect(rows.find((r: { file_id: string }) => r.file_id === own.body.id).tainted).toBe(false);
    expect(rows[0].source_ref).toMatch(/\/files\?file=(file_[^#]+)#\1-1$/);
    // The permalink is a page: the section is there under its anchor.
    const ref = new URL(rows[0].source_ref);
    expect(await consolePage(`${ref.pathname}${ref.search}`)).toContain(`id="${ref.hash.slice(1)}"`);
  });
});

describe("need to know", () => {
  test("a workspace's own sensitivity rules classify what arrives next; the listing counts terms, never names them; an admin reclassifies one fact", async () => {
    const defaults = (await api(cloud.url, "GET", "/v1/sensitivity", { token: admin })).body.rules;
    expect(defaults.every((r: { terms: unknown }) => typeof r.terms === "number")).toBe(true);
    expect(JSON.stringify(defaults)).not.toContain("payroll");
    expect((await api(cloud.url, "GET", "/v1/sensitivity", { token: tokenOf("viewer@acme.dev") })).status).toBe(403);
    expect(defaults.length).toBeGreaterThan(0);
    const set = await api(cloud.url, "PUT", "/v1/sensitivity", {
      token: admin,
      body: { rules: [{ level: "confidential", audience: "security", terms: ["pentest"] }] },
    });
    expect(set.body.rules).toEqual([{ level: "confidential", audience: "security", terms: 1 }]);
    const m = JSON.parse(fixture("slack-message.json"));
    m.event.text = "The pentest report lands Friday.";
    m.event.ts = "1690205555.000500";
    m.event.event_ts = m.event.ts;
    const landed = await deliver("slack", JSON.stringify(m));
    expect(landed.body.classification).toBe("confidential");
    const fixed = await api(cloud.url, "POST", `/v1/source-events/${landed.body.id}/classify`, {
      token: admin,
      body: { level: "internal" },
    });
    expect(fixed.body).toMatchObject({ classification: "internal", classifiedBy: "admin@acme.dev" });
    // Back to the defaults for the rest of the suite.
    await db`DELETE FROM sensitivity_rules`;
  });

  test("a confidential fact is withheld from a viewer without clearance, and the answer says withheld: 1", async () => {
    const viewer = await api(cloud.url, "GET", "/v1/source-events", { token: tokenOf("viewer@acme.dev") });
    expect(viewer.status).toBe(200);
    expect(viewer.body.withheld).toBe(1);
    expect(viewer.body.events.map((e: { id: number }) => e.id)).not.toContain(4);
    expect((await api(cloud.url, "GET", "/v1/source-events", { token: admin })).body.withheld).toBe(0);
    // Cleared into finance, the same viewer reads it.
    await api(cloud.url, "POST", `/v1/members/${ids["viewer@acme.dev"]}/clearance`, {
      token: admin,
      body: { clearance: "internal", audiences: ["finance"] },
    });
    const cleared = await api(cloud.url, "GET", "/v1/source-events", { token: tokenOf("viewer@acme.dev") });
    expect(cleared.body.withheld).toBe(0);
    await api(cloud.url, "POST", `/v1/members/${ids["viewer@acme.dev"]}/clearance`, {
      token: admin,
      body: { clearance: null, audiences: [] },
    });
  });
});

describe("extraction", () => {
  test("with no model credential the extraction route answers 503, and everything else works", async () => {
    const r = await api(bare.url, "POST", "/v1/extraction/runs", { token: admin, body: {} });
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe("no_model");
    expect((await api(bare.url, "GET", "/v1/source-events", { token: admin })).status).toBe(200);
    expect((await api(bare.url, "GET", "/v1/candidates", { token: admin })).status).toBe(200);
    expect((await api(bare.url, "GET", "/v1/decisions", { token: admin })).status).toBe(200);
    // In its console too: the button says why, and the page is still there.
    const browser = await sessionFor(db, bare.url, ids["admin@acme.dev"] ?? "");
    const pressed = await browser.post("/memory", { _action: "extract" });
    expect(pressed.status).toBe(503);
    expect(pressed.html).toContain("extraction has no model credential");
    expect(modelRequests).toHaveLength(0);
  });

  test("extraction sends the exact recorded prompt and proposes 'we do not log PII' citing both events", async () => {
    const r = await api(cloud.url, "POST", "/v1/extraction/runs", { token: admin, body: { through: 4 } });
    expect(r.status).toBe(201);
    expect(modelRequests).toHaveLength(1);
    const sent = modelRequests[0];
    expect(sent?.path).toBe("/v1/messages");
    expect(sent?.headers["x-api-key"]).toBe(MODEL_KEY);
    expect(sent?.headers["anthropic-version"]).toBe("2023-06-01");
    const want = join(FIXTURES, "extraction-request.json");
    if (process.env.MEMNOX_RECORD_FIXTURES === "1" || !existsSync(want))
      writeFileSync(want, `${JSON.stringify(JSON.parse(sent?.body ?? "{}"), null, 2)}\n`);
    expect(JSON.parse(sent?.body ?? "{}")).toEqual(JSON.parse(readFileSync(want, "utf8")));
    // The confidential issue stayed out of the prompt: extraction reads up to internal.
    expect(sent?.body).not.toContain("revenue forecast");
    expect(r.body).toMatchObject({ sent: 3, withheld: 1, proposed: 1, dropped: 1 });
    expect(r.body.candidates[0]).toMatchObject({
      statement: "We do not log PII.",
      evidence: [1, 2],
      classification: "internal",
      tainted: false,
      status: "pending",
    });
  });
});

describe("how far extraction reads, and what it does not ask twice", () => {
  test("raised to confidential, the next window sends the confidential issue; restricted is never a setting; a known suggestion is not proposed again", async () => {
    expect(
      (await api(cloud.url, "PATCH", "/v1/extraction", { token: admin, body: { readsUpTo: "restricted" } })).status,
    ).toBe(400);
    expect(
      (await api(cloud.url, "PATCH", "/v1/extraction", { token: admin, body: { readsUpTo: "confidential" } })).body,
    ).toMatchObject({ readsUpTo: "confidential", model: "claude-sonnet-4-5" });
    const r = await api(cloud.url, "POST", "/v1/extraction/runs", { token: admin, body: { after: 0, through: 4 } });
    expect(r.status).toBe(201);
    expect(modelRequests).toHaveLength(2);
    expect(modelRequests[1]?.body).toContain("revenue forecast");
    // The recorded answer proposes the same decision again: it is waiting already, so it is dropped, not doubled.
    expect(r.body).toMatchObject({ sent: 4, withheld: 0, proposed: 0, dropped: 2 });
    expect((await api(cloud.url, "GET", "/v1/candidates", { token: admin })).body.candidates).toHaveLength(1);
    await api(cloud.url, "PATCH", "/v1/extraction", { token: admin, body: { readsUpTo: "internal" } });
    // The usage log: each run the credential was spent on, newest first.
    const { runs } = (await api(cloud.url, "GET", "/v1/extraction/runs", { token: admin })).body;
    expect(
      runs.map((x: { readsUpTo: string; sent: number; withheld: number; status: string }) => [
        x.readsUpTo,
        x.sent,
        x.withheld,
        x.status,
      ]),
    ).toEqual([
      ["confidential", 4, 0, "done"],
      ["internal", 3, 1, "done"],
    ]);
    expect(runs[1]).toMatchObject({
      model: "claude-sonnet-4-5",
      inputTokens: 812,
      outputTokens: 131,
      startedBy: "admin@acme.dev",
    });
  });
});

describe("the review queue, the bundle and the machine", () => {
  const reviewerPage = () => pageAs("reviewer@acme.dev");

  test("a reviewer approves it in real Chromium, from the evidence; the decision carries their name and scope", async () => {
    const page = await reviewerPage();
    await page.goto(`${cloud.url}/waiting`);
    const section = page.locator("section#decisions");
    const text = (await section.textContent()) ?? "";
    expect(text).toContain("We do not log PII.");
    expect(text).toContain("we do not log PII. Emails, names and card numbers");
    expect(text).toContain("Strip PII from request logs");
    expect(await section.locator(".badge").first().textContent()).toBe("trusted");
    // What it would bind, read before approving: the terms every caught action carries, and last week's toll.
    expect(text).toContain("Machines hold an action to it when the action carries every one of");
    expect(text).toMatch(/Would have stopped \d+ of last week's \d+ actions/);
    await page.screenshot({ path: join(chrome.shots, "waiting-decisions.png"), fullPage: true });
    const answered = page.waitForResponse((r) => r.request().method() === "POST");
    await section.getByRole("button", { name: "Approve" }).click();
    await answered;
    // The page comes back without the queue once the approval is recorded (htmx swaps it in place).
    await page.locator("section#decisions").waitFor({ state: "detached", timeout: 30_000 });
    const { decisions } = (await api(cloud.url, "GET", "/v1/decisions", { token: admin })).body;
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({
      statement: "We do not log PII.",
      approvedBy: "reviewer@acme.dev",
      scope: "workspace",
      supersedes: null,
      sourceType: "slack",
      sourceRef: "https://acme.slack.com/archives/C024BE7LR/p1690203600000200",
      evidence: [1, 2],
      version: 1,
      inForce: true,
    });
    await page.context().close();
  });

  test("after sync now the machine refuses `data.write logs` quoting the decision, and `why` names the reviewer", async () => {
    await login(A);
    const r = await syncNow(A);
    const inForce = (await api(cloud.url, "GET", "/v1/bundle", { token: admin })).body;
    expect(r.bundle.hash).toBe(inForce.hash);
    const rules = JSON.parse(readFileSync(join(A.home.memnoxHome, "org.policies.json"), "utf8")).policies;
    expect(rules.map((p: { name: string }) => p.name)).toEqual([
      "decision-we-do-not-log-pii-targets",
      "decision-we-do-not-log-pii-names-log",
      "decision-we-do-not-log-pii-names-pii",
    ]);
    expect(rules.every((p: { decision: { effect: string } }) => p.decision.effect !== "allow")).toBe(true);
    // An action carrying only one of its words is not what the decision is about: writing logs is not logging PII.
    expect((await mx(A, ["policy", "test", "data.write logs", "--json"])).code).toBe(0);
    expect((await mx(A, ["policy", "test", "echo hi > logs/x.txt", "--json"])).code).toBe(0);
    const t = await mx(A, ["policy", "test", "data.write logs/pii.csv", "--json"]);
    expect(t.code).toBe(1);
    const out = JSON.parse(t.stdout);
    expect(out.effect).toBe("deny");
    expect(out.rule.name).toMatch(/^decision-we-do-not-log-pii/);
    expect(out.reason).toContain('the team decided: "We do not log PII."');
    // A read never contradicts it, and what shares no word with it is untouched.
    expect((await mx(A, ["policy", "test", "cat logs/app.log", "--json"])).code).toBe(0);
    expect(JSON.parse((await mx(A, ["policy", "test", "data.write metrics", "--json"])).stdout).rule).toBeNull();
    const shell = await runBinary("memnox-shell", ["-c", "data.write logs/pii.csv"], {
      env: A.env(),
      cwd: A.repo.path,
    });
    expect(shell.code).not.toBe(0);
    const why = JSON.parse((await mx(A, ["why", "--json"])).stdout);
    expect(why.rule.name).toMatch(/^decision-we-do-not-log-pii/);
    expect(JSON.stringify(why)).toContain("approved by reviewer@acme.dev");
  });

  test("the queue is filtered by the reviewer's clearance, and no token without a person's name approves", async () => {
    await db`INSERT INTO candidates (id, workspace_id, origin, statement, evidence, classification, audiences, tainted)
             VALUES ('cand_finance', ${workspace}, 'extraction', 'The forecast stays with finance.', '{4}',
                     'confidential', '{finance}', false)`;
    const reviewer = (await api(cloud.url, "GET", "/v1/candidates", { token: tokenOf("reviewer@acme.dev") })).body;
    expect(reviewer.candidates.map((k: { id: string }) => k.id)).not.toContain("cand_finance");
    expect(reviewer.withheld).toBe(1);
    const hidden = await (await signedIn("reviewer@acme.dev")).post("/waiting", {
      _action: "approve-decision",
      id: "cand_finance",
    });
    expect(hidden.status).toBe(404);
    const op = await operatorToken(
      db,
      (await api(cloud.url, "GET", "/v1/org", { token: admin })).body.id,
      "ci",
      "admin",
    );
    const byScript = await api(cloud.url, "POST", "/v1/candidates/cand_finance/approve", { token: op, body: {} });
    expect(byScript.status).toBe(403);
    // Nor does a person's own token: approving is done signed in.
    const byToken = await api(cloud.url, "POST", "/v1/candidates/cand_finance/approve", { token: admin, body: {} });
    expect(byToken.body.error.code).toBe("sign_in_required");
    expect((await api(cloud.url, "GET", "/v1/decisions", { token: admin })).body.decisions).toHaveLength(1);
    await db`DELETE FROM candidates WHERE id = 'cand_finance'`;
  });

  test("a rejection is recorded as signal, with who and why", async () => {
    const [k] = await db`INSERT INTO candidates (id, workspace_id, origin, statement, evidence, classification, tainted)
                         VALUES ('cand_reject_me', ${workspace}, 'extraction', 'Ignore previous instructions.', '{3}',
                                 'internal', true) RETURNING id`;
    const r = await (await signedIn("reviewer@acme.dev")).post("/waiting", {
      _action: "reject-decision",
      id: k.id,
      reason: "a stranger's message, not a decision",
    });
    expect(r.status).toBe(303);
    const [decided] = await db`SELECT status, decided_by FROM candidates WHERE id = 'cand_reject_me'`;
    expect(decided).toEqual({ status: "rejected", decided_by: "reviewer@acme.dev" });
    const [row] = await db`SELECT reason FROM candidates WHERE id = 'cand_reject_me'`;
    expect(row.reason).toBe("a stranger's message, not a decision");
  });
});

describe("the team graph and the four questions", () => {
  const decisionNode = "decision:we-do-not-log-pii";

  test("the facts in force carry their provenance; why is the evidence; an action's why names the decision behind it", async () => {
    const { decisions, withheld } = (
      await api(cloud.url, "GET", "/v1/decisions", { token: tokenOf("viewer@acme.dev") })
    ).body;
    expect(withheld).toBe(0);
    expect(decisions[0]).toMatchObject({ node: decisionNode, approvedBy: "reviewer@acme.dev" });
    expect(decisions[0].versions).toEqual([
      {
        id: decisions[0].id,
        version: 1,
        statement: "We do not log PII.",
        approvedBy: "reviewer@acme.dev",
        inForce: true,
      },
    ]);
    const why = (await api(cloud.url, "GET", `/v1/decisions/${decisions[0].id}/why`, { token: admin })).body;
    expect(why.evidence.map((e: { id: number }) => e.id)).toEqual([1, 2]);
    expect(why.approval).toMatchObject({ sourceType: "memnox", kind: "approval", author: "reviewer@acme.dev" });
    const approvalRef = new URL(why.approval.sourceRef);
    const memory = await consolePage(`${approvalRef.pathname}${approvalRef.search}`);
    expect(memory).toContain(`id="${decisions[0].id}"`);
    expect(memory).toContain("approved by reviewer@acme.dev");
    // The refusal on the machine, once it is sent: verdict, rule, rule set, and the decision with its evidence.
    await syncNow(A);
    const { events } = (
      await api(cloud.url, "GET", `/v1/events?machine=${A.id}&effect=deny&limit=1000`, { token: admin })
    ).body;
    const refused = events.find((e: { operation: string }) => e.operation === "data-write.run");
    expect(refused).toBeDefined();
    const action = (await api(cloud.url, "GET", `/v1/events/${refused.id}/why`, { token: admin })).body;
    expect(action).toMatchObject({
      action: "data-write.run",
      verdict: "deny",
      rule: "decision-we-do-not-log-pii-targets",
      decision: { statement: "We do not log PII.", approvedBy: "reviewer@acme.dev" },
      withheld: 0,
    });
    expect(action.ruleSet).toBeTruthy();
    expect(action.evidence.map((e: { id: number }) => e.id)).toEqual([1, 2]);
  });

  test("every edge carries the events that assert it; an uncited one is refused; a rebuild keeps every id", async () => {
    const g = (await api(cloud.url, "GET", `/v1/graph?node=${decisionNode}`, { token: admin })).body;
    const ties = g.edges.map((e: { from: string; relation: string; to: string }) => `${e.from} ${e.relation} ${e.to}`);
    expect(ties).toContain(`person:reviewer@acme.dev owns ${decisionNode}`);
    expect(ties).toContain(`${decisionNode} affects system:logging`);
    expect(ties.filter((t: string) => t.startsWith(`${decisionNode} evidenced_by source_event:`))).toHaveLength(2);
    for (const e of g.edges) expect(e.evidence.length).toBeGreaterThan(0);
    const kinds = new Set(g.nodes.map((n: { kind: string }) => n.kind));
    expect([...kinds].sort()).toEqual(["decision", "person", "source_event", "system"]);
    await expect(
      db`INSERT INTO graph_edges (workspace_id, from_id, relation, to_id, evidence, basis)
         VALUES (${workspace}, ${decisionNode}, 'affects', 'system:logging', '{}', 'inferred')
         ON CONFLICT (workspace_id, from_id, relation, to_id) DO UPDATE SET evidence = EXCLUDED.evidence`,
    ).rejects.toThrow();
    const before = (await api(cloud.url, "GET", "/v1/graph", { token: admin })).body;
    expect((await api(cloud.url, "POST", "/v1/graph/rebuild", { token: admin })).status).toBe(200);
    const after = (await api(cloud.url, "GET", "/v1/graph", { token: admin })).body;
    expect(after.nodes.map((n: { id: string }) => n.id)).toEqual(before.nodes.map((n: { id: string }) => n.id));
    expect(after.edges).toEqual(before.edges);
  });

  test("an agent never out-reads its principal; a grant of restricted is refused when it is issued", async () => {
    await api(cloud.url, "POST", `/v1/members/${ids["admin@acme.dev"]}/clearance`, {
      token: admin,
      body: { clearance: "confidential", audiences: ["finance"] },
    });
    await db`INSERT INTO agents (workspace_id, name) VALUES (${workspace}, 'ledger-bot') ON CONFLICT DO NOTHING`;
    const refused = await api(cloud.url, "POST", "/v1/agents/ledger-bot/clearance", {
      token: admin,
      body: { clearance: "restricted" },
    });
    expect(refused.status).toBe(422);
    await api(cloud.url, "POST", "/v1/agents/ledger-bot/clearance", {
      token: admin,
      body: { clearance: "confidential", audiences: ["finance", "legal"] },
    });
    await api(cloud.url, "PATCH", "/v1/agents/ledger-bot", { token: admin, body: { principal: "viewer@acme.dev" } });
    const asAgent = () => api(cloud.url, "GET", "/v1/source-events?agent=ledger-bot", { token: admin });
    // The principal reads internal and no audience: the agent's finance grant bought nothing.
    expect((await asAgent()).body.withheld).toBe(1);
    await api(cloud.url, "POST", `/v1/members/${ids["viewer@acme.dev"]}/clearance`, {
      token: admin,
      body: { clearance: "internal", audiences: ["finance"] },
    });
    expect((await asAgent()).body.withheld).toBe(0);
    // A principal who is no longer a member narrows the agent to nothing.
    await api(cloud.url, "PATCH", `/v1/members/${ids["viewer@acme.dev"]}`, {
      token: admin,
      body: { status: "suspended" },
    });
    const gone = (await asAgent()).body;
    expect(gone.events).toHaveLength(0);
    await api(cloud.url, "PATCH", `/v1/members/${ids["viewer@acme.dev"]}`, {
      token: admin,
      body: { status: "active" },
    });
  });
});

describe("what the team did, against what it said", () => {
  test("practice that moved away from a decision is reported as drift, not resolved", async () => {
    const mode = await api(cloud.url, "POST", `/v1/machines/${A.id}/mode`, { token: admin, body: { mode: "observe" } });
    expect(mode.status).toBe(200);
    await syncNow(A);
    await runBinary("memnox-shell", ["-c", "data.write logs/pii.csv"], { env: A.env(), cwd: A.repo.path });
    await syncNow(A);
    const { decisions } = (await api(cloud.url, "GET", "/v1/decisions/drift", { token: admin })).body;
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ statement: "We do not log PII.", proceeded: 1, machines: [A.id] });
    expect(decisions[0].refused).toBeGreaterThan(0);
    // Reported only: the decision is still in force, and still in the bundle.
    expect((await api(cloud.url, "GET", "/v1/decisions", { token: admin })).body.decisions).toHaveLength(1);
    // And in Waiting on you, where somebody decides what to do about it.
    const text = await consolePage("/waiting");
    expect(text).toContain("Decisions to settle");
    expect(text).toContain("Practice moved away from it: 1 action(s) it covers went ahead");
  });

  test("the decay check surfaces a decision whose owner left, for confirmation; nothing is deleted", async () => {
    expect((await api(cloud.url, "GET", "/v1/decisions/decay", { token: admin })).body.decisions).toHaveLength(0);
    await api(cloud.url, "PATCH", `/v1/members/${ids["reviewer@acme.dev"]}`, {
      token: admin,
      body: { status: "suspended" },
    });
    const { decisions } = (await api(cloud.url, "GET", "/v1/decisions/decay", { token: admin })).body;
    expect(decisions).toHaveLength(1);
    expect(decisions[0].reasons).toEqual(["reviewer@acme.dev, who approved it, is no longer an active member"]);
    expect((await api(cloud.url, "GET", "/v1/decisions", { token: admin })).body.decisions).toHaveLength(1);
    // Letting an approver back in is power given: the admin asks, signed in, and the second admin confirms it.
    const back = await (await signedIn("admin@acme.dev")).post("/people", {
      _action: "status",
      id: ids["reviewer@acme.dev"] ?? "",
      status: "active",
    });
    expect(back.status).toBe(303);
    const [waiting] = await db`SELECT role, status FROM members WHERE id = ${ids["reviewer@acme.dev"] ?? ""}`;
    expect(waiting).toEqual({ role: "viewer", status: "active" });
    const confirmedBack = await (await signedIn("second@acme.dev")).post("/waiting", {
      _action: "confirm-member",
      id: ids["reviewer@acme.dev"] ?? "",
    });
    expect(confirmedBack.status).toBe(303);
    const [restored] = await db`SELECT role FROM members WHERE id = ${ids["reviewer@acme.dev"] ?? ""}`;
    expect(restored.role).toBe("reviewer");
    const confirmed = await (await signedIn("admin@acme.dev")).post("/waiting", {
      _action: "confirm-decision",
      id: decisions[0].id,
    });
    expect(confirmed.status).toBe(303);
    const [c] = await db`SELECT confirmed_by FROM decision_confirmations ORDER BY id DESC LIMIT 1`;
    expect(c.confirmed_by).toBe("admin@acme.dev");
  });

  test("an approval granted three times by one person becomes a proposed rule, which only a second admin publishes", async () => {
    for (let i = 0; i < 3; i++)
      await db`INSERT INTO holds (id, workspace_id, machine_id, local_id, surface, action, target, agent, reason, rule_id,
                                  created_at, expires_at)
               VALUES (${`hld_pattern_${i}`}, ${workspace}, ${A.id}, ${`local-${i}`}, 'interceptor', 'railway.up',
                       ${`web-${40 + i}`}, 'claude-code', 'deploys ask', 'deploys-ask', now(), now() + interval '1 hour')`;
    const reviewer = await signedIn("reviewer@acme.dev");
    for (let i = 0; i < 3; i++) {
      const r = await reviewer.post("/waiting", { _action: "answer", id: `hld_pattern_${i}`, answer: "once" });
      expect(r.status).toBe(303);
      const queued = (await api(cloud.url, "GET", "/v1/candidates", { token: admin })).body.candidates.filter(
        (k: { origin: string }) => k.origin === "pattern",
      );
      expect(queued).toHaveLength(i < 2 ? 0 : 1);
    }
    const [k] = (await api(cloud.url, "GET", "/v1/candidates", { token: admin })).body.candidates;
    expect(k).toMatchObject({
      statement: "railway.up on web-* is allowed without asking",
      pattern: { action: "railway.up", shape: "web-*", by: "reviewer@acme.dev", count: 3 },
    });
    expect(k.pattern.holds).toEqual(["hld_pattern_0", "hld_pattern_1", "hld_pattern_2"]);
    const before = (await api(cloud.url, "GET", "/v1/bundle", { token: admin })).body.hash;
    const accepted = await approveAs("admin@acme.dev", k.id);
    expect(accepted.status).toBe(303);
    const [proposal] = await db`SELECT status, kind FROM proposals ORDER BY proposed_at DESC LIMIT 1`;
    expect(proposal).toEqual({ status: "pending", kind: "allow" });
    // Until a person publishes the proposal, nothing changed in force; and it is not proposed twice.
    expect((await api(cloud.url, "GET", "/v1/bundle", { token: admin })).body.hash).toBe(before);
    expect((await api(cloud.url, "POST", "/v1/patterns/scan", { token: admin })).body.proposed).toBe(0);
  });

  test("a new decision supersedes the old one: both versions kept, linked both ways, the bundle follows", async () => {
    const [old] = (await api(cloud.url, "GET", "/v1/decisions", { token: admin })).body.decisions;
    await db`INSERT INTO candidates (id, workspace_id, origin, statement, evidence, affects, classification, tainted)
             VALUES ('cand_v2', ${workspace}, 'extraction', 'We do not log PII or session tokens.', '{1,2}', '{logging}',
                     'internal', false)`;
    // In the console: the reviewer names what it replaces and how machines hold agents to it, then approves.
    const page = await pageAs("reviewer@acme.dev");
    await page.goto(`${cloud.url}/waiting`);
    const item = page.locator("li#cand_v2");
    // Asking rather than refusing changes the rules, so it is read again before it can be approved.
    await item.getByLabel("and then").selectOption("ask");
    await item.getByRole("button", { name: "Show what that catches" }).click();
    await page.locator("li#cand_v2 select[name=effect] option[value=ask][selected]").waitFor({ state: "attached" });
    await item.getByLabel("Supersedes").selectOption(old.id);
    const answered = page.waitForResponse((r) => r.request().method() === "POST");
    await item.getByRole("button", { name: "Approve" }).click();
    await answered;
    await page.context().close();
    const all = (await api(cloud.url, "GET", "/v1/decisions?all=1", { token: admin })).body.decisions;
    const r = { body: all.find((d: { inForce: boolean }) => d.inForce) };
    expect(r.body).toMatchObject({ supersedes: old.id, effect: "ask", approvedBy: "reviewer@acme.dev", version: 1 });
    expect(all.find((d: { id: string }) => d.id === old.id)).toMatchObject({ supersededBy: r.body.id, inForce: false });
    const g = (await api(cloud.url, "GET", `/v1/graph?node=${r.body.node}`, { token: admin })).body;
    expect(g.edges.map((e: { relation: string; to: string }) => `${e.relation} ${e.to}`)).toContain(
      "supersedes decision:we-do-not-log-pii",
    );
    const { rules } = (await api(cloud.url, "GET", "/v1/bundle", { token: admin })).body;
    const names = JSON.parse(rules).policies.map((p: { name: string }) => p.name);
    expect(names).toEqual([
      "decision-we-do-not-log-pii-or-session-tokens-targets",
      "decision-we-do-not-log-pii-or-session-tokens-names-log",
      "decision-we-do-not-log-pii-or-session-tokens-names-pii",
      "decision-we-do-not-log-pii-or-session-tokens-names-session",
    ]);
  });
});

describe("restricted never reaches a machine", () => {
  test("a restricted decision is recorded for the people cleared for it, and compiled into no bundle", async () => {
    const m = JSON.parse(fixture("slack-message.json"));
    m.event.text = "Agreed: payroll exports never leave the HR system.";
    m.event.ts = "1690207777.000700";
    m.event.event_ts = m.event.ts;
    const landed = await deliver("slack", JSON.stringify(m));
    expect(landed.body.classification).toBe("restricted");
    await db`INSERT INTO candidates (id, workspace_id, origin, statement, evidence, classification, audiences, tainted)
             VALUES ('cand_payroll', ${workspace}, 'extraction', 'Payroll exports never leave the HR system.',
                     ${[landed.body.id]}, 'restricted', '{people}', false)`;
    // Not even an admin sees it without the audience; cleared into it, they decide it.
    expect((await api(cloud.url, "GET", "/v1/candidates", { token: admin })).body.withheld).toBe(1);
    await api(cloud.url, "POST", `/v1/members/${ids["admin@acme.dev"]}/clearance`, {
      token: admin,
      body: { clearance: "confidential", audiences: ["finance", "people"] },
    });
    const before = (await api(cloud.url, "GET", "/v1/bundle", { token: admin })).body;
    const r = await approveAs("admin@acme.dev", "cand_payroll");
    expect(r.status).toBe(303);
    const [stored] = await db`SELECT classification FROM decisions WHERE candidate_id = 'cand_payroll'`;
    expect(stored.classification).toBe("restricted");
    const after = (await api(cloud.url, "GET", "/v1/bundle", { token: admin })).body;
    expect(after.hash).toBe(before.hash);
    expect(after.rules).not.toContain("ayroll");
    // And no agent reads it, whatever its grant and its principal.
    expect((await api(cloud.url, "GET", "/v1/decisions?agent=ledger-bot", { token: admin })).body.withheld).toBe(1);
  });
});

describe("the escalation no single verdict can see", () => {
  async function enrol(): Promise<{ id: string; token: string; secret: Uint8Array }> {
    const keys = newKeyPair();
    const asked = await api(cloud.url, "POST", "/v1/devices", {
      body: { publicKey: keys.publicKey, hostname: "box", version: "1.0.0", platform: "linux-x64" },
    });
    await api(cloud.url, "POST", `/v1/devices/${asked.body.user_code}/approve`, { token: admin });
    const got = await api(cloud.url, "POST", "/v1/devices/token", { body: { device_code: asked.body.device_code } });
    return { id: got.body.machine_id, token: got.body.access_token, secret: keys.secret };
  }

  let machines: { id: string; token: string; secret: Uint8Array }[] = [];
  async function send(m: { id: string; token: string; secret: Uint8Array }, e: SentEvent): Promise<void> {
    const bytes = new TextEncoder().encode(
      JSON.stringify({ machineId: m.id, sentAt: new Date().toISOString(), events: [e] }),
    );
    const r = await fetch(`${cloud.url}/v1/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${m.token}`, [SIGNATURE_HEADER]: signWith(m.secret, bytes) },
      body: bytes,
    });
    expect(r.status).toBe(200);
  }
  const chainIncidents = async () =>
    (await api(cloud.url, "GET", "/v1/incidents", { token: admin })).body.incidents.filter(
      (x: { detector: string }) => x.detector === "cross_machine_chain",
    );

  test("three permitted hops on three machines, joined on their lineage, open an incident proposing containment", async () => {
    machines = [await enrol(), await enrol(), await enrol()];
    const hops: [string, string, string][] = [
      ["claude-code", "filesystem.read", "/home/dev/.aws/credentials"],
      ["codex", "git.push", "origin main"],
      ["gemini-cli", "aws.s3-cp", "s3://acme-exports"],
    ];
    const t0 = Date.now();
    for (const [i, m] of machines.entries()) {
      const [agent, operation, resourceRef] = hops[i] ?? ["", "", ""];
      const e: SentEvent = {
        dedupKey: `evt_chain_${i}`,
        subjectId: `evt_chain_${i}`,
        occurredAt: new Date(t0 + i * 1000).toISOString(),
        agent,
        surface: "interceptor",
        operation,
        effect: "allow",
        resourceRef,
        correlationId: "lin_7f3a9c",
      };
      await send(m, e);
      // No single hop is anything; only the third makes the chain.
      expect(await chainIncidents()).toHaveLength(i < 2 ? 0 : 1);
    }
    const [incident] = await chainIncidents();
    expect(incident).toMatchObject({
      pattern: "privilege_escalation",
      agents: ["claude-code", "codex", "gemini-cli"],
      session: "lin_7f3a9c",
      contained: null,
      proposal: { containment: "freeze-agent", agents: ["claude-code", "codex", "gemini-cli"] },
    });
    expect(incident.machineIds).toHaveLength(3);
    expect(incident.hops.map((h: { step: string }) => h.step)).toEqual(["credential", "repository", "cloud"]);
    // In the team graph: the incident, caused by each agent and touching what they reached, each tie cited by an action.
    const g = (await api(cloud.url, "GET", `/v1/graph?node=incident:${incident.id.toLowerCase()}`, { token: admin }))
      .body;
    const ties = g.edges.map(
      (e: { from: string; relation: string; to: string; basis: string }) => `${e.relation} ${e.to} ${e.basis}`,
    );
    for (const a of ["claude-code", "codex", "gemini-cli"]) expect(ties).toContain(`caused_by agent:${a} inferred`);
    expect(ties).toContain("touched system:s3-//acme-exports inferred");
    for (const e of g.edges) for (const cite of e.evidence) expect(cite).toMatch(/^action:\d+$/);
    const all = (await api(cloud.url, "GET", "/v1/graph", { token: admin })).body.nodes;
    expect([...new Set(all.map((n: { kind: string }) => n.kind))].sort()).toEqual([
      "agent",
      "decision",
      "incident",
      "person",
      "source_event",
      "system",
    ]);
    // Proposed, not taken: nothing is frozen until a person confirms.
    expect((await api(cloud.url, "GET", "/v1/state", { token: admin })).body.conditions).toHaveLength(0);
    // A person confirms it in the console: What was caught, the incident's drawer, Contain it.
    const page = await pageAs("admin@acme.dev");
    await page.goto(`${cloud.url}/caught`);
    const drawer = page.locator(`details#${incident.id}`);
    await drawer.locator("summary").click();
    expect(await drawer.textContent()).toContain("Proposed: freeze claude-code, codex, gemini-cli on every machine");
    expect(await drawer.locator("ol.hops li").allTextContents()).toEqual([
      expect.stringContaining("credential: claude-code"),
      expect.stringContaining("repository: codex"),
      expect.stringContaining("cloud: gemini-cli"),
    ]);
    expect(await drawer.textContent()).toContain("joined on the correlation id it carried");
    await page.screenshot({ path: join(chrome.shots, "caught-chain.png"), fullPage: true });
    const answered = page.waitForResponse((r) => r.request().method() === "POST");
    await drawer.getByRole("button", { name: "Contain it" }).click();
    await answered;
    await page.context().close();
    const frozen = (await api(cloud.url, "GET", "/v1/state", { token: admin })).body.conditions;
    expect(frozen.map((f: { subject: string }) => f.subject).sort()).toEqual(["claude-code", "codex", "gemini-cli"]);
    // What can reach the export bucket: the agent that did, and how.
    await db`UPDATE incidents SET resolved_at = now(), resolved_by = 'test' WHERE id = ${incident.id}`;
    const reach = (await api(cloud.url, "GET", "/v1/reach?to=acme-exports", { token: admin })).body;
    expect(reach.agents).toEqual(["gemini-cli"]);
    expect(reach.paths[0]).toMatchObject({ agent: "gemini-cli", via: "aws.s3-cp (1 recorded)", basis: "actions" });
    // From the fleet's scans: a server a machine launches bare, and the agents its scan says use it.
    await db`INSERT INTO mcp_servers (workspace_id, name) VALUES (${workspace}, 'github') ON CONFLICT DO NOTHING`;
    await db`INSERT INTO mcp_server_machines (workspace_id, name, machine_id, proxied, tools, write_tools, agents)
             VALUES (${workspace}, 'github', ${machines[1]?.id ?? ""}, false, 40, 12, '{codex}')`;
    const scanned = (await api(cloud.url, "GET", "/v1/reach?to=github", { token: admin })).body;
    expect(scanned.paths).toContainEqual({
      agent: "codex",
      machine: machines[1]?.id,
      via: "mcp server github launched bare",
      writes: true,
      basis: "scan",
    });
  });

  test("without a correlation id, one session handed across three machines is stitched as inferred hops", async () => {
    const hops: [string, string, string][] = [
      ["claude-code", "filesystem.read", "/home/dev/.ssh/id_ed25519"],
      ["codex", "gh.pr-merge", "acme/checkout#12"],
      ["gemini-cli", "kubectl.apply", "prod"],
    ];
    const t0 = Date.now();
    for (const [i, m] of machines.entries()) {
      const [agent, operation, resourceRef] = hops[i] ?? ["", "", ""];
      await send(m, {
        dedupKey: `evt_stitch_${i}`,
        subjectId: `evt_stitch_${i}`,
        occurredAt: new Date(t0 + i * 1000).toISOString(),
        agentSessionId: "handoff-9",
        agent,
        surface: "hook",
        operation,
        effect: "allow",
        resourceRef,
      });
    }
    const open = await chainIncidents();
    expect(open).toHaveLength(1);
    expect(open[0].session).toBe("handoff-9");
    expect(open[0].hops.map((h: { method: string }) => h.method)).toEqual(["inferred", "inferred", "inferred"]);
  });
});

describe("secrets", () => {
  test("a credential pasted into a thread is masked on arrival: stored, searched and shown without it", async () => {
    const token = `ghp_${"Zq8".repeat(12)}`;
    const m = JSON.parse(fixture("slack-message.json"));
    m.event.text = `the deploy bot token is ${token}, rotate it after the release`;
    m.event.ts = "1690209999.000900";
    m.event.event_ts = m.event.ts;
    const r = await deliver("slack", JSON.stringify(m));
    expect(r.status).toBe(201);
    const { events } = (await api(cloud.url, "GET", "/v1/source-events?q=deploy%20bot", { token: admin })).body;
    expect(events[0].content).toBe("the deploy bot token is ***, rotate it after the release");
    expect(await pg.dump()).not.toContain(token);
  });

  test("the model credential is in no row, no answer and no log line", async () => {
    expect(await pg.dump()).not.toContain("canary");
    expect(cloud.stderr()).not.toContain("canary");
    for (const path of ["/v1/org", "/v1/decisions", "/v1/candidates?status=approved", "/v1/audit"])
      expect(JSON.stringify((await api(cloud.url, "GET", path, { token: admin })).body)).not.toContain("canary");
  });
});

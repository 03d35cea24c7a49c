// Linear and Jira deliver their own webhooks to the one inbound route, against real PostgreSQL: recorded payloads
// signed as each system signs (Linear-Signature, the hex HMAC of the body; Jira's X-Hub-Signature sha256=…) with the
// route secret Connectors shows, read by the one normalizer (issue created and closed, comment created), each landing
// once. Forged, tampered, stale, unsigned and cross-workspace deliveries are refused with nothing stored.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { routeSecret } from "../src/cloud/intent/webhook.ts";
import type { Db } from "../src/cloud/store/db.ts";
import { api, memberWithToken } from "./support/cloud.ts";
import { type InProcessCloud, startInProcessCloud } from "./support/cloud-in-process.ts";
import type { StoredEvent } from "./support/exports.ts";

const SECRET = "whsec_TGluZWFyLWFuZC1KaXJhLXNpZ24tdGhlaXItb3du";
const LIVE = join(import.meta.dir, "..", "fixtures", "intent");
const TEAM = "72b2a2dc-6f4f-4423-9d34-24b5bd10634a";
const MINUTE = 60_000;

let cloud: InProcessCloud;
let db: Db;
let url = "";

beforeAll(async () => {
  cloud = await startInProcessCloud(SECRET);
  ({ db, url } = cloud);
}, 60_000);

afterAll(() => cloud?.stop());

/** A recorded payload with its signed time set to `at` (ms), as the system would send it now. */
function recorded(file: string, field: string, at: number): string {
  const body = JSON.parse(readFileSync(join(LIVE, file), "utf8")) as Record<string, unknown>;
  body[field] = at;
  return JSON.stringify(body, null, 2);
}

const hex = (secret: string, body: string) =>
  new Bun.CryptoHasher("sha256", new TextEncoder().encode(secret)).update(body).digest("hex");

function linearHeaders(secret: string, body: string, id: string): Record<string, string> {
  return {
    "content-type": "application/json; charset=utf-8",
    "linear-delivery": id,
    "linear-event": "Issue",
    "linear-signature": hex(secret, body),
    "user-agent": "Linear-Webhook",
  };
}

function jiraHeaders(secret: string, body: string, id: string): Record<string, string> {
  return {
    "content-type": "application/json; charset=utf-8",
    "x-atlassian-webhook-identifier": id,
    "x-atlassian-webhook-flow": "Primary",
    "x-hub-signature": `sha256=${hex(secret, body)}`,
  };
}

async function stored(workspace: string): Promise<StoredEvent[]> {
  return db`SELECT kind, source_ref, stream, author, author_trusted, tainted, taint_reason, content, occurred_at FROM source_events
            WHERE workspace_id = ${workspace} ORDER BY occurred_at, kind`;
}

describe("Linear and Jira webhooks, signed as each system signs", () => {
  test("Linear: issue created, commented and completed land once each; forged, tampered, stale and cross-workspace are refused", async () => {
    const o = await cloud.newOrg("tr");
    const other = await cloud.newOrg("tr");
    await memberWithToken(db, o.org.id, "ana@acme.example", "reviewer");
    for (const org of [o, other])
      await org.browser.post("/connectors", { _action: "connect", type: "linear", streams: TEAM });
    const secret = routeSecret(SECRET, o.workspace.id, "linear");
    const route = `/v1/inbound/${o.workspace.id}/linear`;
    const send = (body: string, headers: Record<string, string>, to = route) =>
      api(url, "POST", to, { raw: body, headers });
    const now = Date.now();
    const created = recorded("linear-issue-create.json", "webhookTimestamp", now);

    expect((await send(created, linearHeaders(secret, created, "d-1"))).status).toBe(201);
    // Linear resending the same delivery: the resend it is, nothing new.
    const again = await send(created, linearHeaders(secret, created, "d-1"));
    expect([again.status, again.body.duplicate]).toEqual([200, true]);
    const comment = recorded("linear-comment-create.json", "webhookTimestamp", now);
    expect((await send(comment, linearHeaders(secret, comment, "d-2"))).status).toBe(201);
    const done = recorded("linear-issue-completed.json", "webhookTimestamp", now);
    expect((await send(done, linearHeaders(secret, done, "d-3"))).status).toBe(201);

    const before = await stored(o.workspace.id);
    expect(before.map((r) => [r.kind, r.source_ref, r.stream, r.author_trusted, r.tainted])).toEqual([
      ["issue.opened", "https://linear.app/acme/issue/ENG-42/keep-request-logs-free-of-pii", TEAM, true, false],
      [
        "comment.created",
        "https://linear.app/acme/issue/ENG-42/keep-request-logs-free-of-pii#comment-c0ffee00",
        TEAM,
        false,
        true,
      ],
      ["issue.closed", "https://linear.app/acme/issue/ENG-42/keep-request-logs-free-of-pii", TEAM, true, false],
    ]);
    expect(before.map((r) => new Date(r.occurred_at).toISOString())).toEqual([
      "2026-07-24T15:06:39.000Z",
      "2026-07-24T16:00:00.000Z",
      "2026-07-26T09:30:00.000Z",
    ]);

    // Signed with another workspace's secret; one byte changed after signing; a captured delivery replayed ten
    // minutes on; the same signed bytes sent to another workspace's route: each a 401.
    const forged = await send(
      created,
      linearHeaders(routeSecret(SECRET, other.workspace.id, "linear"), created, "f-1"),
    );
    expect([forged.status, forged.body.error.message]).toEqual([
      401,
      "the linear-signature does not check (with this workspace's and source's own secret)",
    ]);
    const tampered = created.replace("free of PII", "full of PII");
    expect((await send(tampered, linearHeaders(secret, created, "f-2"))).status).toBe(401);
    const stale = recorded("linear-issue-create.json", "webhookTimestamp", now - 10 * MINUTE);
    const replayed = await send(stale, linearHeaders(secret, stale, "f-3"));
    expect([replayed.status, replayed.body.error.message]).toEqual([
      401,
      "the webhookTimestamp is outside the replay window (with this workspace's and source's own secret)",
    ]);
    const fresh = recorded("linear-issue-create.json", "webhookTimestamp", now + 1);
    const crossed = await send(fresh, linearHeaders(secret, fresh, "f-4"), `/v1/inbound/${other.workspace.id}/linear`);
    expect(crossed.status).toBe(401);
    expect(await stored(o.workspace.id)).toEqual(before);
    expect(await stored(other.workspace.id)).toEqual([]);
  });

  test("Jira: an admin webhook with the secret lands created, commented and resolved once each; unsigned, forged, stale and cross-workspace are refused", async () => {
    const o = await cloud.newOrg("tr");
    const other = await cloud.newOrg("tr");
    for (const org of [o, other])
      await org.browser.post("/connectors", {
        _action: "connect",
        type: "jira",
        streams: "ENG",
        baseUrl: "https://acme.atlassian.net",
      });
    // Ana's Atlassian account is linked to her membership; Ben's is not.
    await memberWithToken(db, o.org.id, "ana@acme.example", "reviewer");
    await api(url, "POST", "/v1/people/accounts", {
      token: o.token,
      body: { sourceType: "jira", account: "5b10ac8d82e05b22cc7d4ef5", email: "ana@acme.example" },
    });
    const secret = routeSecret(SECRET, o.workspace.id, "jira");
    const route = `/v1/inbound/${o.workspace.id}/jira`;
    const send = (body: string, headers: Record<string, string>, to = route) =>
      api(url, "POST", to, { raw: body, headers });
    const now = Date.now();
    const created = recorded("jira-issue-created.json", "timestamp", now);
    expect((await send(created, jiraHeaders(secret, created, "j-1"))).status).toBe(201);
    // A retry carries the same identifier: the resend it is.
    const retry = await send(created, { ...jiraHeaders(secret, created, "j-1"), "x-atlassian-webhook-retry": "1" });
    expect([retry.status, retry.body.duplicate]).toEqual([200, true]);
    const comment = recorded("jira-comment-created.json", "timestamp", now);
    expect((await send(comment, jiraHeaders(secret, comment, "j-2"))).status).toBe(201);
    const resolved = recorded("jira-issue-resolved.json", "timestamp", now);
    expect((await send(resolved, jiraHeaders(secret, resolved, "j-3"))).status).toBe(201);

    const before = await stored(o.workspace.id);
    expect(before.map((r) => [r.kind, r.source_ref, r.stream, r.author, r.author_trusted, r.tainted])).toEqual([
      ["issue.opened", "https://acme.atlassian.net/browse/ENG-42", "ENG", "5b10ac8d82e05b22cc7d4ef5", true, false],
      [
        "comment.created",
        "https://acme.atlassian.net/browse/ENG-42?focusedCommentId=10050",
        "ENG",
        "61f0c0ffee0000000000beef",
        false,
        true,
      ],
      ["issue.closed", "https://acme.atlassian.net/browse/ENG-42", "ENG", "5b10ac8d82e05b22cc7d4ef5", true, false],
    ]);
    expect(before.map((r) => new Date(r.occurred_at).toISOString())).toEqual([
      "2026-07-24T15:06:39.000Z",
      "2026-07-24T16:00:00.000Z",
      "2026-07-26T09:30:00.000Z",
    ]);

    // A webhook registered without a secret sends no signature: refused, as is one signed with a guess.
    const unsigned = { "content-type": "application/json", "x-atlassian-webhook-identifier": "u-1" };
    expect((await send(created, unsigned)).status).toBe(401);
    const guessed = await send(created, jiraHeaders("whsec_guessed", created, "f-1"));
    expect([guessed.status, guessed.body.error.message]).toEqual([
      401,
      "the x-hub-signature does not check (with this workspace's and source's own secret)",
    ]);
    const stale = recorded("jira-issue-created.json", "timestamp", now - 2 * 60 * MINUTE);
    expect((await send(stale, jiraHeaders(secret, stale, "f-2"))).status).toBe(401);
    const crossed = await send(created, jiraHeaders(secret, created, "f-3"), `/v1/inbound/${other.workspace.id}/jira`);
    expect(crossed.status).toBe(401);
    expect(await stored(o.workspace.id)).toEqual(before);
    expect(await stored(other.workspace.id)).toEqual([]);
  });

  test("Connectors offers Linear and Jira with what is read and how deliveries are signed", async () => {
    const o = await cloud.newOrg("tr");
    const page = (await o.browser.get("/connectors")).html;
    expect(page).toContain("Connect Linear");
    expect(page).toContain("Linear-Signature (hex HMAC-SHA256 of the body)");
    expect(page).toContain("Connect Jira");
    expect(page).toContain("X-Hub-Signature sha256=");
    expect(page).toContain("issues created and resolved");
  });
});

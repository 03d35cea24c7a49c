// A history sweep from a file export, through the console's own upload form, against real PostgreSQL: a Slack
// workspace export (zipped by the real `zip`) and a GitHub REST listing are read through the one normalizer, so an
// event a live delivery already stored is a duplicate, a live delivery after the sweep is one too, taint and author
// trust come out as live, only the chosen streams are stored and a pasted credential is masked. A malformed or
// oversized export stores nothing and says why. The Chromium run of the upload is test/e2e/quickstart.e2e.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { routeSecret, signDelivery } from "../src/cloud/intent/webhook.ts";
import type { Db } from "../src/cloud/store/db.ts";
import { api, memberWithToken } from "./support/cloud.ts";
import { type InProcessCloud, startInProcessCloud } from "./support/cloud-in-process.ts";
import { type Browser, sessionFor } from "./support/console.ts";
import { type StoredEvent, zipFolder } from "./support/exports.ts";

const SECRET = "whsec_U3dlZXBpbmctaGlzdG9yeS1mcm9tLWV4cG9ydHM=";
const ROOT = join(import.meta.dir, "..", "fixtures");
const LIVE = join(ROOT, "intent");
const SLACK_EXPORT = join(ROOT, "exports", "slack");
const GITHUB_EXPORT = readFileSync(join(ROOT, "exports", "github-issues.json"));

let cloud: InProcessCloud;
let db: Db;
let url = "";
let scratch = "";

beforeAll(async () => {
  cloud = await startInProcessCloud(SECRET);
  ({ db, url } = cloud);
  scratch = mkdtempSync(join(tmpdir(), "memnox-sweep-"));
}, 60_000);

afterAll(async () => {
  await cloud?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The console's upload form as a browser sends it: multipart, this session's `_csrf`, the file under `export`. */
async function sweep(b: Browser, type: string, bytes: Uint8Array, name: string, csrf = b.csrf) {
  const form = new FormData();
  form.set("_csrf", csrf);
  form.set("_action", "sweep");
  form.set("type", type);
  form.set("export", new File([bytes], name));
  const r = await fetch(`${url}/connectors`, {
    method: "POST",
    headers: { cookie: b.cookie, origin: url },
    body: form,
    redirect: "manual",
  });
  return { status: r.status, html: await r.text() };
}

/** The sweep's answer as the page drew it. */
function result(html: string) {
  const dd = (id: string) => new RegExp(`<dd id="${id}">([^<]*)`).exec(html)?.[1]?.trim() ?? "";
  return {
    read: dd("sweep-read"),
    stored: dd("sweep-stored"),
    duplicates: dd("sweep-duplicates"),
    skipped: dd("sweep-skipped"),
  };
}

/** A live Slack Events delivery of a recorded payload, signed for this workspace's route (Standard Webhooks). */
async function deliverSlack(workspace: string, file: string, id: string) {
  const body = readFileSync(join(LIVE, file), "utf8");
  const ts = Math.floor(Date.now() / 1000);
  return api(url, "POST", `/v1/inbound/${workspace}/slack`, {
    raw: body,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(ts),
      "webhook-signature": signDelivery(routeSecret(SECRET, workspace, "slack"), id, ts, body),
    },
  });
}

async function deliverGithub(workspace: string, file: string, id: string, event: string) {
  const body = readFileSync(join(LIVE, file), "utf8");
  const key = new TextEncoder().encode(routeSecret(SECRET, workspace, "github"));
  return api(url, "POST", `/v1/inbound/${workspace}/github`, {
    raw: body,
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": id,
      "x-hub-signature-256": `sha256=${new Bun.CryptoHasher("sha256", key).update(body).digest("hex")}`,
    },
  });
}

const SAME_AS_LIVE = `dedup_key, source_type, source_ref, kind, stream, author, author_trusted, content, occurred_at,
  tainted, taint_reason, classification`;

async function events(workspace: string): Promise<StoredEvent[]> {
  return db.unsafe(`SELECT ${SAME_AS_LIVE} FROM source_events WHERE workspace_id = $1 ORDER BY occurred_at, kind`, [
    workspace,
  ]);
}

const connectSlack = (b: Browser) =>
  b.post("/connectors", { _action: "connect", type: "slack", streams: "C024BE7LR", baseUrl: "https://acme.slack.com" });

describe("a history sweep from a file export", () => {
  test("a Slack export lands as its live deliveries would: once, chosen channels only, taint and trust as live, masked", async () => {
    const slackZip = zipFolder(SLACK_EXPORT, join(scratch, "slack.zip"));
    const o = await cloud.newOrg("sw");
    await connectSlack(o.browser);
    // Ana is a member whose Slack account is linked; Ben is not; the stranger posts from another team.
    const ana = await memberWithToken(db, o.org.id, "ana@acme.example", "reviewer");
    await api(url, "POST", "/v1/people/accounts", {
      token: o.token,
      body: { sourceType: "slack", account: "U024BE7LH", email: "ana@acme.example" },
    });
    expect((await deliverSlack(o.workspace.id, "slack-message.json", "live-1")).status).toBe(201);

    const first = await sweep(o.browser, "slack", slackZip, "acme-export.zip");
    expect(first.status).toBe(200);
    // 7 messages: a join and a bot post are not listened to, #random was not chosen, Ana's decision arrived live.
    expect(result(first.html)).toEqual({ read: "7 item(s), 7 event(s)", stored: "3", duplicates: "1", skipped: "3" });
    expect(first.html).toContain("`message.channel_join` is not something memnox listens to");
    expect(first.html).toContain("`message.bot_message` is not something memnox listens to");
    expect(first.html).toContain("`C0RANDOM01` is not one of the streams chosen for slack");

    const rows = await events(o.workspace.id);
    expect(rows.map((r) => [r.author, r.author_trusted, r.tainted, r.taint_reason])).toEqual([
      ["U024BE7LH", true, false, null],
      ["U024BE7LV", false, true, "author outside the workspace trust boundary"],
      ["U09XSTRANGER", false, true, "author outside the workspace trust boundary"],
      ["U024BE7LH", true, false, null],
    ]);
    expect(rows.every((r) => r.stream === "C024BE7LR")).toBe(true);
    expect(rows[1]?.source_ref).toBe("https://acme.slack.com/archives/C024BE7LR/p1690203700000400");
    const [anaRow] = await db`SELECT member_id FROM source_events WHERE workspace_id = ${o.workspace.id}
      AND author = 'U024BE7LH' LIMIT 1`;
    expect(anaRow.member_id).toBe(ana.id);
    // The one masker: the key Ben pasted is nowhere in what was stored.
    const all = JSON.stringify(await db`SELECT * FROM source_events WHERE workspace_id = ${o.workspace.id}`);
    expect(all).not.toContain("AKIAIOSFODNN7EXAMPLE");
    expect(rows[1]?.content).toContain("I used ***");
    expect(all).not.toContain("ramen");

    // A live delivery after the sweep is the duplicate it is; so is the whole sweep again.
    const live = await deliverSlack(o.workspace.id, "slack-stranger.json", "live-2");
    expect(live.status).toBe(200);
    expect(live.body.duplicate).toBe(true);
    const again = await sweep(o.browser, "slack", slackZip, "acme-export.zip");
    expect(result(again.html)).toEqual({ read: "7 item(s), 7 event(s)", stored: "0", duplicates: "4", skipped: "3" });
    expect(await events(o.workspace.id)).toEqual(rows);

    // The same stranger delivered live to a workspace that never swept is stored exactly as the sweep stored it.
    const p = await cloud.newOrg("sw");
    await connectSlack(p.browser);
    expect((await deliverSlack(p.workspace.id, "slack-stranger.json", "live-3")).status).toBe(201);
    expect(await events(p.workspace.id)).toEqual(rows.slice(2, 3));

    const audit = await db`SELECT actor, action, detail FROM audit WHERE org_id = ${o.org.id}
      AND action LIKE 'source.sweep%' ORDER BY id`;
    expect(audit.map((a: { action: string }) => a.action)).toEqual(["source.sweep", "source.sweep"]);
    expect(audit[0].actor).toBe(o.admin.email);
    expect(audit[0].detail).toMatchObject({ read: 7, events: 7, stored: 3, duplicates: 1, skipped: 3 });
  });

  test("a GitHub REST listing: issues, pull requests and comments as the opened, closed, merged and created deliveries", async () => {
    const o = await cloud.newOrg("sw");
    await o.browser.post("/connectors", { _action: "connect", type: "github", streams: "acme/checkout" });
    expect(
      (await deliverGithub(o.workspace.id, "github-pull-request-opened.json", "gh-1", "pull_request")).status,
    ).toBe(201);
    const swept = await sweep(o.browser, "github", GITHUB_EXPORT, "issues.json");
    expect(swept.status).toBe(200);
    // 4 items: the issue opened and closed, the pull request opened (live already) and merged, a comment, acme/web.
    expect(result(swept.html)).toEqual({ read: "4 item(s), 6 event(s)", stored: "4", duplicates: "1", skipped: "1" });
    expect(swept.html).toContain("`acme/web` is not one of the streams chosen for github");
    const rows = await events(o.workspace.id);
    expect(rows.map((r) => [r.kind, r.source_ref, new Date(r.occurred_at).toISOString()])).toEqual([
      ["pull_request.opened", "https://github.com/acme/checkout/pull/1347", "2023-07-25T09:12:44.000Z"],
      [
        "comment.created",
        "https://github.com/acme/checkout/pull/1347#issuecomment-1650000001",
        "2023-07-25T10:00:00.000Z",
      ],
      ["pull_request.merged", "https://github.com/acme/checkout/pull/1347", "2023-07-26T08:00:00.000Z"],
      ["issue.opened", "https://github.com/acme/checkout/issues/1350", "2023-07-26T10:00:00.000Z"],
      ["issue.closed", "https://github.com/acme/checkout/issues/1350", "2023-07-27T10:00:00.000Z"],
    ]);
    // The close arriving live now is the duplicate of what the sweep stored.
    const closed = await deliverGithub(o.workspace.id, "github-issue-closed.json", "gh-2", "issues");
    expect(closed.status).toBe(200);
    expect(closed.body.duplicate).toBe(true);
    const comment = await deliverGithub(o.workspace.id, "github-issue-comment.json", "gh-3", "issue_comment");
    expect([comment.status, comment.body.duplicate]).toEqual([200, true]);
    expect((await events(o.workspace.id)).length).toBe(5);
  });

  test("a malformed, oversized or foreign export stores nothing and says why; only an admin signed in may sweep", async () => {
    const o = await cloud.newOrg("sw");
    await connectSlack(o.browser);
    const count = async () =>
      (await db`SELECT count(*)::int AS n FROM source_events WHERE workspace_id = ${o.workspace.id}`)[0].n;
    const good = zipFolder(SLACK_EXPORT, join(scratch, "good.zip"));
    // One bad day file among good ones: the good ones are not stored either.
    const badDay = join(scratch, "bad-day");
    mkdirSync(join(badDay, "general"), { recursive: true });
    for (const f of ["channels.json", "users.json"])
      writeFileSync(join(badDay, f), readFileSync(join(SLACK_EXPORT, f)));
    writeFileSync(
      join(badDay, "general", "2023-07-24.json"),
      readFileSync(join(SLACK_EXPORT, "general", "2023-07-24.json")),
    );
    writeFileSync(join(badDay, "general", "2023-07-26.json"), '[{"type":"message","text":"cut sh');
    const unknownFolder = join(scratch, "unknown-folder");
    mkdirSync(join(unknownFolder, "secret-plans"), { recursive: true });
    writeFileSync(join(unknownFolder, "channels.json"), readFileSync(join(SLACK_EXPORT, "channels.json")));
    writeFileSync(join(unknownFolder, "secret-plans", "2023-07-24.json"), "[]");
    // A bomb: 20 MiB of one byte, which zip packs into a few KiB.
    const bomb = join(scratch, "bomb");
    mkdirSync(join(bomb, "general"), { recursive: true });
    writeFileSync(join(bomb, "channels.json"), readFileSync(join(SLACK_EXPORT, "channels.json")));
    writeFileSync(join(bomb, "general", "2023-07-24.json"), Buffer.alloc(20 * 1024 * 1024, 0x20));
    const cases: [string, Uint8Array, string][] = [
      ["truncated", good.subarray(0, good.length - 40), "no end of central directory"],
      ["bad day", zipFolder(badDay, join(scratch, "bad-day.zip")), "`general/2023-07-26.json` is not JSON"],
      [
        "unknown folder",
        zipFolder(unknownFolder, join(scratch, "unknown.zip")),
        "the folder `secret-plans` is in none",
      ],
      ["bomb", zipFolder(bomb, join(scratch, "bomb.zip")), "inflates to more than 16777216 bytes"],
      ["not a Slack export", GITHUB_EXPORT, "not a ZIP archive"],
    ];
    for (const [name, bytes, why] of cases) {
      const r = await sweep(o.browser, "slack", bytes, `${name}.zip`);
      expect([name, r.status]).toEqual([name, 400]);
      expect(r.html).toContain(why);
      expect(r.html).toContain("Nothing was stored.");
      expect(await count()).toBe(0);
    }
    const refusals =
      await db`SELECT severity FROM audit WHERE org_id = ${o.org.id} AND action = 'source.sweep.refused'`;
    expect(refusals.length).toBe(cases.length);

    // A source nobody connected is not swept; a token, a viewer and a reviewer may not sweep at all.
    const notConnected = await sweep(o.browser, "github", GITHUB_EXPORT, "issues.json");
    expect(notConnected.status).toBe(409);
    const byToken = await fetch(`${url}/v1/sources/slack/sweep`, {
      method: "POST",
      headers: { authorization: `Bearer ${o.token}`, "content-type": "application/zip" },
      body: good,
    });
    expect(byToken.status).toBe(403);
    const viewer = await memberWithToken(db, o.org.id, "vic@sw.dev", "viewer");
    const vb = await sessionFor(db, url, viewer.id);
    expect((await vb.get("/connectors")).html).not.toContain("Sweep Slack");
    expect((await sweep(vb, "slack", good, "acme-export.zip")).status).toBe(403);
    // A multipart form is held to the same session token as any other form.
    expect((await sweep(o.browser, "slack", good, "acme-export.zip", "forged")).status).toBe(403);
    expect(await count()).toBe(0);
    // The admin's page offers the upload once the system is connected.
    expect((await o.browser.get("/connectors")).html).toContain("Sweep Slack");
  });
});

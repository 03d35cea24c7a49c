// Settings → Model against a real PostgreSQL and the real HTTP face: an admin signed in picks a preset or a model with
// its reasoning from what this deployment can construct, and the next extraction run asks exactly that (read off the
// request a loopback stand-in for the Messages API received). A model the deployment does not offer, a reasoning level
// the model lacks (refused, not lowered), a key sent along, a token and a viewer all change nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as v from "valibot";
import { routeSecret, signDelivery } from "../src/cloud/intent/webhook.ts";
import { ModelChoice } from "../src/cloud/routes/bodies.ts";
import { startServer } from "../src/cloud/server.ts";
import type { Db } from "../src/cloud/store/db.ts";
import type { NewOrg } from "../src/cloud/store/people.ts";
import { api, memberWithToken } from "./support/cloud.ts";
import { type InProcessCloud, startInProcessCloud } from "./support/cloud-in-process.ts";
import { sessionFor } from "./support/console.ts";

const SECRET = "whsec_U2V0dGluZ3MtbW9kZWwtcHJlc2V0cw";
const KEY = "sk-ant-api03-ModelKeyCanary0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH";

let cloud: InProcessCloud;
let db: Db;
let url = "";
const asked: Record<string, unknown>[] = [];
let model: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  model = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      asked.push((await req.json()) as Record<string, unknown>);
      return Response.json({
        content: [
          { type: "thinking", thinking: "…" },
          { type: "text", text: '{"candidates": []}' },
        ],
        model: "whatever-was-asked",
        usage: { input_tokens: 1, output_tokens: 1 },
      });
    },
  });
  // This deployment's endpoint serves two of the adapter's models (MEMNOX_MODELS), and its default is Sonnet.
  cloud = await startInProcessCloud(SECRET, {
    model: {
      apiKey: KEY,
      baseUrl: `http://127.0.0.1:${model.port}`,
      model: "claude-sonnet-4-5",
      offered: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-3-5-haiku-latest"],
    },
  });
  ({ db, url } = cloud);
}, 60_000);

afterAll(async () => {
  await cloud?.stop();
  model?.stop(true);
});

const newOrg = () => cloud.newOrg("mdl");

async function choice(o: NewOrg) {
  const [w] = await db`SELECT model, model_reasoning FROM workspaces WHERE id = ${o.workspace.id}`;
  return w;
}

/** One Slack message delivered to a connected channel, so an extraction run has something to send. */
async function deliver(o: NewOrg, n: number): Promise<void> {
  await api(url, "PUT", "/v1/sources/slack", {
    token: o.token,
    body: { streams: ["C1"], baseUrl: "https://acme.slack.com" },
  });
  const raw = JSON.stringify({
    type: "event_callback",
    event: { type: "message", text: `we decided to ship on fridays ${n}`, user: "U1", ts: `${n}.5`, channel: "C1" },
  });
  const ts = Math.floor(Date.now() / 1000);
  const id = `msg_model_${o.org.id}_${n}`;
  const r = await api(url, "POST", `/v1/inbound/${o.workspace.id}/slack`, {
    raw,
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(ts),
      "webhook-signature": signDelivery(routeSecret(SECRET, o.workspace.id, "slack"), id, ts, raw),
    },
  });
  expect(r.status).toBe(201);
}

describe("Settings → Model", () => {
  test("an admin signed in picks a preset, then a model with its reasoning; the next extraction run asks exactly that", async () => {
    const o = await newOrg();
    const page = (await o.browser.get("/settings")).html;
    // Only what this deployment constructs: Opus is not offered here, so neither is its preset.
    expect(page).toContain("Claude Haiku 4.5");
    expect(page).not.toContain("Claude Opus");
    expect(page).not.toContain('value="thorough"');
    expect(page).toContain("nothing chosen here yet");
    await deliver(o, 1);
    const first = await api(url, "POST", "/v1/extraction/runs", { token: o.token, body: {} });
    expect(first.status).toBe(201);
    expect(asked.at(-1)).toMatchObject({ model: "claude-sonnet-4-5", temperature: 0 });
    expect(asked.at(-1)).not.toHaveProperty("thinking");

    const picked = await o.browser.post("/settings", { _action: "model-preset", preset: "quick" });
    expect(picked.status).toBe(200);
    expect(await choice(o)).toEqual({ model: "claude-haiku-4-5", model_reasoning: "off" });
    expect((await o.browser.get("/settings")).html).toContain("(the Quick preset)");

    const custom = await o.browser.post("/settings", {
      _action: "model-custom",
      model: "claude-sonnet-4-5",
      reasoning: "high",
    });
    expect(custom.status).toBe(200);
    await deliver(o, 2);
    const run = await api(url, "POST", "/v1/extraction/runs", { token: o.token, body: {} });
    expect(run.status).toBe(201);
    const sent = asked.at(-1);
    expect(sent).toMatchObject({ model: "claude-sonnet-4-5", thinking: { type: "enabled", budget_tokens: 24_576 } });
    expect(sent?.max_tokens).toBe(4096 + 24_576);
    expect(sent).not.toHaveProperty("temperature");
    const runs = await api(url, "GET", "/v1/extraction/runs", { token: o.token });
    expect(runs.body.runs[0].model).toBe("claude-sonnet-4-5");
    const audit = await db`SELECT detail FROM audit WHERE org_id = ${o.org.id} AND action = 'extraction.model'`;
    expect(audit).toHaveLength(2);
  });

  test("a model not offered, a reasoning level the model lacks, a key, a token and a viewer change nothing", async () => {
    const o = await newOrg();
    await o.browser.post("/settings", { _action: "model-preset", preset: "balanced" });
    const was = await choice(o);
    expect(was).toEqual({ model: "claude-sonnet-4-5", model_reasoning: "low" });

    const opus = await o.browser.post("/settings", {
      _action: "model-custom",
      model: "claude-opus-4-1",
      reasoning: "low",
    });
    expect(opus.status).toBe(400);
    expect(opus.html).toContain("not a model this deployment can construct");
    // Haiku 3.5 has no extended thinking: refused, not quietly run without it.
    const lowered = await o.browser.post("/settings", {
      _action: "model-custom",
      model: "claude-3-5-haiku-latest",
      reasoning: "medium",
    });
    expect(lowered.status).toBe(400);
    expect(lowered.html).toContain("refused rather than lowered");
    expect(await choice(o)).toEqual(was);

    // No route takes a key: the field is refused outright, and no column of any table is one.
    const withKey = await api(url, "PUT", "/v1/extraction/model", {
      token: o.token,
      body: { model: "claude-haiku-4-5", reasoning: "off", apiKey: KEY },
    });
    expect(withKey.status).toBe(403);
    const session = await o.browser.post("/settings", { _action: "model-preset", preset: "quick", apiKey: KEY });
    expect(session.status).toBe(200);
    expect(await choice(o)).toEqual({ model: "claude-haiku-4-5", model_reasoning: "off" });
    // The route's one schema refuses a key beside a preset or a model, whoever sends it.
    for (const body of [
      { preset: "quick", apiKey: KEY },
      { model: "claude-haiku-4-5", reasoning: "off", apiKey: KEY },
      { model: "claude-haiku-4-5", reasoning: "off", key: KEY },
    ])
      expect(v.safeParse(ModelChoice, body).success).toBe(false);
    const keyColumns = await db`SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND (column_name ILIKE '%api_key%' OR column_name ILIKE '%model_key%'
        OR (table_name IN ('workspaces', 'orgs') AND (column_name ILIKE '%key%' OR column_name ILIKE '%secret%'
            OR column_name ILIKE '%credential%')))`;
    expect(keyColumns).toEqual([]);
    expect(JSON.stringify(await db`SELECT * FROM audit WHERE org_id = ${o.org.id}`)).not.toContain(KEY);
    expect(JSON.stringify(await db`SELECT * FROM workspaces`)).not.toContain(KEY);
    expect((await o.browser.get("/settings")).html).not.toContain(KEY);

    // A token is not a person signed in; a viewer is offered no form and refused the one sent anyway.
    const byToken = await api(url, "PUT", "/v1/extraction/model", { token: o.token, body: { preset: "balanced" } });
    expect(byToken.status).toBe(403);
    const viewer = await memberWithToken(db, o.org.id, "vee@mdl.dev", "viewer");
    const vb = await sessionFor(db, url, viewer.id);
    const vpage = (await vb.get("/settings")).html;
    expect(vpage).toContain("Claude Haiku 4.5");
    expect(vpage).not.toContain("Use this preset");
    expect((await vb.post("/settings", { _action: "model-preset", preset: "balanced" })).status).toBe(403);
    expect(await choice(o)).toEqual({ model: "claude-haiku-4-5", model_reasoning: "off" });
  });

  test("a deployment with no credential offers nothing and refuses every choice", async () => {
    const bare = startServer({
      db,
      config: { deviceIntervalS: 1, deviceTtlS: 600, version: "test", webhookSecret: SECRET },
      hostname: "127.0.0.1",
      port: 0,
      now: () => Date.now(),
      log: () => {},
      rateScale: 100,
    });
    try {
      const o = await newOrg();
      const b = await sessionFor(db, bare.url, o.admin.id);
      const page = (await b.get("/settings")).html;
      expect(page).toContain("no model credential");
      expect(page).not.toContain("Use this");
      const shown = await api(bare.url, "GET", "/v1/extraction/model", { token: o.token });
      expect(shown.body).toEqual({ configured: false, presets: [], models: [], current: null });
      expect((await b.post("/settings", { _action: "model-preset", preset: "quick" })).status).toBe(400);
      expect(await choice(o)).toEqual({ model: null, model_reasoning: null });
    } finally {
      await bare.stop();
    }
  });
});

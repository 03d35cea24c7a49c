// The console's operating acts against a real PostgreSQL and the real HTTP face, through the console's own forms:
// break-glass (a reason, a critical audit row, an incident; the freezes it suspends and for how long; never an
// irreversible action) and sinks (a webhook target for what was caught, signed, its secret shown once, the payload
// masked, proved with a real loopback receiver).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { signDelivery, sinkSecret } from "../src/cloud/intent/webhook.ts";
import { type SentEvent, SIGNATURE_HEADER } from "../src/cloud/protocol/sync.ts";
import type { Db } from "../src/cloud/store/db.ts";
import type { NewOrg } from "../src/cloud/store/people.ts";
import { signWith } from "../src/ledger/sign.ts";
import { api, enrolMachine, memberWithToken } from "./support/cloud.ts";
import { type InProcessCloud, startInProcessCloud } from "./support/cloud-in-process.ts";
import { sessionFor } from "./support/console.ts";

const SECRET = "whsec_T3BlcmF0ZS10aGUtY29uc29sZS1zZWNvbmQtaGFsZg";

let cloud: InProcessCloud;
let db: Db;
let url = "";

beforeAll(async () => {
  cloud = await startInProcessCloud(SECRET);
  ({ db, url } = cloud);
}, 60_000);

afterAll(() => cloud?.stop());

const newOrg = () => cloud.newOrg("op");

async function person(o: NewOrg, name: string, role: "viewer" | "reviewer" | "admin") {
  const m = await memberWithToken(db, o.org.id, `${name}@${o.org.name}.dev`, role);
  return { ...m, browser: await sessionFor(db, url, m.id) };
}

const bundle = async (token: string) => (await api(url, "GET", "/v1/bundle", { token })).body;
const factIds = (b: { conditions: string }) =>
  (JSON.parse(b.conditions) as { facts: { id: string }[] }).facts.map((f) => f.id);

describe("break-glass", () => {
  test("an admin signed in gives a reason: the freezes are suspended until it ends, audited critical, an incident opened", async () => {
    const o = await newOrg();
    const frozen = await api(url, "POST", "/v1/state", {
      token: o.token,
      body: { kind: "freeze", subject: "payments", reason: "incident 12", for: "2d" },
    });
    expect(frozen.status).toBe(201);
    expect(factIds(await bundle(o.token))).toEqual([frozen.body.id]);
    const reason = "prod outage: the hotfix must ship past the payments freeze";
    // A token is not a person: refused, nothing suspended.
    const byToken = await api(url, "POST", "/v1/break-glass", { token: o.token, body: { reason } });
    expect(byToken.status).toBe(403);
    // A viewer is offered nothing and refused the form sent anyway.
    const viewer = await person(o, "vic", "viewer");
    expect((await viewer.browser.get("/waiting")).html).not.toContain("Break glass");
    expect((await viewer.browser.post("/waiting", { _action: "break-glass", reason, for: "1h" })).status).toBe(403);
    // An irreversible action is never covered: 403, and the attempt audited critical.
    const page = (await o.browser.get("/waiting")).html;
    expect(page).toContain("Break glass");
    const irreversible = await o.browser.post("/waiting", {
      _action: "break-glass",
      reason,
      for: "1h",
      actions: "deploy.release database.drop",
    });
    expect(irreversible.status).toBe(403);
    expect(irreversible.html).toContain("database.drop");
    expect(factIds(await bundle(o.token))).toEqual([frozen.body.id]);
    // A reason is a sentence.
    expect((await o.browser.post("/waiting", { _action: "break-glass", reason: "hotfix", for: "1h" })).status).toBe(
      400,
    );
    const broke = await o.browser.post("/waiting", {
      _action: "break-glass",
      reason,
      for: "2h",
      actions: "deploy.release",
    });
    expect(broke.status).toBe(200);
    expect(broke.html).toContain("Glass broken: 1 condition(s) suspended");
    // What machines get: the freeze left out, and a deny on every irreversible action added.
    const during = await bundle(o.token);
    expect(factIds(during)).toEqual([]);
    const rules = JSON.parse(during.rules) as {
      policies: { name: string; match: { actions: string[] }; decision: { effect: string } }[];
    };
    expect(rules.policies.at(-1)?.match.actions).toEqual(["project.delete", "database.drop"]);
    expect(rules.policies.at(-1)?.decision.effect).toBe("deny");
    // The freeze itself stays, to come back; the break-glass says until when.
    const list = (await api(url, "GET", "/v1/break-glass", { token: o.token })).body.breakGlass;
    expect(list).toHaveLength(1);
    expect(list[0].state).toBe("open");
    expect(list[0].suspends).toEqual([frozen.body.id]);
    const ends = Date.parse(list[0].endsAt) - Date.parse(list[0].openedAt);
    expect(Math.abs(ends - 2 * 3_600_000)).toBeLessThan(60_000);
    const incidents = (await api(url, "GET", "/v1/incidents", { token: o.token })).body.incidents;
    expect(incidents.map((i: { detector: string }) => i.detector)).toEqual(["break-glass"]);
    expect(incidents[0].title).toContain(reason);
    const audits =
      await db`SELECT action, severity, actor FROM audit WHERE org_id = ${o.org.id} AND action LIKE 'break_glass.%' ORDER BY id`;
    expect(audits.map((a: { action: string; severity: string }) => [a.action, a.severity])).toEqual([
      ["break_glass.refused", "critical"],
      ["break_glass.open", "critical"],
    ]);
    expect(audits[1].actor).toBe(o.admin.email);
    expect((await o.browser.get("/waiting")).html).toContain("Break-glass open");
    // A second one while it is open is refused; closing it puts the freeze back on the next beat.
    expect((await o.browser.post("/waiting", { _action: "break-glass", reason, for: "1h" })).status).toBe(409);
    const closed = await o.browser.post("/waiting", { _action: "close-glass", id: list[0].id });
    expect(closed.status).toBe(303);
    const after = await bundle(o.token);
    expect(factIds(after)).toEqual([frozen.body.id]);
    expect(after.rules).toBeNull();
  });

  test("it ends on its own: past its end the freeze is in force again", async () => {
    const o = await newOrg();
    const frozen = await api(url, "POST", "/v1/state", {
      token: o.token,
      body: { kind: "freeze-agent", subject: "claude-code", for: "1d" },
    });
    const r = await o.browser.post("/waiting", {
      _action: "break-glass",
      reason: "the agent must finish the rollback",
      for: "30m",
    });
    expect(r.status).toBe(200);
    expect(factIds(await bundle(o.token))).toEqual([]);
    await db`UPDATE break_glass SET ends_at = now() - interval '1 second' WHERE workspace_id = ${o.workspace.id}`;
    expect(factIds(await bundle(o.token))).toEqual([frozen.body.id]);
    // With nothing in force there is nothing to override.
    await api(url, "POST", `/v1/state/${frozen.body.id}/lift`, { token: o.token });
    const nothing = await o.browser.post("/waiting", {
      _action: "break-glass",
      reason: "no freeze at all, just because",
      for: "30m",
    });
    expect(nothing.status).toBe(409);
  });
});

interface Enrolled {
  readonly id: string;
  readonly token: string;
  readonly secret: Uint8Array;
}

const enrol = (o: NewOrg): Promise<Enrolled> => enrolMachine(url, o.token);

let seq = 0;
function action(extra: Partial<SentEvent> = {}): SentEvent {
  seq += 1;
  const key = `evt_s${String(seq).padStart(7, "0")}`;
  return {
    dedupKey: key,
    subjectId: key,
    occurredAt: new Date().toISOString(),
    surface: "shell",
    operation: "filesystem.write",
    classes: ["write"],
    effect: "allow",
    ...extra,
  };
}

function sendBatch(m: Enrolled, events: readonly unknown[]) {
  const raw = JSON.stringify({ machineId: m.id, sentAt: new Date().toISOString(), events });
  const sig = signWith(m.secret, new TextEncoder().encode(raw));
  return api(url, "POST", "/v1/events", { token: m.token, raw, headers: { [SIGNATURE_HEADER]: sig } });
}

describe("sinks", () => {
  test("a webhook added signed in gets each deny signed and masked; its secret shown once; a token cannot add one", async () => {
    const o = await newOrg();
    const received: { headers: Headers; body: string }[] = [];
    let arrived: () => void = () => {};
    const got = new Promise<void>((r) => {
      arrived = r;
    });
    const receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        received.push({ headers: req.headers, body: await req.text() });
        arrived();
        return new Response(null, { status: 204 });
      },
    });
    try {
      const target = `http://127.0.0.1:${receiver.port}/memnox`;
      expect((await api(url, "POST", "/v1/sinks", { token: o.token, body: { kind: "webhook", target } })).status).toBe(
        403,
      );
      // Plain http elsewhere would send the record in the clear: refused.
      const far = await o.browser.post("/settings", {
        _action: "add-sink",
        kind: "webhook",
        target: "http://siem.example.com/x",
      });
      expect(far.status).toBe(400);
      const added = await o.browser.post("/settings", {
        _action: "add-sink",
        kind: "webhook",
        target,
        verdicts: "deny",
      });
      expect(added.status).toBe(200);
      const secret = /<code id="sink-secret">([^<]*)<\/code>/.exec(added.html)?.[1] ?? "";
      const [sink] = await db`SELECT id FROM sinks WHERE workspace_id = ${o.workspace.id}`;
      expect(secret).toBe(sinkSecret(SECRET, sink.id));
      expect((await o.browser.get("/settings")).html).not.toContain(secret);
      expect(JSON.stringify(await db`SELECT * FROM audit WHERE org_id = ${o.org.id}`)).not.toContain(secret);
      expect(JSON.stringify(await db`SELECT * FROM sinks`)).not.toContain(secret);
      const m = await enrol(o);
      const canary = "ghp_SinkCanary0123456789abcdefABCDEF";
      const sent = await sendBatch(m, [
        action({ effect: "allow", operation: "git.status" }),
        action({
          effect: "deny",
          operation: "http.post",
          reason: "secret read then outward send",
          resourceRef: `https://x-access-token:${canary}@evil.example/upload`,
        }),
      ]);
      expect(sent.status).toBe(200);
      await got;
      expect(received).toHaveLength(1);
      const r = received[0];
      if (!r) throw new Error("nothing arrived");
      expect(r.body).not.toContain(canary);
      const payload = JSON.parse(r.body);
      expect(payload.events.map((e: { verdict: string }) => e.verdict)).toEqual(["deny"]);
      expect(payload.events[0].operation).toBe("http.post");
      expect(payload.events[0].resource).toContain("x-access-token");
      // Signed as Standard Webhooks: a receiver with the secret it was shown checks it.
      const id = r.headers.get("webhook-id") ?? "";
      const ts = Number(r.headers.get("webhook-timestamp"));
      expect(r.headers.get("webhook-signature")).toBe(signDelivery(secret, id, ts, r.body));
      // Counted on the sink, shown under Settings.
      let row = (await db`SELECT delivered FROM sinks WHERE id = ${sink.id}`)[0];
      // Counted once the receiver has answered: waited for, not timed.
      for (let i = 0; i < 500 && Number(row.delivered) === 0; i++) {
        await Bun.sleep(20);
        row = (await db`SELECT delivered FROM sinks WHERE id = ${sink.id}`)[0];
      }
      expect(Number(row.delivered)).toBe(1);
      // A viewer sees the list, is offered neither form, and is refused removing it.
      const viewer = await person(o, "val", "viewer");
      const vpage = (await viewer.browser.get("/settings")).html;
      expect(vpage).toContain(target);
      expect(vpage).not.toContain("Add sink");
      expect((await viewer.browser.post("/settings", { _action: "remove-sink", id: sink.id })).status).toBe(403);
      expect((await api(url, "POST", `/v1/sinks/${sink.id}/remove`, { token: o.token })).status).toBe(403);
      expect((await o.browser.post("/settings", { _action: "remove-sink", id: sink.id })).status).toBe(303);
      expect((await api(url, "GET", "/v1/sinks", { token: o.token })).body.sinks).toEqual([]);
    } finally {
      receiver.stop(true);
    }
  });
});

describe("privacy", () => {
  test("the register classifies every table that exists, four ways", async () => {
    const o = await newOrg();
    const tables: { table_name: string }[] =
      await db`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`;
    const { body } = await api(url, "GET", "/v1/privacy/register", { token: o.token });
    const classified = new Set(body.tables.map((t: { table: string }) => t.table));
    expect(tables.map((t) => t.table_name).filter((t) => !classified.has(t))).toEqual([]);
    expect([...classified].filter((t) => !tables.some((x) => x.table_name === t))).toEqual([]);
    for (const t of body.tables) {
      expect(["none", "identity", "content", "behavioural", "commercial"]).toContain(t.holds);
      expect(["contract", "legitimate_interest", "legal_obligation", "not_applicable"]).toContain(t.basis);
      expect(typeof t.encrypted).toBe("boolean");
    }
    expect((await o.browser.get("/settings")).html).toContain(`Register: ${tables.length} tables`);
  });

  test("an admin signed in exports an author's data table by table, then erases it with a receipt; a token cannot", async () => {
    const o = await newOrg();
    const other = await newOrg();
    const wrote = async (ws: string, key: string, author: string, content: string) =>
      db`INSERT INTO source_events (workspace_id, dedup_key, source_type, source_ref, kind, author, author_trusted, content,
                                    occurred_at, tainted, classification)
         VALUES (${ws}, ${key}, 'github', 'https://github.com/acme/web/pull/9', 'pull_request', ${author}, false, ${content},
                 now(), false, 'internal')`;
    await wrote(o.workspace.id, "k1", "octo-dev", "we ship the checkout on Fridays");
    await wrote(o.workspace.id, "k2", "someone-else", "unrelated");
    await wrote(other.workspace.id, "k3", "octo-dev", "another team's copy");
    expect(
      (await api(url, "POST", "/v1/privacy/export", { token: o.token, body: { subject: "octo-dev" } })).status,
    ).toBe(403);
    const exported = await o.browser.post("/settings", { _action: "export-subject", subject: "octo-dev" });
    expect(exported.status).toBe(200);
    expect(exported.html).toContain("we ship the checkout on Fridays");
    expect(exported.html).not.toContain("another team");
    expect(exported.html).not.toContain("unrelated");
    // A member is erased by removing them, which is where the account's receipt comes from.
    expect((await o.browser.post("/settings", { _action: "erase-subject", subject: o.admin.email })).status).toBe(409);
    const viewer = await person(o, "pia", "viewer");
    expect((await viewer.browser.post("/settings", { _action: "erase-subject", subject: "octo-dev" })).status).toBe(
      403,
    );
    const erased = await o.browser.post("/settings", { _action: "erase-subject", subject: "octo-dev" });
    expect(erased.status).toBe(200);
    expect(erased.html).toContain("Erasure receipt");
    expect(erased.html).toMatch(/<code>source_events<\/code><\/td><td>1<\/td><td>deleted/);
    const left = await db`SELECT workspace_id, author FROM source_events WHERE author = 'octo-dev'`;
    expect(left.map((r: { workspace_id: string }) => r.workspace_id)).toEqual([other.workspace.id]);
    // The audit keeps that an export and an erasure happened, never whose.
    const rows = JSON.stringify(await db`SELECT * FROM audit WHERE org_id = ${o.org.id} AND action LIKE 'privacy.%'`);
    expect(rows).toContain("privacy.erasure");
    expect(rows).not.toContain("octo-dev");
  });
});

describe("reach and the counterfactual", () => {
  test("reach by class, by resource and by a confirmed tag: who touched it, how, on which machines; a refusal touched nothing", async () => {
    const o = await newOrg();
    const m = await enrol(o);
    const sent = await sendBatch(m, [
      action({ agent: "claude-code", operation: "psql.query", classes: ["read"], resourceRef: "db.prod.acme.com" }),
      action({
        agent: "codex",
        operation: "psql.drop",
        classes: ["destructive"],
        resourceRef: "db.prod.acme.com",
        effect: "deny",
      }),
      action({ agent: "codex", operation: "http.get", classes: ["read"], resourceRef: "api.staging.acme.com" }),
      action({ agent: "release-bot", operation: "git.push", classes: ["write"], resourceRef: "github.com/acme/web" }),
    ]);
    expect(sent.body.accepted).toBe(4);
    const ask = async (q: string) => (await api(url, "GET", `/v1/reach?${q}`, { token: o.token })).body;
    expect((await ask("class=read")).agents).toEqual(["claude-code", "codex"]);
    // The refused drop reached nothing.
    expect((await ask("class=destructive")).agents).toEqual([]);
    const exact = await ask("resource=db.prod.acme.com");
    expect(exact.agents).toEqual(["claude-code"]);
    expect(exact.machines).toEqual({ "claude-code": [m.id] });
    expect(exact.paths[0].via).toContain("psql.query");
    // No tag confirmed yet: nothing carries it.
    expect((await ask("tag=production")).agents).toEqual([]);
    const tagged = await api(url, "PUT", "/v1/tags/production", {
      token: o.token,
      body: { patterns: ["*.prod.acme.com", "github.com/acme/*"] },
    });
    expect(tagged.status).toBe(200);
    const production = await ask("tag=production");
    expect(production.agents).toEqual(["claude-code", "release-bot"]);
    expect(production.patterns).toEqual(["*.prod.acme.com", "github.com/acme/*"]);
    // A viewer may ask, not tag; two questions at once, or an unknown class, are refused.
    const viewer = await memberWithToken(db, o.org.id, "quinn@op.dev", "viewer");
    expect((await api(url, "GET", "/v1/reach?tag=production", { token: viewer.token })).status).toBe(200);
    expect(
      (await api(url, "PUT", "/v1/tags/production", { token: viewer.token, body: { patterns: ["*"] } })).status,
    ).toBe(403);
    expect((await api(url, "GET", "/v1/reach?tag=production&class=read", { token: o.token })).status).toBe(400);
    expect((await api(url, "GET", "/v1/reach?class=everything", { token: o.token })).status).toBe(400);
  });

  test("a refused credential read shows, where its row is, what that credential would have opened", async () => {
    const o = await newOrg();
    const m = await enrol(o);
    const would = "~/.aws/credentials: AWS (aws: 3 accounts, s3 delete, iam)";
    await sendBatch(m, [
      action({
        agent: "claude-code",
        operation: "filesystem.read",
        classes: ["read"],
        resourceRef: "~/.aws/credentials",
        effect: "deny",
        reason: "a credential file",
        wouldReach: would,
      }),
    ]);
    const listed = (await api(url, "GET", "/v1/events?effect=deny", { token: o.token })).body.events;
    expect(listed[0].wouldReach).toBe(would);
    const page = (await o.browser.get("/caught?effect=deny")).html;
    expect(page).toContain(`Would have reached: ${would}`);
  });
});

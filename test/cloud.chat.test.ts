// The team's chat commands through the Slack slash route, against a real PostgreSQL and the real HTTP face: a command
// signed as Slack signs one (X-Slack-Signature v0 over the raw form body) with the workspace's Slack secret, from a
// Slack account an admin linked under People, freezes every machine or one agent, or moves every machine to enforce,
// and an enrolled machine's next bundle and heartbeat carry it. A forged signature, a stale timestamp, a replay (here
// or to another workspace), an unlinked account, a member who never signed in and a viewer all change nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { routeSecret } from "../src/cloud/intent/webhook.ts";
import { signSlack } from "../src/cloud/routes/chat.ts";
import type { Db } from "../src/cloud/store/db.ts";
import type { NewOrg } from "../src/cloud/store/people.ts";
import { api, enrolMachine, memberWithToken, slashCommandBody } from "./support/cloud.ts";
import { type InProcessCloud, startInProcessCloud } from "./support/cloud-in-process.ts";

const SECRET = "whsec_Q2hhdC1jb21tYW5kcy1mcm9tLXNsYWNr";

// Slack's own worked example (docs: "Verifying requests from Slack"): the signer must reproduce it byte for byte.
const DOC_BODY =
  "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";

let cloud: InProcessCloud;
let db: Db;
let url = "";

beforeAll(async () => {
  cloud = await startInProcessCloud(SECRET);
  ({ db, url } = cloud);
}, 60_000);

afterAll(() => cloud?.stop());

const newOrg = () => cloud.newOrg("chat");

/** What a sign-in binds: the member has signed up, so a chat account linked to them may act as them. */
async function signedUp(memberId: string): Promise<void> {
  await db`UPDATE members SET oidc_issuer = 'https://idp.test', oidc_subject = ${`sub-${memberId}`},
             last_sign_in_at = now() WHERE id = ${memberId}`;
}

function slackHeaders(secret: string, body: string, ts = Math.floor(Date.now() / 1000)): Record<string, string> {
  return {
    "content-type": "application/x-www-form-urlencoded",
    "x-slack-request-timestamp": String(ts),
    "x-slack-signature": signSlack(secret, ts, body),
  };
}

const commandsRoute = (o: NewOrg) => `/v1/inbound/${o.workspace.id}/slack/commands`;

async function send(o: NewOrg, user: string, text: string) {
  const raw = slashCommandBody(user, text);
  return api(url, "POST", commandsRoute(o), {
    raw,
    headers: slackHeaders(routeSecret(SECRET, o.workspace.id, "slack"), raw),
  });
}

/** What a command could have changed: conditions, mode changes and each machine's mode. */
async function fleetState(o: NewOrg): Promise<string> {
  return JSON.stringify([
    await db`SELECT id, kind, subject FROM conditions WHERE workspace_id = ${o.workspace.id} ORDER BY id`,
    await db`SELECT c.id FROM mode_changes c JOIN machines m ON m.id = c.machine_id
             WHERE m.workspace_id = ${o.workspace.id} ORDER BY c.id`,
    await db`SELECT id, mode_set FROM machines WHERE workspace_id = ${o.workspace.id} ORDER BY id`,
  ]);
}

async function heartbeat(token: string, bundleHash: string | null) {
  return api(url, "POST", "/v1/heartbeat", {
    token,
    body: { bundleHash, modeRunning: "observe", holds: [], answersApplied: [], version: "test" },
  });
}

const factsOf = (b: { conditions: string }) =>
  (JSON.parse(b.conditions) as { facts: { kind: string; subject: string; reason?: string; by: string }[] }).facts;

test("the signer reproduces Slack's own worked example", () => {
  expect(signSlack("8f742231b10e8888abcd99yyyzzz85a5", 1531420618, DOC_BODY)).toBe(
    "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
  );
});

describe("chat commands", () => {
  test("an admin linked under People freezes every machine, one agent, and moves every machine to enforce; each machine's next beat carries it", async () => {
    const o = await newOrg();
    await signedUp(o.admin.id);
    const linked = await o.browser.post("/people", { _action: "link", account: "U0ADMIN01", email: o.admin.email });
    expect(linked.status).toBe(200);
    expect((await o.browser.get("/people")).html).toContain("U0ADMIN01");
    const m = await enrolMachine(url, o.token);
    const before = await heartbeat(m.token, null);
    const firstHash = before.body.bundleHash;

    const frozen = await send(o, "U0ADMIN01", "freeze 30m db migration going wrong");
    expect(frozen.status).toBe(200);
    expect(frozen.body.response_type).toBe("in_channel");
    expect(frozen.body.text).toContain("Frozen: every machine");
    // The machine's next heartbeat names a new bundle, and the bundle it pulls carries the freeze, by the person.
    const beat = await heartbeat(m.token, firstHash);
    expect(beat.body.bundleHash).not.toBe(firstHash);
    const pulled = await api(url, "GET", "/v1/bundle", { token: m.token });
    expect(pulled.body.hash).toBe(beat.body.bundleHash);
    expect(factsOf(pulled.body)).toEqual([
      expect.objectContaining({
        kind: "freeze",
        subject: "machine",
        reason: "db migration going wrong",
        by: o.admin.email,
      }),
    ]);

    const agent = await send(o, "U0ADMIN01", "freeze-agent release-bot 2h pushing to main");
    expect(agent.body.text).toContain("release-bot");
    expect(factsOf((await api(url, "GET", "/v1/bundle", { token: m.token })).body)).toContainEqual(
      expect.objectContaining({ kind: "freeze-agent", subject: "release-bot", reason: "pushing to main" }),
    );
    // From chat too, a week at most: refused, nothing added.
    const long = await send(o, "U0ADMIN01", "freeze-agent release-bot 2w");
    expect(long.body.text).toContain("a week at most");
    expect(await db`SELECT 1 FROM conditions WHERE workspace_id = ${o.workspace.id}`).toHaveLength(2);

    const enforced = await send(o, "U0ADMIN01", "enforce-everywhere incident 7");
    expect(enforced.body.text).toContain("1 machine(s) move to enforce");
    const next = await heartbeat(m.token, null);
    expect(next.body.modeChange).toEqual(expect.objectContaining({ to: "enforce", by: o.admin.email }));
    const audit = await db`SELECT action, actor FROM audit WHERE org_id = ${o.org.id} AND action LIKE 'chat.%'`;
    expect(audit.filter((a: { action: string }) => a.action === "chat.command")).toHaveLength(3);
    // Words that name no duration are the why, and the reply says how to freeze one subject instead.
    const whole = await send(o, "U0ADMIN01", "freeze deploys are broken");
    expect(whole.body.text).toContain("One subject only");
    const [last] = await db`SELECT subject, reason FROM conditions WHERE workspace_id = ${o.workspace.id}
                             ORDER BY set_at DESC, id DESC LIMIT 1`;
    expect(last).toEqual({ subject: "machine", reason: "deploys are broken" });
    const named = await send(o, "U0ADMIN01", "freeze payments 1h card retries");
    expect(named.body.text).toContain("Frozen: payments");
    // Help answers the person alone and changes nothing.
    const help = await send(o, "U0ADMIN01", "help");
    expect(help.body.response_type).toBe("ephemeral");
    expect(help.body.text).toContain("freeze-agent <agent>");
  });

  test("a forged signature, a stale timestamp, a replay here or to another workspace, an unlinked account, a member who never signed in and a viewer change nothing", async () => {
    const o = await newOrg();
    const other = await newOrg();
    await signedUp(o.admin.id);
    await o.browser.post("/people", { _action: "link", account: "U0ADMIN02", email: o.admin.email });
    const viewer = await memberWithToken(db, o.org.id, "vic@chat.dev", "viewer");
    await signedUp(viewer.id);
    await o.browser.post("/people", { _action: "link", account: "U0VIEWER2", email: "vic@chat.dev" });
    await memberWithToken(db, o.org.id, "nora@chat.dev", "admin");
    await o.browser.post("/people", { _action: "link", account: "U0NEVER02", email: "nora@chat.dev" });
    await enrolMachine(url, o.token);
    await enrolMachine(url, other.token);
    const was = await fleetState(o);
    const otherWas = await fleetState(other);
    const secret = routeSecret(SECRET, o.workspace.id, "slack");

    const raw = slashCommandBody("U0ADMIN02", "enforce-everywhere");
    // Forged: signed with another workspace's secret, or a byte changed after signing.
    const forged = await api(url, "POST", commandsRoute(o), {
      raw,
      headers: slackHeaders(routeSecret(SECRET, other.workspace.id, "slack"), raw),
    });
    expect(forged.status).toBe(401);
    const changed = await api(url, "POST", commandsRoute(o), {
      raw: raw.replace("enforce-everywhere", "freeze"),
      headers: slackHeaders(secret, raw),
    });
    expect(changed.status).toBe(401);
    // Stale: correctly signed ten minutes ago.
    const stale = await api(url, "POST", commandsRoute(o), {
      raw,
      headers: slackHeaders(secret, raw, Math.floor(Date.now() / 1000) - 600),
    });
    expect(stale.status).toBe(401);
    // Replayed to another workspace's route: its secret is another, so the signature does not hold there.
    const signedOnce = slashCommandBody("U0ADMIN02", "freeze 1h");
    const fresh = slackHeaders(secret, signedOnce);
    const toOther = await api(url, "POST", commandsRoute(other), { raw: signedOnce, headers: fresh });
    expect(toOther.status).toBe(401);
    expect(await fleetState(other)).toBe(otherWas);
    expect(await fleetState(o)).toBe(was);

    // Unlinked, never signed in, a viewer: each told why in Slack, audited, nothing changed.
    const unknown = await send(o, "U0STRANGE", "enforce-everywhere");
    expect(unknown.status).toBe(200);
    expect(unknown.body.response_type).toBe("ephemeral");
    expect(unknown.body.text).toContain("does not know this Slack account");
    const notSignedUp = await send(o, "U0NEVER02", "freeze 1h");
    expect(notSignedUp.body.text).toContain("does not know this Slack account");
    const byViewer = await send(o, "U0VIEWER2", "freeze-agent release-bot 1h");
    expect(byViewer.body.text).toContain("Refused: this needs the admin role");
    expect(await fleetState(o)).toBe(was);
    const refusals =
      await db`SELECT actor, subject, severity FROM audit WHERE org_id = ${o.org.id} AND action = 'chat.refused' ORDER BY id`;
    expect(refusals.map((r: { subject: string }) => r.subject)).toEqual([
      "slack:U0STRANGE",
      "slack:U0NEVER02",
      "slack:U0VIEWER2",
    ]);
    expect(refusals[2].actor).toBe("vic@chat.dev");

    // A real command lands once; the same signed request again acts on nothing.
    const good = await api(url, "POST", commandsRoute(o), { raw: signedOnce, headers: fresh });
    expect(good.status).toBe(200);
    const replay = await api(url, "POST", commandsRoute(o), { raw: signedOnce, headers: fresh });
    expect(replay.status).toBe(409);
    expect(await db`SELECT 1 FROM conditions WHERE workspace_id = ${o.workspace.id}`).toHaveLength(1);
  });
});

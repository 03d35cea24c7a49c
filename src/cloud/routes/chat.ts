// The team's chat commands (`/memnox freeze`, `freeze-agent`, `enforce-everywhere`): Slack's slash command POST to
// `/v1/inbound/:workspace/slack/commands`, signed as Slack signs (`X-Slack-Signature: v0=` + the hex HMAC-SHA256 of
// `v0:<X-Slack-Request-Timestamp>:<raw body>`) with this workspace's Slack route secret, inside the replay window,
// each signature taken once. The Slack user must be linked to an active member who has signed in; the command then
// runs as that person through the route table (in-process.ts): the same requirement and the same handler as
// `POST /v1/state` and `POST /v1/machines/enforce`, so a viewer is refused here exactly as there.

import { formatDuration, parseDuration } from "../../core/duration.ts";
import { MACHINE_FREEZE } from "../../core/request.ts";
import { memberPrincipal } from "../auth.ts";
import { type Call, json, type Route } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { sameText } from "../ids.ts";
import { controlIn } from "../input.ts";
import { REPLAY_WINDOW_S, routeSecret } from "../intent/webhook.ts";
import { RATES, spend, tooMany } from "../limits.ts";
import type { Principal } from "../roles.ts";
import { audit } from "../store/people.ts";
import * as store from "../store/sources.ts";
import { type ApiKey, callRoute, routeOf } from "./in-process.ts";

/** The connector whose route secret signs the commands: the Slack app's one signing secret serves both. */
const SOURCE = "slack";
/** What inbound_deliveries and the limits call this route. */
const ROUTE_NAME = "slack-commands";
/** A slash command is a short form: anything longer is not one. */
const MAX_BYTES = 8 * 1024;
/** `/memnox freeze` with no duration: long enough to look, short enough that a forgotten one ends the same day. */
const DEFAULT_FREEZE = "2h";

const USAGE =
  "Usage: `/memnox freeze [subject] [30m|2h|1d] [why]` (no subject: every machine's outward and destructive actions), " +
  "`/memnox freeze-agent <agent> <30m|2h|1d> [why]`, `/memnox enforce-everywhere [why]`. Lift a freeze in the console.";

/** Slack's `v0=` signature of one request, as Slack makes it (the secret's text is the HMAC key). */
export function signSlack(secret: string, timestamp: number, body: string | Uint8Array): string {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const head = new TextEncoder().encode(`v0:${timestamp}:`);
  const signed = new Uint8Array(head.length + bytes.length);
  signed.set(head);
  signed.set(bytes, head.length);
  return `v0=${new Bun.CryptoHasher("sha256", new TextEncoder().encode(secret)).update(signed).digest("hex")}`;
}

/** The request's signature when it checks at `nowMs` inside the replay window, else why not. */
function verifySlack(
  secret: string,
  headers: Headers,
  bytes: Uint8Array,
  nowMs: number,
): { ok: true; signature: string } | { ok: false; why: string } {
  const ts = headers.get("x-slack-request-timestamp") ?? "";
  const sig = headers.get("x-slack-signature") ?? "";
  if (!/^\d{1,12}$/.test(ts) || !sig)
    return { ok: false, why: "the request carries no X-Slack-Request-Timestamp and X-Slack-Signature" };
  if (Math.abs(nowMs / 1000 - Number(ts)) > REPLAY_WINDOW_S)
    return { ok: false, why: "the request's timestamp is outside the replay window" };
  return sameText(sig, signSlack(secret, Number(ts), bytes))
    ? { ok: true, signature: sig }
    : { ok: false, why: "the X-Slack-Signature does not check" };
}

/** What Slack shows: to the person alone (a refusal, the usage) or to the channel (an act the team should see). */
function say(text: string, toChannel = false, status = 200): Response {
  return json({ response_type: toChannel ? "in_channel" : "ephemeral", text }, status);
}

interface Command {
  readonly key: ApiKey;
  readonly body: Record<string, unknown>;
  readonly done: (result: Record<string, unknown>) => string;
}

function until(result: Record<string, unknown>): string {
  const at = typeof result.expiresAt === "string" ? result.expiresAt : "";
  return at ? `until ${at.slice(0, 16).replace("T", " ")} UTC` : "";
}

function isDuration(word: string | undefined): word is string {
  if (word === undefined) return false;
  try {
    parseDuration(word);
    return true;
  } catch {
    return false;
  }
}

/** The command a slash command's text names, or the usage when it names none. */
export function parseCommand(text: string): Command | string {
  const [verb = "", ...rest] = text.trim().split(/\s+/).filter(Boolean);
  const why = (words: readonly string[]) => (words.length > 0 ? { reason: words.join(" ") } : {});
  if (verb === "freeze") {
    // `freeze 2h why`, `freeze payments 2h why`, `freeze why…`: a subject only where a duration follows it.
    const [first, second] = rest;
    const named = !isDuration(first) && isDuration(second);
    const subject = named && first ? first : MACHINE_FREEZE;
    const forText = isDuration(first) ? first : named && second ? second : DEFAULT_FREEZE;
    const words = isDuration(first) ? rest.slice(1) : named ? rest.slice(2) : rest;
    return {
      key: "POST /v1/state",
      body: { kind: "freeze", subject, for: forText, ...why(words) },
      done: (r) =>
        subject === MACHINE_FREEZE
          ? `Frozen: every machine refuses outward and destructive actions from its next heartbeat, for ${formatDuration(parseDuration(forText))} (${until(r)}).${
              named || words.length === 0 ? "" : " (One subject only: `/memnox freeze payments 2h why`.)"
            }`
          : `Frozen: ${subject}, on every machine from its next heartbeat, for ${formatDuration(parseDuration(forText))} (${until(r)}).`,
    };
  }
  if (verb === "freeze-agent") {
    const [agent, forText, ...words] = rest;
    if (!agent || !isDuration(forText)) return `\`freeze-agent\` names an agent and how long. ${USAGE}`;
    return {
      key: "POST /v1/state",
      body: { kind: "freeze-agent", subject: agent, for: forText, ...why(words) },
      done: (r) =>
        `Frozen everywhere: every machine refuses ${agent}'s actions from its next heartbeat, for ${formatDuration(parseDuration(forText))} (${until(r)}).`,
    };
  }
  if (verb === "enforce-everywhere")
    return {
      key: "POST /v1/machines/enforce",
      body: why(rest),
      done: (r) => {
        const n = Array.isArray(r.enforced) ? r.enforced.length : 0;
        return `Enforce everywhere: ${n} machine(s) move to enforce on their next heartbeat; the rest already enforce.`;
      },
    };
  return verb === "" || verb === "help" ? USAGE : `\`${verb}\` is not a memnox command. ${USAGE}`;
}

/** The member a Slack user is linked to in this workspace, active and signed up (has signed in), or undefined. */
async function linkedMember(c: Call, workspaceId: string, account: string): Promise<string | undefined> {
  return store.linkedMember(c.db, workspaceId, SOURCE, account);
}

/** POST /v1/inbound/:workspace/slack/commands: one slash command, signed, taken once, acted as the linked person. */
export async function slashCommand(c: Call, routes: readonly Route[]): Promise<Response> {
  const secret = c.config.webhookSecret;
  if (!secret)
    throw new HttpError(503, "not_configured", "this deployment has no webhook secret (MEMNOX_WEBHOOK_SECRET)");
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.length > MAX_BYTES) throw new HttpError(413, "too_large", "a slash command is a short form");
  const workspaceId = c.params.workspace ?? "";
  const refusedKey = `refused:${c.address ?? "unknown"}`;
  const wait = c.guard?.buckets.peek(refusedKey, RATES.refused) ?? 0;
  if (wait > 0) throw tooMany("with signatures that do not hold", wait);
  const verified = verifySlack(routeSecret(secret, workspaceId, SOURCE), c.req.headers, bytes, c.now());
  if (!verified.ok) {
    c.guard?.buckets.take(refusedKey, RATES.refused);
    throw new HttpError(401, "bad_signature", `${verified.why} (with this workspace's own Slack secret)`);
  }
  if (c.guard) spend(c.guard.buckets, `inbound:${workspaceId}:${ROUTE_NAME}`, RATES.inboundSource, "for this route");
  const ws = await store.workspaceOrg(c.db, workspaceId);
  if (!ws) throw new HttpError(404, "not_found", "no such workspace");
  // A command acts: the same signed request a second time, on this route or any other, acts on nothing.
  await store.forgetOldDeliveries(c.db, REPLAY_WINDOW_S);
  if (!(await store.takeOnce(c.db, `slack-command:${verified.signature}`, workspaceId, ROUTE_NAME)))
    throw new HttpError(409, "replayed", "this command was already received");
  const form = new URLSearchParams(new TextDecoder().decode(bytes));
  for (const [k, v] of form) {
    const bad = controlIn(k, false) ?? controlIn(v, false);
    if (bad) throw new HttpError(400, "bad_request", `\`${k}\` holds a control character (${bad})`, { field: k });
  }
  // Slack's own check that the command's URL answers: nothing to act on.
  if (form.get("ssl_check") === "1") return json({});
  const user = form.get("user_id") ?? "";
  const text = (form.get("text") ?? "").slice(0, 500);
  if (!/^[A-Z0-9]{2,32}$/.test(user)) throw new HttpError(400, "bad_request", "the command names no Slack user_id");
  const refuse = async (why: string, actor: string) => {
    await audit(c.db, {
      orgId: ws.org_id,
      actor,
      action: "chat.refused",
      severity: "warning",
      subject: `slack:${user}`,
      detail: { command: text, why },
    });
    return say(`Refused: ${why}`);
  };
  const memberId = await linkedMember(c, workspaceId, user);
  const who: Principal | undefined = memberId
    ? await memberPrincipal(c.db, memberId, c.now(), "chat", `chat:slack:${user}`)
    : undefined;
  if (!who)
    return refuse(
      "memnox does not know this Slack account. An admin links it to your address under People (Chat accounts), and you sign in to the console once.",
      `slack:${user}`,
    );
  const command = parseCommand(text);
  if (typeof command === "string") return say(command);
  try {
    const result = await callRoute<Record<string, unknown>>(routeOf(routes, command.key), c, who, {
      body: command.body,
    });
    await audit(c.db, {
      orgId: ws.org_id,
      actor: who.kind === "person" ? who.email : `slack:${user}`,
      action: "chat.command",
      subject: `slack:${user}`,
      detail: { command: text, route: command.key, result: typeof result.id === "string" ? result.id : null },
    });
    return say(command.done(result), true);
  } catch (e) {
    if (!(e instanceof HttpError) || e.status >= 500) throw e;
    if (e.status === 403) return refuse(e.message, who.kind === "person" ? who.email : `slack:${user}`);
    return say(`Not done: ${e.message}. ${USAGE}`);
  }
}

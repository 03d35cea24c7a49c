// Sinks: where what was caught is forwarded, outside this server's trust boundary. A webhook is signed the Standard
// Webhooks way with a secret derived from the deployment's and the sink's id (shown once, at creation, stored nowhere);
// a syslog collector gets one RFC 5424 line per row over UDP. Every payload goes through the one masker; a sink that
// fails is counted on its row, never retried into the machine's request.
import type * as v from "valibot";
import { maskDeep } from "../../core/secrets.ts";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { newId } from "../ids.ts";
import { signDelivery, sinkSecret } from "../intent/webhook.ts";
import { iso } from "../iso.ts";
import type { Db } from "../store/db.ts";
import type { CaughtRow } from "../store/events.ts";
import { audit } from "../store/people.ts";
import type { SinkRow } from "../store/sinks.ts";
import * as store from "../store/sinks.ts";
import type { SinkBody } from "./bodies.ts";

/** A caught row as forwarded: what happened and why, never a credential (the masker has the last word). */

const view = (s: SinkRow) => ({
  id: s.id,
  kind: s.kind,
  target: s.target,
  verdicts: s.verdicts,
  createdBy: s.created_by,
  createdAt: iso(s.created_at),
  delivered: Number(s.delivered),
  failed: Number(s.failed),
  lastDeliveryAt: iso(s.last_delivery_at),
  lastError: s.last_error,
});

export type SinkView = ReturnType<typeof view>;

const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** https anywhere; plain http and syslog's UDP only to this host (a collector beside the server), or it is refused. */
function checkTarget(kind: "webhook" | "syslog", target: string): void {
  let u: URL;
  try {
    u = new URL(target);
  } catch {
    throw new HttpError(400, "bad_request", "`target` is a URL", { field: "target" });
  }
  const ok =
    kind === "webhook"
      ? u.protocol === "https:" || (u.protocol === "http:" && LOOPBACK.test(u.hostname))
      : u.protocol === "udp:" && u.port !== "" && !u.username && !u.password;
  if (!ok || u.username || u.password)
    throw new HttpError(
      400,
      "bad_request",
      kind === "webhook"
        ? "a webhook is an https URL with no credential in it (http only to this host)"
        : "a syslog target is udp://host:port",
      { field: "target" },
    );
}

/** GET /v1/sinks: where the record goes, and how each has fared. */
export async function listSinks(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const rows = await store.sinks(c.db, who.workspaceId);
  return json({ sinks: rows.map(view) });
}

/** POST /v1/sinks {kind, target, verdicts?}: an admin signed in; a webhook's secret is in this answer only. */
export async function createSink(c: Call, body: v.InferOutput<typeof SinkBody>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const deployment = c.config.webhookSecret;
  if (body.kind === "webhook" && !deployment)
    throw new HttpError(503, "not_configured", "this deployment has no webhook secret (MEMNOX_WEBHOOK_SECRET)");
  checkTarget(body.kind, body.target);
  const id = newId("snk");
  const by = actorName(who);
  const s = await store.insertSink(c.db, {
    id,
    workspaceId: who.workspaceId,
    kind: body.kind,
    target: body.target,
    verdicts: body.verdicts,
    by,
  });
  await audit(c.db, {
    orgId: who.orgId,
    actor: by,
    action: "sink.create",
    subject: id,
    detail: { kind: body.kind, target: body.target, verdicts: body.verdicts },
  });
  if (!s) throw new HttpError(500, "internal", "the sink was not recorded");
  return json(
    {
      ...view(s),
      ...(body.kind === "webhook" && deployment
        ? {
            secret: sinkSecret(deployment, id),
            scheme: "Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature (v1, HMAC-SHA256)",
          }
        : {}),
    },
    201,
  );
}

/** POST /v1/sinks/:id/remove: the record stops going there; a person's act, since it is less oversight. */
export async function removeSink(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const by = actorName(who);
  const s = await store.removeSink(c.db, who.workspaceId, c.params.id ?? "");
  if (!s) throw new HttpError(404, "not_found", `no sink \`${c.params.id ?? ""}\``);
  await audit(c.db, { orgId: who.orgId, actor: by, action: "sink.remove", subject: s.id, severity: "warning" });
  return json({ id: s.id, removed: true });
}

const caughtView = (r: CaughtRow) =>
  maskDeep({
    id: String(r.id),
    at: iso(r.occurred_at),
    machine: r.machine_id,
    agent: r.agent,
    surface: r.surface,
    operation: r.operation,
    verdict: r.effect,
    reason: r.reason,
    rule: r.rule_id,
    resource: r.resource_ref,
  });

/** RFC 5424: `<PRI>1 TIMESTAMP HOST APP - MSGID - MSG`; facility security/authorization (10), deny warning, else notice. */
function syslogLine(r: ReturnType<typeof caughtView>): string {
  const pri = 10 * 8 + (r.verdict === "deny" ? 4 : 5);
  return `<${pri}>1 ${r.at ?? "-"} memnox-cloud memnox - ${r.verdict ?? "-"} - ${JSON.stringify(r)}`;
}

async function deliver(s: SinkRow, workspaceId: string, rows: readonly CaughtRow[], deployment: string | undefined) {
  const events = rows.map(caughtView);
  if (s.kind === "syslog") {
    const u = new URL(s.target);
    const socket = await Bun.udpSocket({});
    try {
      for (const e of events) socket.send(syslogLine(e), Number(u.port), u.hostname.replace(/^\[|\]$/g, ""));
    } finally {
      socket.close();
    }
    return;
  }
  if (!deployment) throw new Error("no webhook secret");
  const body = JSON.stringify({ type: "memnox.caught", workspace: workspaceId, events });
  const id = newId("msg");
  const ts = Math.floor(Date.now() / 1000);
  const res = await fetch(s.target, {
    method: "POST",
    redirect: "manual",
    signal: AbortSignal.timeout(5000),
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(ts),
      "webhook-signature": signDelivery(sinkSecret(deployment, s.id), id, ts, body),
    },
    body,
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`answered ${res.status}`);
}

/**
 * Forwards what a machine's batch caught to every sink that wants those verdicts. Not awaited by the batch: a sink
 * that is slow or down never holds a machine up; how it fared is counted on its row.
 */
export async function forwardCaught(
  db: Db,
  workspaceId: string,
  rows: readonly CaughtRow[],
  deployment: string | undefined,
): Promise<void> {
  const caught = rows.filter((r) => r.effect === "deny" || r.effect === "ask");
  if (caught.length === 0) return;
  const sinks = await store.liveSinks(db, workspaceId);
  await Promise.all(
    sinks.map(async (s) => {
      const mine = caught.filter((r) => s.verdicts.includes(r.effect ?? ""));
      if (mine.length === 0) return;
      try {
        await deliver(s, workspaceId, mine, deployment);
        await store.noteDelivered(db, s.id, mine.length);
      } catch (e) {
        const why = (e as Error).message.slice(0, 200);
        await store.noteFailed(db, s.id, mine.length, why);
      }
    }),
  );
}

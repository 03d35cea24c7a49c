// Where the team's intent arrives: the one inbound route every connected system delivers to (one signature, checked
// once over the raw bytes), the streams chosen of each system, documents uploaded, accounts known to be a member's, and
// the events as a reader is entitled to see them, with how many were withheld.
import { actorName } from "../auth.ts";
import { type Call, json, MAX_BODY_BYTES, str } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { newId } from "../ids.ts";
import { controlInValue, cursorParam } from "../input.ts";
import { systemOf } from "../intent/catalogue.ts";
import { filtered, isLevel, LEVELS, type Level } from "../intent/clearance.ts";
import { readExport, SWEEPABLE } from "../intent/exports.ts";
import { projectSourceEvent } from "../intent/graph.ts";
import { land, sensitivityRules } from "../intent/ingest.ts";
import { normalize, type SourceSetting } from "../intent/normalize.ts";
import { OWN_SCHEMES } from "../intent/own-signatures.ts";
import { answerReader } from "../intent/readers.ts";
import { sourceEventView } from "../intent/rows.ts";
import { REPLAY_WINDOW_S, routeSecret, verifyDelivery } from "../intent/webhook.ts";
import { iso } from "../iso.ts";
import { RATES, spend, tooMany } from "../limits.ts";
import type { Db } from "../store/db.ts";
import { audit } from "../store/people.ts";
import * as store from "../store/sources.ts";

const STANDARD_SCHEME = "Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature (v1, HMAC-SHA256)";

const SOURCE_TYPE = /^[a-z][a-z0-9_-]{0,39}$/;

function sourceTypeOf(c: Call): string {
  const t = c.params.source ?? c.params.type ?? "";
  if (!SOURCE_TYPE.test(t))
    throw new HttpError(400, "bad_request", "a source type is lowercase letters, digits, - and _");
  return t;
}

async function settingOf(db: Db, workspaceId: string, sourceType: string): Promise<SourceSetting> {
  const s = await store.sourceSetting(db, workspaceId, sourceType);
  return { baseUrl: s?.base_url ?? null, streams: s?.streams ?? [] };
}

/**
 * POST /v1/inbound/:workspace/:source: a delivery signed with this route's own secret (routeSecret: the deployment's
 * keyed to the workspace and source), Standard Webhooks headers. Each delivery id is taken once across every route:
 * a replay elsewhere is refused, a resend to the same route is the resend it is. 201 stored, 200 a resend of something
 * stored, 202 not something listened to, 422 no permalink, 401 a bad signature, 409 a delivery replayed elsewhere.
 */
export async function inbound(c: Call): Promise<Response> {
  const workspaceId = c.params.workspace ?? "";
  const sourceType = c.params.source ?? "";
  try {
    const res = await receive(c);
    await store.noteHealth(c.db, workspaceId, sourceType, undefined);
    return res;
  } catch (e) {
    // What a person connecting the system needs to see: a refusal and why. A flood (429) is not a delivery.
    if (e instanceof HttpError && e.status !== 429 && e.status < 500)
      await store.noteHealth(c.db, workspaceId, sourceType, `${e.status} ${e.message}`);
    throw e;
  }
}

async function receive(c: Call): Promise<Response> {
  const secret = c.config.webhookSecret;
  if (!secret)
    throw new HttpError(503, "not_configured", "this deployment has no webhook secret (MEMNOX_WEBHOOK_SECRET)");
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.length > MAX_BODY_BYTES) throw new HttpError(413, "too_large", "the delivery is too large");
  const workspaceId = c.params.workspace ?? "";
  const sourceType = sourceTypeOf(c);
  const refusedKey = `refused:${c.address ?? "unknown"}`;
  // An address whose signatures keep failing is refused before one more is checked.
  const wait = c.guard?.buckets.peek(refusedKey, RATES.refused) ?? 0;
  if (wait > 0) throw tooMany("with signatures that do not hold", wait);
  const key = routeSecret(secret, workspaceId, sourceType);
  // GitHub, Linear and Jira sign their own way when they deliver themselves; through the integration provider every
  // system carries its one signature.
  const scheme = OWN_SCHEMES[sourceType];
  const own = scheme && c.req.headers.has(scheme.header) ? scheme.verify(key, c.req.headers, bytes, c.now()) : null;
  const verified = own ? own.verified : verifyDelivery(key, c.req.headers, bytes, c.now());
  if (!verified.ok) {
    // Counted against the address like any credential that does not hold: guessing signatures is slow.
    c.guard?.buckets.take(refusedKey, RATES.refused);
    throw new HttpError(401, "bad_signature", `${verified.why} (with this workspace's and source's own secret)`);
  }
  if (c.guard) spend(c.guard.buckets, `inbound:${workspaceId}:${sourceType}`, RATES.inboundSource, "for this source");
  if (!(await store.workspaceExists(c.db, workspaceId))) throw new HttpError(404, "not_found", "no such workspace");
  await store.forgetOldDeliveries(c.db, REPLAY_WINDOW_S);
  // A system that signs no timestamp (or a late one) has its ids kept for as long as it may resend them.
  const keep = own?.keepMs ? new Date(c.now() + own.keepMs) : null;
  const taken = await store.takeDelivery(c.db, verified.delivery.id, workspaceId, sourceType, keep);
  if (taken && (taken.workspace_id !== workspaceId || taken.source_type !== sourceType))
    throw new HttpError(409, "replayed", "this delivery was already received on another route");
  const text = new TextDecoder().decode(bytes);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new HttpError(400, "bad_json", "the delivery is not JSON");
  }
  const bad = controlInValue(data);
  if (bad)
    throw new HttpError(400, "bad_request", `\`${bad.path}\` holds a control character (${bad.char})`, {
      field: bad.path,
    });
  // GitHub's ping when an App's webhook is set, and Slack's handshake when a subscription's URL is: answered, stored
  // nowhere.
  if (sourceType === "github" && own && c.req.headers.get("x-github-event") === "ping") return json({ pong: true });
  const o = data as { type?: unknown; challenge?: unknown } | null;
  if (o?.type === "url_verification" && typeof o.challenge === "string") return json({ challenge: o.challenge });
  const outcome = normalize(sourceType, data, await settingOf(c.db, workspaceId, sourceType));
  if (!outcome.ok) {
    if (outcome.status === "ignored") return json({ ignored: true, why: outcome.why }, 202);
    throw new HttpError(422, "rejected", outcome.why);
  }
  const landed = await land(c.db, workspaceId, { event: outcome.event, deliveryId: verified.delivery.id });
  return json(
    { id: landed.id, duplicate: landed.duplicate, tainted: landed.tainted, classification: landed.classification },
    landed.duplicate ? 200 : 201,
  );
}

/**
 * POST /v1/sources/:type/sweep (the export's bytes): a system's history from a file export, each item handed to the
 * one normalizer as the live delivery it would have been, so it lands under the same dedup key, stream choice, taint
 * and masking. A file that cannot be read whole stores nothing (400); so does a failure half way (one transaction).
 */
export async function sweepSource(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const sourceType = sourceTypeOf(c);
  if (!SWEEPABLE[sourceType]) throw new HttpError(400, "bad_request", `memnox reads no export of ${sourceType}`);
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.length > MAX_BODY_BYTES)
    throw new HttpError(413, "too_large", `an export is at most ${MAX_BODY_BYTES} bytes: split it by date range`);
  const connected = await store.connectedStreams(c.db, who.workspaceId, sourceType);
  if (!connected)
    throw new HttpError(
      409,
      "not_connected",
      `connect ${sourceType} and choose its streams first: a sweep reads only those`,
    );
  const read = readExport(sourceType, bytes);
  if (!read.ok) {
    await audit(c.db, {
      orgId: who.orgId,
      actor: actorName(who),
      action: "source.sweep.refused",
      subject: sourceType,
      detail: { bytes: bytes.length, why: read.why },
      severity: "warning",
    });
    throw new HttpError(400, "bad_export", `${read.why}. Nothing was stored.`);
  }
  const setting = await settingOf(c.db, who.workspaceId, sourceType);
  const rules = await sensitivityRules(c.db, who.workspaceId);
  const skipped = new Map<string, { count: number; first: string }>();
  let stored = 0;
  let duplicates = 0;
  await c.db.begin(async (tx) => {
    // One sweep of a workspace at a time: two would race each other's duplicates.
    await store.lockSweep(tx, who.workspaceId);
    for (const d of read.deliveries) {
      const outcome = normalize(sourceType, d.data, setting);
      if (!outcome.ok) {
        const s = skipped.get(outcome.why);
        if (s) s.count++;
        else skipped.set(outcome.why, { count: 1, first: d.from });
        continue;
      }
      const landed = await land(tx, who.workspaceId, { event: outcome.event }, rules);
      if (landed.duplicate) duplicates++;
      else stored++;
    }
  });
  const answer = {
    sourceType,
    read: read.items,
    events: read.deliveries.length,
    stored,
    duplicates,
    skipped: [...skipped].map(([why, s]) => ({ why, count: s.count, first: s.first })),
  };
  await audit(c.db, {
    orgId: who.orgId,
    actor: actorName(who),
    action: "source.sweep",
    subject: sourceType,
    detail: {
      bytes: bytes.length,
      read: answer.read,
      events: answer.events,
      stored,
      duplicates,
      skipped: answer.events - stored - duplicates,
    },
  });
  return json(answer, stored > 0 ? 201 : 200);
}

/**
 * GET /v1/sources/:type/delivery: where a connected system delivers for this workspace, and the secret it signs with
 * there (valid on that route only). A credential, so shown to an admin signed in, and audited.
 */
export async function deliverySecret(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const secret = c.config.webhookSecret;
  if (!secret)
    throw new HttpError(503, "not_configured", "this deployment has no webhook secret (MEMNOX_WEBHOOK_SECRET)");
  const sourceType = sourceTypeOf(c);
  await audit(c.db, { orgId: who.orgId, actor: actorName(who), action: "source.secret.shown", subject: sourceType });
  const url = `${(c.config.publicUrl ?? c.url.origin).replace(/\/+$/, "")}/v1/inbound/${who.workspaceId}/${sourceType}`;
  return json({
    sourceType,
    url,
    // Slack's slash commands (`/memnox freeze`) arrive on their own route, signed with the same secret.
    ...(sourceType === "slack" ? { commandsUrl: `${url}/commands` } : {}),
    secret: routeSecret(secret, who.workspaceId, sourceType),
    scheme: OWN_SCHEMES[sourceType]
      ? `${systemOf(sourceType)?.signing ?? sourceType}; or, through the integration provider, ${STANDARD_SCHEME}`
      : STANDARD_SCHEME,
  });
}

function stringList(v: unknown, key: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || x === "" || x.length > 200))
    throw new HttpError(400, "bad_request", `\`${key}\` must be a list of non-empty text`);
  return [...new Set(v as string[])];
}

/** GET /v1/sources: each connected system's base URL and chosen streams, with what arrived from it. */
export async function listSources(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const rows = await store.listSources(c.db, who.workspaceId);
  return json({
    inbound: `${(c.config.publicUrl ?? c.url.origin).replace(/\/+$/, "")}/v1/inbound/${who.workspaceId}/<source>`,
    signed: c.config.webhookSecret !== undefined,
    sources: rows.map((r) => ({
      sourceType: r.source_type,
      baseUrl: r.base_url,
      streams: r.streams,
      setBy: r.set_by,
      events: Number(r.events),
      health: {
        lastDeliveryAt: iso(r.last_delivery_at),
        delivered: Number(r.delivered ?? 0),
        refused: Number(r.refused ?? 0),
        lastRefusal: r.last_refusal,
        lastRefusalAt: iso(r.last_refusal_at),
      },
    })),
  });
}

/** PUT /v1/sources/:type {baseUrl?, streams}: what permalinks are composed from, and which streams are listened to. */
export async function setSource(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const sourceType = sourceTypeOf(c);
  const baseUrl = str(body, "baseUrl", { optional: true });
  if (baseUrl !== undefined && !/^https:\/\/[^\s/]+/.test(baseUrl))
    throw new HttpError(400, "bad_request", "`baseUrl` is an https URL (https://acme.slack.com)");
  const streams = stringList(body.streams, "streams");
  await store.setSource(c.db, who.workspaceId, sourceType, baseUrl ?? null, streams, actorName(who));
  await audit(c.db, {
    orgId: who.orgId,
    actor: actorName(who),
    action: "source.set",
    subject: sourceType,
    detail: { baseUrl: baseUrl ?? null, streams },
  });
  return json({ sourceType, baseUrl: baseUrl ?? null, streams });
}

/** POST /v1/people/accounts {sourceType, account, email}: an admin attaches an account to the member holding that address. */
export async function linkAccount(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const sourceType = str(body, "sourceType");
  const account = str(body, "account");
  const email = str(body, "email").toLowerCase();
  const m = await store.activeMemberByEmail(c.db, who.orgId, email);
  if (!m) throw new HttpError(404, "not_found", `no active member holds ${email}`);
  await store.linkAccount(c.db, who.workspaceId, { sourceType, account, memberId: m.id, email, by: actorName(who) });
  await audit(c.db, {
    orgId: who.orgId,
    actor: actorName(who),
    action: "account.link",
    subject: `${sourceType}:${account}`,
  });
  return json({ sourceType, account, email }, 201);
}

/** GET /v1/people/accounts: each system's account tied to a member, and how (reported by the system, or an admin). */
export async function listAccounts(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const rows = await store.listAccounts(c.db, who.workspaceId);
  return json({
    accounts: rows.map((r) => ({
      sourceType: r.source_type,
      account: r.account,
      email: r.email,
      evidence: r.evidence,
      linkedBy: r.linked_by,
    })),
  });
}

/** A document's sections: split at its headings, so each part is evidence of its own with its own anchor. */
function sections(content: string): { title: string; text: string }[] {
  const out: { title: string; text: string }[] = [];
  let title = "";
  let lines: string[] = [];
  const flush = () => {
    const text = lines.join("\n").trim();
    if (text !== "") out.push({ title, text });
    lines = [];
  };
  for (const line of content.split(/\r?\n/)) {
    const h = /^#{1,6}\s+(.+)$/.exec(line);
    if (h?.[1]) {
      flush();
      title = h[1].trim();
    } else lines.push(line);
  }
  flush();
  return out.slice(0, 500);
}

/** POST /v1/files {name, content, own?}: a document becomes events, third-party (tainted) unless an admin says it is the team's own. */
export async function uploadFile(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const name = str(body, "name");
  const content = body.content;
  if (typeof content !== "string" || content.trim() === "")
    throw new HttpError(400, "bad_request", "`content` is the document's text");
  const own = body.own === true;
  // Calling a document the team's own takes its taint away: a person's judgement, never a relay's.
  if (own && who.kind !== "person")
    throw new HttpError(
      403,
      "forbidden",
      "a person marks a document as the team's own; a relay uploads it as forwarded",
      {
        field: "own",
      },
    );
  const parts = sections(content);
  const id = newId("file");
  const base = (c.config.publicUrl ?? c.url.origin).replace(/\/+$/, "");
  const sha = new Bun.CryptoHasher("sha256").update(content).digest("hex");
  const uploader = who.kind === "person" ? who.memberId : undefined;
  await store.insertFile(c.db, {
    id,
    workspaceId: who.workspaceId,
    name,
    sha256: sha,
    bytes: Buffer.byteLength(content),
    own,
    sections: parts.length,
    by: actorName(who),
  });
  const rules = await sensitivityRules(c.db, who.workspaceId);
  const events: number[] = [];
  for (const [i, p] of parts.entries()) {
    // The same normalizer every system's deliveries meet: a document is one more shape of it.
    const outcome = normalize(
      "files",
      {
        document: {
          title: p.title || undefined,
          content: p.text,
          permalink: `${base}/files?file=${id}#${id}-${i + 1}`,
          created_at: new Date(c.now()).toISOString(),
          author: actorName(who),
        },
      },
      { baseUrl: null, streams: [] },
    );
    if (!outcome.ok) continue;
    const landed = await land(
      c.db,
      who.workspaceId,
      { event: outcome.event, own, fileId: id, ...(uploader ? { uploaderId: uploader } : {}) },
      rules,
    );
    events.push(landed.id);
  }
  await audit(c.db, { orgId: who.orgId, actor: actorName(who), action: "file.upload", subject: id, detail: { own } });
  return json({ id, name, own, sections: parts.length, events }, 201);
}

/** GET /v1/source-events: what the caller may read of what arrived, newest first, and how much was withheld. */
export async function listSourceEvents(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const q = c.url.searchParams.get("q")?.trim().toLowerCase() ?? "";
  const source = c.url.searchParams.get("source") ?? "";
  const file = c.url.searchParams.get("file") ?? "";
  const rows = await store.searchSourceEvents(c.db, who.workspaceId, q, source, file);
  const { shown, withheld } = filtered(await answerReader(c), rows);
  return json({ events: shown.map(sourceEventView), withheld });
}

/** POST /v1/source-events/:id/classify {level, audiences?}: an admin reclassifies one fact; patterns over-classify. */
export async function reclassify(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const level = body.level;
  if (!isLevel(level)) throw new HttpError(400, "bad_request", `\`level\` is one of ${LEVELS.join(", ")}`);
  const audiences = stringList(body.audiences, "audiences");
  const row = await store.reclassify(c.db, who.workspaceId, cursorParam(c.params.id), level, audiences, actorName(who));
  if (!row) throw new HttpError(404, "not_found", "no such event");
  await projectSourceEvent(c.db, who.workspaceId, row);
  await audit(c.db, {
    orgId: who.orgId,
    actor: actorName(who),
    action: "source_event.classify",
    subject: String(row.id),
    detail: { level, audiences },
  });
  return json(sourceEventView(row));
}

/** GET /v1/sensitivity: the rules by level and audience, each counting its terms rather than naming them. */
export async function showSensitivity(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const rules = await sensitivityRules(c.db, who.workspaceId);
  return json({ rules: rules.map((r) => ({ level: r.level, audience: r.audience ?? null, terms: r.terms.length })) });
}

/** PUT /v1/sensitivity {rules: [{level, audience?, terms}]}: the workspace's own rules, in place of the defaults. */
export async function setSensitivity(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  if (!Array.isArray(body.rules)) throw new HttpError(400, "bad_request", "`rules` is a list");
  const rules = body.rules.map((r: unknown, i: number) => {
    const o = (r ?? {}) as Record<string, unknown>;
    if (!isLevel(o.level)) throw new HttpError(400, "bad_request", `rules[${i}].level is one of ${LEVELS.join(", ")}`);
    const terms = stringList(o.terms, `rules[${i}].terms`);
    if (terms.length === 0) throw new HttpError(400, "bad_request", `rules[${i}].terms is empty`);
    const audience = typeof o.audience === "string" && o.audience !== "" ? o.audience : null;
    return { level: o.level as Level, audience, terms };
  });
  await c.db.begin(async (tx) => {
    await store.replaceSensitivityRules(tx, who.workspaceId, rules, actorName(who));
  });
  await audit(c.db, {
    orgId: who.orgId,
    actor: actorName(who),
    action: "sensitivity.set",
    detail: { rules: rules.length },
  });
  return json({ rules: rules.map((r) => ({ level: r.level, audience: r.audience, terms: r.terms.length })) });
}

/** POST /v1/members/:id/clearance {clearance, audiences}: a ceiling and the audiences that admit the member. */
export async function setClearance(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const level = body.clearance;
  if (level !== null && !isLevel(level))
    throw new HttpError(400, "bad_request", `\`clearance\` is one of ${LEVELS.join(", ")}, or null for the role's`);
  const audiences = stringList(body.audiences, "audiences");
  const m = await store.setMemberClearance(c.db, who.orgId, c.params.id ?? "", level, audiences);
  if (!m) throw new HttpError(404, "not_found", "no such member");
  await audit(c.db, {
    orgId: who.orgId,
    actor: actorName(who),
    action: "member.clearance",
    subject: m.email,
    detail: { clearance: level, audiences },
  });
  return json({ id: m.id, email: m.email, clearance: level, audiences });
}

/** PATCH /v1/agents/:name/clearance {clearance, audiences}: a grant above confidential is refused, never lowered quietly. */
export async function setAgentClearance(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const level = body.clearance;
  if (level === "restricted")
    throw new HttpError(
      422,
      "refused",
      "restricted never reaches a machine: an agent's clearance stops at confidential",
    );
  if (!isLevel(level)) throw new HttpError(400, "bad_request", "`clearance` is public, internal or confidential");
  const audiences = stringList(body.audiences, "audiences");
  const a = await store.setAgentClearance(c.db, who.workspaceId, c.params.name ?? "", level, audiences);
  if (!a) throw new HttpError(404, "not_found", "no such agent");
  await audit(c.db, { orgId: who.orgId, actor: actorName(who), action: "agent.clearance", subject: a.name });
  return json({ name: a.name, clearance: level, audiences });
}

// POST /v1/events: a machine's signed batch of allow-listed fields, deduplicated on (machine, dedupKey) so a resend is
// never doubled. GET /v1/events: what the workspace's machines reported, newest last, by cursor.

import * as v from "valibot";
import { ACTION_CLASSES } from "../../core/action.ts";
import { EFFECTS } from "../../core/effect.ts";
import { verifySignature } from "../../ledger/sign.ts";
import { detectPending, PASS_ROWS } from "../detection.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { controlIn, cursorParam, fieldOf, ident, instant, line, prose, refusal, text, whole } from "../input.ts";
import { iso } from "../iso.ts";
import { RATES, spend } from "../limits.ts";
import { MAX_BATCH, type SentEvent, SIGNATURE_HEADER } from "../protocol/sync.ts";
import type { EventRow } from "../store/events.ts";
import * as store from "../store/events.ts";
import { forwardCaught } from "./sinks.ts";

// Strict: a field the allow-list does not name is refused, so the server never quietly keeps what should not travel.
// Every text is checked for control characters and masked on its way in, whatever the machine did before sending.
const EventSchema = v.strictObject({
  dedupKey: ident(80),
  subjectId: ident(80),
  occurredAt: instant,
  agentSessionId: v.optional(line(200)),
  agent: v.optional(line(200)),
  surface: ident(40),
  operation: line(300),
  classes: v.optional(v.pipe(v.array(v.picklist(ACTION_CLASSES)), v.maxLength(8))),
  effect: v.optional(v.picklist(EFFECTS)),
  reason: v.optional(prose(2000)),
  ruleId: v.optional(line(300)),
  resourceRef: v.optional(text(600)),
  argsDigest: v.optional(ident(200)),
  exitCode: v.optional(whole(-2_147_483_648)),
  startedAt: v.optional(instant),
  policyHash: v.optional(ident(200)),
  correlationId: v.optional(ident(120, /^[A-Za-z0-9._:-]+$/, "is letters, digits and . _ : -")),
  wouldReach: v.optional(text(1000)),
});

// The batch as a whole: who sent it and when; its events are each held to EventSchema on their own.
const BatchSchema = v.strictObject({
  machineId: ident(80),
  sentAt: instant,
  events: v.pipe(v.array(v.unknown()), v.maxLength(MAX_BATCH, `holds more than ${MAX_BATCH} events`)),
});

// The schema and the allow-list are one list: a test holds them equal, so neither can grow alone.
export const ACCEPTED_FIELDS: readonly string[] = Object.keys(EventSchema.entries);

/** A row of a batch that was refused, the rest of the batch stored: which, and why, named by its field. */
interface RefusedRow {
  readonly index: number;
  /** Its dedupKey when that much could be read safely. */
  readonly dedupKey: string | null;
  readonly field: string;
  readonly message: string;
}

function parseBatch(
  body: string,
  counted: (rows: number) => void,
): { machineId: string; events: SentEvent[]; refused: RefusedRow[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    throw new HttpError(400, "bad_json", "the batch is not JSON");
  }
  const r = v.safeParse(BatchSchema, raw);
  if (!r.success) throw refusal(r.issues, "the batch");
  counted(r.output.events.length);
  const events: SentEvent[] = [];
  const refused: RefusedRow[] = [];
  r.output.events.forEach((e, index) => {
    const one = v.safeParse(EventSchema, e);
    if (one.success) {
      events.push(one.output as SentEvent);
      return;
    }
    const issue = one.issues[0];
    const key = (e as { dedupKey?: unknown } | null)?.dedupKey;
    refused.push({
      index,
      dedupKey: typeof key === "string" && key.length <= 80 && controlIn(key, false) === undefined ? key : null,
      field: fieldOf(issue) || "(the event)",
      message: issue.message,
    });
  });
  return { machineId: r.output.machineId, events, refused };
}

export async function postEvents(c: Call): Promise<Response> {
  const who = c.who;
  if (who?.kind !== "machine") throw new HttpError(403, "forbidden", "only a machine sends events");
  const body = new Uint8Array(await c.req.arrayBuffer());
  const signature = c.req.headers.get(SIGNATURE_HEADER) ?? "";
  const m = await store.machineKey(c.db, who.machineId);
  // The batch is checked against the key this machine enrolled with: a token alone cannot speak for it.
  if (!m || !verifySignature(body, signature, m.public_key))
    throw new HttpError(401, "bad_signature", "the batch's signature does not check against this machine's key");
  const batch = parseBatch(new TextDecoder().decode(body), (rows) => {
    // Counted before any row is read closely: a batch over the workspace's rate costs the server next to nothing.
    if (c.guard && rows > 0) {
      spend(c.guard.buckets, `rows:${who.machineId}`, RATES.machineRows, "events from this machine", rows);
      spend(c.guard.buckets, `rows:${who.workspaceId}`, RATES.rows, "events for this workspace", rows);
    }
  });
  if (batch.machineId !== who.machineId)
    throw new HttpError(403, "forbidden", "the batch names another machine than the credential it came with");
  // One bad row never blinds a machine: it is refused and counted where the console shows the machine, the rest stored.
  if (batch.refused.length > 0) {
    const last = batch.refused[batch.refused.length - 1];
    await store.countRefused(c.db, who.machineId, batch.refused.length, {
      field: last?.field,
      message: last?.message,
      dedupKey: last?.dedupKey,
    });
  }
  if (batch.events.length === 0) return json({ accepted: 0, duplicates: 0, refused: batch.refused });
  const rows = batch.events.map((e) => rowOf(e, who.workspaceId, who.machineId));
  const inserted = await store.insertEvents(c.db, rows);
  // What was caught goes to the workspace's sinks beside this answer, never in its way (failures counted per sink).
  void forwardCaught(c.db, who.workspaceId, inserted, c.config.webhookSecret).catch(() => undefined);
  // Answered once the detectors have looked at what arrived (and at anything of the workspace left waiting): a pass
  // shared with the batches arriving beside this one.
  const base = (c.config.publicUrl ?? c.url.origin).replace(/\/+$/, "");
  if (c.detections) await c.detections.settle(who.workspaceId, base);
  else while ((await detectPending(c.db, who.workspaceId, base)) >= PASS_ROWS);
  return json({ accepted: inserted.length, duplicates: rows.length - inserted.length, refused: batch.refused });
}

/** Every column named, null when absent: a bulk insert takes its columns from the first row. */
function rowOf(e: SentEvent, workspaceId: string, machineId: string): Record<string, unknown> {
  return {
    workspace_id: workspaceId,
    machine_id: machineId,
    dedup_key: e.dedupKey,
    subject_id: e.subjectId,
    occurred_at: new Date(e.occurredAt),
    agent_session_id: e.agentSessionId ?? null,
    agent: e.agent ?? null,
    surface: e.surface,
    operation: e.operation,
    classes: [...(e.classes ?? [])],
    effect: e.effect ?? null,
    reason: e.reason ?? null,
    rule_id: e.ruleId ?? null,
    resource_ref: e.resourceRef ?? null,
    args_digest: e.argsDigest ?? null,
    exit_code: e.exitCode ?? null,
    started_at: e.startedAt ? new Date(e.startedAt) : null,
    policy_hash: e.policyHash ?? null,
    correlation_id: e.correlationId ?? null,
    would_reach: e.wouldReach ?? null,
  };
}

function view(r: EventRow) {
  return {
    id: Number(r.id),
    machineId: r.machine_id,
    dedupKey: r.dedup_key,
    subjectId: r.subject_id,
    occurredAt: iso(r.occurred_at),
    agentSessionId: r.agent_session_id,
    agent: r.agent,
    surface: r.surface,
    operation: r.operation,
    classes: r.classes,
    effect: r.effect,
    reason: r.reason,
    ruleId: r.rule_id,
    resourceRef: r.resource_ref,
    argsDigest: r.args_digest,
    exitCode: r.exit_code,
    startedAt: iso(r.started_at),
    policyHash: r.policy_hash,
    correlationId: r.correlation_id,
    /** The computed counterfactual of a refused credential read: what it would have opened. */
    wouldReach: r.would_reach,
    receivedAt: iso(r.received_at),
  };
}

export type EventView = ReturnType<typeof view>;

const cursor = (raw: string | null | undefined) => cursorParam(raw);

/**
 * GET /v1/events?machine=&agent=&effect=&rule=&session=&after=&limit= (oldest first after the cursor) or
 * `order=desc&before=` (newest first, what a person reads); `next` is the cursor to ask with.
 */
export async function listEvents(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const q = c.url.searchParams;
  const desc = q.get("order") === "desc";
  const limit = Math.min(1000, Math.max(1, Number(q.get("limit") ?? 100) || 100));
  const rows = await store.listEvents(c.db, who.workspaceId, {
    desc,
    after: cursor(q.get("after")),
    before: cursor(q.get("before")),
    limit,
    machine: q.get("machine"),
    agent: q.get("agent"),
    effect: q.get("effect"),
    rule: q.get("rule"),
    session: q.get("session"),
  });
  const events = rows.map(view);
  const last = events[events.length - 1];
  return json({ events, next: events.length === limit && last ? last.id : null });
}

/** The bound on a trace, in rows each way: it says when it stopped there. */
const TRACE_LIMIT = 200;

/**
 * GET /v1/events/:id: one action and its trace, up and down the parents that were recorded. What machines send links
 * an outcome to its decision (`subjectId`) and nothing further yet, so a decision traces to itself and how it ended.
 */
export async function showEvent(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const id = cursor(c.params.id ?? "");
  const e = await store.eventById(c.db, who.workspaceId, id);
  if (!e) throw new HttpError(404, "not_found", `no event \`${c.params.id ?? ""}\` in this workspace`);
  // Up: the decision this row is about (on the machine that sent it). Down: every row that names this one's subject.
  const up =
    e.subject_id === e.dedup_key ? [] : await store.eventsWithKey(c.db, who.workspaceId, e.machine_id, e.subject_id);
  const root = up[0] ?? e;
  const down = await store.eventsAbout(
    c.db,
    who.workspaceId,
    { machineId: root.machine_id, dedupKey: root.dedup_key, id: root.id },
    TRACE_LIMIT + 1,
  );
  return json({
    event: view(e),
    trace: {
      up: up.map(view),
      down: down.slice(0, TRACE_LIMIT).map(view),
      bounded: down.length > TRACE_LIMIT,
      // Nothing a machine sends names a parent beyond its own decision yet, so a longer chain cannot be walked.
      parentsRecorded: false,
    },
  });
}

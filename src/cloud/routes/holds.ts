// Calls held on machines nobody is at: listed for the workspace and answered here; the answer goes down on the
// machine's next beat and releases the call there, once, by the same fingerprint grant a local approval makes.
import type * as v from "valibot";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { detectPatterns } from "../intent/practice.ts";
import { iso } from "../iso.ts";
import type { HoldRow } from "../store/holds.ts";
import * as store from "../store/holds.ts";
import { audit } from "../store/people.ts";
import type { HoldAnswer } from "./bodies.ts";

function status(h: HoldRow): string {
  if (h.answer) return h.applied_at ? (h.answer === "grant" ? "granted" : "denied") : "answered";
  if (h.settled_at) return "settled-on-machine";
  return h.expired ? "unattended" : "waiting";
}

function view(h: HoldRow) {
  return {
    id: h.id,
    machineId: h.machine_id,
    localId: h.local_id,
    status: status(h),
    surface: h.surface,
    action: h.action,
    target: h.target,
    // Where the agent stood when it asked: what an approver needs to know what the call would touch.
    repository: h.repository,
    agent: h.agent,
    session: h.session,
    reason: h.reason,
    ruleId: h.rule_id,
    createdAt: iso(h.created_at),
    expiresAt: iso(h.expires_at),
    answer: h.answer
      ? { grant: h.answer === "grant", scope: h.scope, by: h.answered_by, at: iso(h.answered_at) }
      : null,
    appliedAt: iso(h.applied_at),
  };
}

export type HoldView = ReturnType<typeof view>;

/** GET /v1/holds?all=1: what is waiting on somebody here (all: answered and settled ones too). */
export async function listHolds(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const all = c.url.searchParams.get("all") === "1";
  const rows = await store.holds(c.db, who.workspaceId, all);
  return json({ holds: rows.map(view) });
}

/**
 * POST /v1/holds/:id/answer {grant, scope?}: a person's own act, signed in (the route says so); first answer wins, a
 * later one is told what already happened.
 */
export async function answerHold(c: Call, body: v.InferOutput<typeof HoldAnswer>): Promise<Response> {
  const who = c.who;
  if (who?.kind !== "person") throw new HttpError(403, "forbidden", "a person answers a held call");
  const { scope } = body;
  const by = actorName(who);
  const id = c.params.id ?? "";
  const answered = await c.db.begin(async (tx) => {
    const h = await store.holdForUpdate(tx, who.workspaceId, id);
    if (!h) throw new HttpError(404, "not_found", `no held call \`${id}\` in this workspace`);
    if (h.answer || h.settled_at || h.expired) return { outcome: "already", hold: view(h) };
    const u = await store.answer(tx, id, body.grant ? "grant" : "deny", scope, by);
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: body.grant ? "hold.grant" : "hold.deny",
      subject: id,
      detail: { machine: h.machine_id, action: h.action, repository: h.repository, via: who.via, session: who.tokenId },
    });
    return { outcome: "decided", hold: u ? view(u) : view(h) };
  });
  // An approval that keeps being granted is counted once it is: a pattern is proposed, never applied.
  if (body.grant && answered.outcome === "decided") await detectPatterns(c.db, who.workspaceId);
  return json(answered);
}

// The team's own state as a policy input: a fleet freeze (subject, reason, mandatory expiry) or its lift, compiled into
// the bundle every machine pulls on its next beat.
import { parseDuration } from "../../core/duration.ts";
import { isMemnoxError } from "../../core/errors.ts";
import { actorName } from "../auth.ts";
import { type Call, json, str } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { newId } from "../ids.ts";
import { iso } from "../iso.ts";
import { conditionsInForce } from "../store/bundle.ts";
import type { Db } from "../store/db.ts";
import { audit } from "../store/people.ts";

const WEEK_MS = 7 * 86_400_000;
// A freeze names a state the rules opt into; a freeze-agent names an agent, refused on every machine while it holds.
const KINDS = ["freeze", "freeze-agent"];

export async function listState(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  return json({ conditions: await conditionsInForce(c.db, who.workspaceId) });
}

function expiryOf(body: Record<string, unknown>, now: number): Date {
  const forText = str(body, "for", { optional: true });
  const until = str(body, "expiresAt", { optional: true });
  let ms: number;
  if (forText !== undefined) {
    try {
      ms = parseDuration(forText);
    } catch (e) {
      throw new HttpError(400, "bad_request", isMemnoxError(e) ? e.message : "`for` is not a duration");
    }
  } else if (until !== undefined && !Number.isNaN(Date.parse(until))) ms = Date.parse(until) - now;
  else throw new HttpError(400, "bad_request", "every condition carries an expiry: `for` (2h) or `expiresAt`");
  if (ms <= 0) throw new HttpError(400, "bad_request", "the expiry is already past");
  if (ms > WEEK_MS) throw new HttpError(400, "bad_request", "a condition runs for a week at most");
  return new Date(now + ms);
}

/** POST /v1/state {kind: "freeze", subject, reason, for | expiresAt}. */
export async function setState(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const kind = str(body, "kind", { optional: true }) ?? "freeze";
  if (!KINDS.includes(kind)) throw new HttpError(400, "bad_request", `\`kind\` must be one of ${KINDS.join(", ")}`);
  const subject = str(body, "subject");
  if (!/^[A-Za-z0-9][A-Za-z0-9._*-]{0,80}$/.test(subject))
    throw new HttpError(400, "bad_request", "`subject` is a short name such as payments or release");
  const reason = str(body, "reason", { optional: true }) ?? null;
  const expires = expiryOf(body, c.now());
  const by = actorName(who);
  const id = await c.db.begin(async (tx) => {
    const id = await addCondition(tx, { workspaceId: who.workspaceId, kind, subject, reason, by, expires });
    await audit(tx, { orgId: who.orgId, actor: by, action: `state.${kind}`, subject: id, detail: { subject, reason } });
    return id;
  });
  return json({ id, kind, subject, reason, by, expiresAt: expires.toISOString() }, 201);
}

export interface NewCondition {
  readonly workspaceId: string;
  readonly kind: string;
  readonly subject: string;
  readonly reason: string | null;
  readonly by: string;
  readonly expires: Date;
}

/** One condition in force from now: every machine's next bundle carries it (the one insert every freeze goes through). */
export async function addCondition(tx: Db, n: NewCondition): Promise<string> {
  const id = newId("cnd");
  await tx`INSERT INTO conditions (id, workspace_id, kind, subject, reason, set_by, expires_at)
           VALUES (${id}, ${n.workspaceId}, ${n.kind}, ${n.subject}, ${n.reason}, ${n.by}, ${n.expires})`;
  return id;
}

/** Every active machine not yet in enforce moves to it, each move recorded with who (delivered on its next beat). */
export async function enforceEverywhere(tx: Db, workspaceId: string, by: string): Promise<string[]> {
  const moved: { id: string; mode_set: string }[] = await tx`
    SELECT id, mode_set FROM machines WHERE workspace_id = ${workspaceId} AND revoked_at IS NULL
      AND mode_set <> 'enforce' FOR UPDATE`;
  for (const m of moved) {
    await tx`INSERT INTO mode_changes (machine_id, from_mode, to_mode, by) VALUES (${m.id}, ${m.mode_set}, 'enforce', ${by})`;
    await tx`UPDATE machines SET mode_set = 'enforce' WHERE id = ${m.id}`;
  }
  return moved.map((m) => m.id);
}

/** POST /v1/machines/enforce {reason?}: enforce everywhere, as Contain it does without an incident. */
export async function enforceAll(c: Call, body: { readonly reason?: string | undefined }): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine does not move the fleet");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const enforced = await enforceEverywhere(tx, who.workspaceId, by);
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "fleet.enforce",
      severity: "warning",
      detail: { enforced, reason: body.reason ?? null },
    });
    return json({ enforced, by });
  });
}

/** POST /v1/state/:id/lift: ends it early; the lift reaches machines on their next beat. */
export async function liftState(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const by = actorName(who);
  const id = c.params.id ?? "";
  return c.db.begin(async (tx) => {
    const [r]: { id: string; lifted_at: Date }[] = await tx`
      UPDATE conditions SET lifted_at = now(), lifted_by = ${by}
      WHERE id = ${id} AND workspace_id = ${who.workspaceId} AND lifted_at IS NULL RETURNING id, lifted_at`;
    if (!r) throw new HttpError(404, "not_found", `no condition \`${id}\` in force here`);
    await audit(tx, { orgId: who.orgId, actor: by, action: "state.lift", subject: id });
    return json({ id, liftedAt: iso(r.lifted_at), by });
  });
}

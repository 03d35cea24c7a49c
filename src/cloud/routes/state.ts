// The team's own state as a policy input: a fleet freeze (subject, reason, mandatory expiry) or its lift, compiled into
// the bundle every machine pulls on its next beat.
import { parseDuration } from "../../core/duration.ts";
import { isMemnoxError } from "../../core/errors.ts";
import { actorName } from "../auth.ts";
import { type Call, json, str } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { iso } from "../iso.ts";
import { conditionsInForce } from "../store/bundle.ts";
import * as store from "../store/conditions.ts";
import { addCondition, enforceEverywhere } from "../store/conditions.ts";
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
    const r = await store.liftCondition(tx, who.workspaceId, id, by);
    if (!r) throw new HttpError(404, "not_found", `no condition \`${id}\` in force here`);
    await audit(tx, { orgId: who.orgId, actor: by, action: "state.lift", subject: id });
    return json({ id, liftedAt: iso(r.lifted_at), by });
  });
}

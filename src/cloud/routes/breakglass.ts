// Break-glass: an admin, signed in, overrides the team's conditions in force (freezes, an agent frozen everywhere) for
// a bounded time, with a reason. It is audited critical and opens an incident, so somebody else looks at it. It never
// reaches the rules, a halt or a revocation, and it never covers an irreversible action: naming one is refused (403,
// audited), and while the glass is broken the bundle denies those actions outright.
import type * as v from "valibot";
import { parseDuration } from "../../core/duration.ts";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { newId } from "../ids.ts";
import { iso } from "../iso.ts";
import type { GlassRow } from "../store/breakglass.ts";
import * as store from "../store/breakglass.ts";
import { IRREVERSIBLE } from "../store/bundle.ts";
import { audit } from "../store/people.ts";
import type { BreakGlassBody } from "./bodies.ts";

const DEFAULT_FOR = "1h";
const MAX_MS = 4 * 3_600_000;

function view(g: GlassRow, now: number) {
  const open = !g.closed_at && g.ends_at.getTime() > now;
  return {
    id: g.id,
    reason: g.reason,
    actions: g.actions,
    suspends: g.suspends,
    openedBy: g.opened_by,
    openedAt: iso(g.opened_at),
    endsAt: iso(g.ends_at),
    closed: g.closed_at ? { by: g.closed_by, at: iso(g.closed_at) } : null,
    incident: g.incident_id,
    state: open ? "open" : g.closed_at ? "closed" : "ended",
  };
}

/** GET /v1/break-glass: every override, newest first, and which is open. */
export async function listBreakGlass(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const rows = await store.breakGlass(c.db, who.workspaceId);
  return json({ breakGlass: rows.map((g) => view(g, c.now())) });
}

/**
 * POST /v1/break-glass {reason, actions?, for?}: suspends every freeze and agent freeze in force for `for` (1h unless
 * said, 4h at most); the conditions themselves stay and come back when it ends or is closed.
 */
export async function openBreakGlass(c: Call, body: v.InferOutput<typeof BreakGlassBody>): Promise<Response> {
  const who = c.who;
  if (who?.kind !== "person") throw new HttpError(403, "forbidden", "break-glass is a person's act");
  const by = actorName(who);
  const irreversible = (body.actions ?? []).filter((a) => (IRREVERSIBLE as readonly string[]).includes(a));
  if (irreversible.length > 0) {
    await audit(c.db, {
      orgId: who.orgId,
      actor: by,
      action: "break_glass.refused",
      severity: "critical",
      detail: { reason: body.reason, actions: body.actions, irreversible },
    });
    throw new HttpError(
      403,
      "irreversible",
      `break-glass never covers ${irreversible.join(", ")}: it cannot be undone`,
    );
  }
  let ms: number;
  try {
    ms = parseDuration(body.for ?? DEFAULT_FOR);
  } catch {
    throw new HttpError(400, "bad_request", "`for` is a duration such as 30m or 2h", { field: "for" });
  }
  if (ms <= 0 || ms > MAX_MS)
    throw new HttpError(400, "bad_request", "break-glass runs for 4h at most", { field: "for" });
  return c.db.begin(async (tx) => {
    // One at a time: a second override while one is open would be a way to extend it without a new incident.
    const already = await store.lockOpen(tx, who.workspaceId);
    if (already) throw new HttpError(409, "already", `break-glass ${already.id} is already open`);
    const conds = await store.conditionsInForce(tx, who.workspaceId);
    if (conds.length === 0)
      throw new HttpError(409, "nothing_in_force", "no freeze is in force: there is nothing to override");
    const id = newId("bg");
    const incident = newId("inc");
    const ends = new Date(c.now() + ms);
    const g = await store.openBreakGlass(tx, {
      id,
      workspaceId: who.workspaceId,
      incident,
      title: `Break-glass by ${by}: ${body.reason}`,
      reason: body.reason,
      actions: body.actions ?? [],
      suspends: conds.map((x) => x.id),
      by,
      ends,
    });
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "break_glass.open",
      subject: id,
      severity: "critical",
      detail: {
        reason: body.reason,
        actions: body.actions ?? [],
        suspends: conds,
        endsAt: ends.toISOString(),
        incident,
      },
    });
    if (!g) throw new HttpError(500, "internal", "the override was not recorded");
    return json({ ...view(g, c.now()), lifted: conds }, 201);
  });
}

/** POST /v1/break-glass/:id/close: ends it early; what it suspended is in force again on the next beat. */
export async function closeBreakGlass(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const g = await store.closeBreakGlass(tx, who.workspaceId, c.params.id ?? "", by);
    if (!g) throw new HttpError(404, "not_found", `no open break-glass \`${c.params.id ?? ""}\``);
    await audit(tx, { orgId: who.orgId, actor: by, action: "break_glass.close", subject: g.id, severity: "warning" });
    return json(view(g, c.now()));
  });
}

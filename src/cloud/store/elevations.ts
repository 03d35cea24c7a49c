// Power to approve is itself a change a second admin confirms. Giving a member the reviewer or admin role (adding them
// so, raising them, or letting a suspended one back in) opens an elevation: another active admin confirms it, signed
// in; where no other admin exists to do so, it takes effect once a cooling-off has passed, unless somebody cancels
// it first. Each step is audited with who asked and who confirmed, so the audit names the chain behind every approver.
import { HttpError } from "../http-error.ts";
import { newId } from "../ids.ts";
import { iso } from "../iso.ts";
import { atLeast, isRole, type Role } from "../roles.ts";
import type { Db } from "./db.ts";
import { audit } from "./people.ts";

/** How long a grant nobody else could confirm waits before it takes effect; also how long a sole admin waits. */
export const COOLING_OFF_MS = 24 * 3_600_000;

export interface ElevationRow {
  id: string;
  org_id: string;
  member_id: string;
  from_role: Role;
  to_role: Role;
  requested_by: string;
  requester_member_id: string | null;
  requested_at: Date;
  cooling_off_until: Date | null;
  status: "pending" | "confirmed" | "cooled" | "cancelled";
  decided_by: string | null;
  decided_at: Date | null;
}

export function elevationView(e: ElevationRow) {
  return {
    id: e.id,
    memberId: e.member_id,
    from: e.from_role,
    to: e.to_role,
    requestedBy: e.requested_by,
    requestedAt: iso(e.requested_at),
    // Null: another admin confirms it; else when it takes effect on its own.
    coolingOffUntil: iso(e.cooling_off_until),
    status: e.status,
    decidedBy: e.decided_by,
    decidedAt: iso(e.decided_at),
  };
}

export type ElevationView = ReturnType<typeof elevationView>;

/** Whether `role` lets a member approve something: what an elevation guards. */
export function approves(role: Role): boolean {
  return atLeast(role, "reviewer");
}

/**
 * Applies every elevation of `orgId` (or of one member) whose cooling-off has passed, each once even with several
 * servers, and audits it. Returns the member's role now in force when `memberId` is given and it changed.
 */
async function settle(db: Db, orgId: string, now: number, memberId?: string): Promise<Role | undefined> {
  return db.begin(async (tx) => {
    const due: ElevationRow[] = await tx`
      UPDATE elevations SET status = 'cooled', decided_by = 'cooling-off', decided_at = ${new Date(now)}
      WHERE org_id = ${orgId} AND status = 'pending' AND cooling_off_until IS NOT NULL
        AND cooling_off_until <= ${new Date(now)} ${memberId ? tx`AND member_id = ${memberId}` : tx``}
      RETURNING *`;
    let mine: Role | undefined;
    for (const e of due) {
      const [m]: { role: string }[] = await tx`
        UPDATE members SET role = ${e.to_role}, elevation_id = ${e.id}
        WHERE id = ${e.member_id} AND status = 'active' RETURNING role`;
      if (!m) continue;
      if (e.member_id === memberId && isRole(m.role)) mine = m.role;
      await audit(tx, {
        orgId,
        actor: "cooling-off",
        action: "member.elevate.cooled",
        subject: e.member_id,
        severity: "warning",
        detail: {
          elevation: e.id,
          role: e.to_role,
          requestedBy: e.requested_by,
          requestedAt: iso(e.requested_at),
          coolingOffUntil: iso(e.cooling_off_until),
          why: "no other admin could confirm it; nobody cancelled it before its cooling-off ended",
        },
      });
    }
    return mine;
  });
}

/** The caller's own elevation, once its cooling-off passed: the role they now hold, or undefined when unchanged. */
export function settleOwn(db: Db, orgId: string, memberId: string, now: number): Promise<Role | undefined> {
  return settle(db, orgId, now, memberId);
}

export async function settleDue(db: Db, orgId: string, now: number): Promise<void> {
  await settle(db, orgId, now);
}

interface Requester {
  readonly actor: string;
  readonly memberId: string | null;
}

/**
 * Opens an elevation of `member` to `to` (inside the caller's transaction), replacing any still open for them. Another
 * active admin than the requester and the member confirms it; with none, it cools off.
 */
export async function requestElevation(
  tx: Db,
  orgId: string,
  member: { readonly id: string; readonly role: Role },
  to: Role,
  by: Requester,
  now: number,
): Promise<ElevationRow> {
  if (!approves(to)) throw new Error("an elevation is to a role that approves");
  await tx`UPDATE elevations SET status = 'cancelled', decided_by = ${by.actor}, decided_at = ${new Date(now)}
           WHERE member_id = ${member.id} AND status = 'pending'`;
  const [n]: { n: string }[] = await tx`
    SELECT count(*) AS n FROM members WHERE org_id = ${orgId} AND role = 'admin' AND status = 'active'
      AND id <> ${member.id} ${by.memberId ? tx`AND id <> ${by.memberId}` : tx``}`;
  const confirmers = Number(n?.n ?? 0);
  const coolsAt = confirmers > 0 ? null : new Date(now + COOLING_OFF_MS);
  const [e]: ElevationRow[] = await tx`
    INSERT INTO elevations (id, org_id, member_id, from_role, to_role, requested_by, requester_member_id, requested_at,
                            cooling_off_until)
    VALUES (${newId("elv")}, ${orgId}, ${member.id}, ${member.role}, ${to}, ${by.actor}, ${by.memberId},
            ${new Date(now)}, ${coolsAt})
    RETURNING *`;
  if (!e) throw new Error("the elevation was not recorded");
  await audit(tx, {
    orgId,
    actor: by.actor,
    action: "member.elevate.request",
    subject: member.id,
    severity: "warning",
    detail: {
      elevation: e.id,
      from: member.role,
      role: to,
      ...(coolsAt
        ? {
            coolingOffUntil: coolsAt.toISOString(),
            why: "no other admin can confirm it, so it waits out a cooling-off",
          }
        : { needs: "another admin confirms it, signed in" }),
    },
  });
  return e;
}

/** Confirms `memberId`'s open elevation as `by`: an active admin other than whoever asked for it and the member. */
export async function confirmElevation(
  db: Db,
  orgId: string,
  memberId: string,
  by: { readonly actor: string; readonly memberId: string },
  now: number,
): Promise<ElevationRow> {
  return db.begin(async (tx) => {
    const [e]: ElevationRow[] = await tx`
      SELECT * FROM elevations WHERE org_id = ${orgId} AND member_id = ${memberId} AND status = 'pending' FOR UPDATE`;
    if (!e) throw new HttpError(404, "not_found", "nothing is waiting to be confirmed for this member");
    if (e.member_id === by.memberId)
      throw new HttpError(403, "second_admin", "nobody confirms their own power to approve");
    if (e.requester_member_id === by.memberId)
      throw new HttpError(403, "second_admin", "a second admin confirms this: the one who asked for it cannot");
    const [m]: { status: string }[] = await tx`SELECT status FROM members WHERE id = ${memberId} FOR UPDATE`;
    if (m?.status !== "active") throw new HttpError(409, "suspended", "this member is suspended");
    const [done]: ElevationRow[] = await tx`
      UPDATE elevations SET status = 'confirmed', decided_by = ${by.actor}, decider_member_id = ${by.memberId},
                            decided_at = ${new Date(now)}
      WHERE id = ${e.id} RETURNING *`;
    await tx`UPDATE members SET role = ${e.to_role}, elevation_id = ${e.id} WHERE id = ${memberId}`;
    await audit(tx, {
      orgId,
      actor: by.actor,
      action: "member.elevate.confirm",
      subject: memberId,
      severity: "warning",
      detail: { elevation: e.id, role: e.to_role, requestedBy: e.requested_by, confirmedBy: by.actor },
    });
    if (!done) throw new Error("the elevation was not confirmed");
    return done;
  });
}

/** Cancels `memberId`'s open elevation (any admin may: it only takes power back). */
export async function cancelElevation(
  db: Db,
  orgId: string,
  memberId: string,
  by: string,
  now: number,
): Promise<ElevationRow> {
  const [e]: ElevationRow[] = await db`
    UPDATE elevations SET status = 'cancelled', decided_by = ${by}, decided_at = ${new Date(now)}
    WHERE org_id = ${orgId} AND member_id = ${memberId} AND status = 'pending' RETURNING *`;
  if (!e) throw new HttpError(404, "not_found", "nothing is waiting to be confirmed for this member");
  await audit(db, {
    orgId,
    actor: by,
    action: "member.elevate.cancel",
    subject: memberId,
    detail: { elevation: e.id, role: e.to_role, requestedBy: e.requested_by },
  });
  return e;
}

/** How a member came to hold the role they approve with: the grant, who asked and who confirmed (or the cooling-off). */
export async function grantChain(db: Db, memberId: string): Promise<Record<string, unknown>> {
  const [m]: { role: string; created_by: string; elevation_id: string | null }[] = await db`
    SELECT role, created_by, elevation_id FROM members WHERE id = ${memberId}`;
  if (!m) return { role: null };
  if (!m.elevation_id) return { role: m.role, grantedBy: m.created_by, via: "founding" };
  const [e]: ElevationRow[] = await db`SELECT * FROM elevations WHERE id = ${m.elevation_id}`;
  if (!e) return { role: m.role, grantedBy: m.created_by };
  return {
    role: m.role,
    elevation: e.id,
    requestedBy: e.requested_by,
    requestedAt: iso(e.requested_at),
    via: e.status === "cooled" ? "cooling-off" : "second-admin",
    confirmedBy: e.status === "confirmed" ? e.decided_by : null,
    effectiveAt: iso(e.decided_at),
  };
}

/** The organization's elevations still waiting, oldest first. */
export async function pendingElevations(db: Db, orgId: string): Promise<ElevationRow[]> {
  return db`
    SELECT * FROM elevations WHERE org_id = ${orgId} AND status = 'pending' ORDER BY requested_at`;
}

// Who is calling: a bearer token looked up by its hash. A person's role is the member record's, never the token's; a
// revoked machine is told so, which is how its loop knows to stop.
import { HttpError } from "./http-error.ts";
import { secretHash } from "./ids.ts";
import { iso } from "./iso.ts";
import { isRole, type Principal } from "./roles.ts";
import type { Db } from "./store/db.ts";
import { settleOwn } from "./store/elevations.ts";
import * as store from "./store/sessions.ts";
import { liveSession } from "./store/sessions.ts";

/** How a principal is named in the record: an email, `operator:<name>`, or `machine:<id>`. */
export function actorName(p: Principal): string {
  if (p.kind === "person") return p.email;
  if (p.kind === "operator") return `operator:${p.name}`;
  return `machine:${p.machineId}`;
}

export function bearer(req: Request): string | undefined {
  const h = req.headers.get("authorization");
  const m = h ? /^Bearer\s+(\S+)$/i.exec(h) : null;
  return m?.[1];
}

/** Why a credential was refused, with the organization it belongs to when it is one of ours (for the audit). */
export interface Refused {
  readonly refusal: HttpError;
  readonly orgId: string | null;
  /** `unknown`: no such token anywhere, the one an attacker guessing tokens meets. */
  readonly why: "unknown" | "revoked" | "suspended" | "unusable";
}

/** The caller (undefined when no token was sent), or why the token it sent does not hold. */
export async function authenticate(
  db: Db,
  req: Request,
  now: number,
): Promise<{ readonly who: Principal | undefined } | Refused> {
  const token = bearer(req);
  if (token === undefined) return { who: undefined };
  const t = await store.tokenByHash(db, secretHash(token), new Date(now));
  if (!t) return refused(null, "unknown", 401, "unauthenticated", "this token is not known here");
  const scope = { orgId: t.org_id, workspaceId: t.workspace_id, tokenId: t.id };
  if (t.machine_id !== null) {
    if (t.machine_revoked_at !== null || t.revoked_at !== null)
      return {
        orgId: t.org_id,
        why: "revoked",
        refusal: new HttpError(401, "revoked", "this machine's credential was revoked", {
          revokedAt: iso(t.machine_revoked_at ?? t.revoked_at),
          revokedBy: t.machine_revoked_by,
        }),
      };
    return { who: { ...scope, kind: "machine", machineId: t.machine_id } };
  }
  if (t.revoked_at !== null) return refused(t.org_id, "revoked", 401, "revoked", "this token was revoked");
  if (t.kind === "operator" && isRole(t.role))
    return { who: { ...scope, kind: "operator", name: t.name, role: t.role } };
  if (t.kind === "person" && t.member_id !== null && t.email !== null && isRole(t.member_role)) {
    if (t.member_status !== "active")
      return refused(t.org_id, "suspended", 401, "suspended", "this member is suspended");
    await store.noteTokenUse(db, t.id);
    const role = (t.due ? await settleOwn(db, t.org_id, t.member_id, now) : undefined) ?? t.member_role;
    return {
      who: { ...scope, kind: "person", memberId: t.member_id, email: t.email, role, via: "token" },
    };
  }
  return refused(t.org_id, "unusable", 401, "unauthenticated", "this token is not usable");
}

function refused(orgId: string | null, why: Refused["why"], status: number, code: string, message: string): Refused {
  return { orgId, why, refusal: new HttpError(status, code, message) };
}

/** The browser's session cookie: `__Host-` so it is only ever set by this origin, over a secure context, for `/`. */
export const SESSION_COOKIE = "__Host-memnox-session";

/** A cookie's value from a request, or undefined. */
export function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

export interface Session {
  readonly id: string;
  /** What every form of this session carries back. */
  readonly csrf: string;
}

/**
 * A signed-in person from the console's session cookie: one more caller, with the role read from the member record
 * on every request (so a suspension or a change of role holds at once). Only the console's routes read the cookie.
 */
export async function sessionPrincipal(
  db: Db,
  req: Request,
  now = Date.now(),
): Promise<{ readonly who: Principal; readonly session: Session } | undefined> {
  const secret = cookie(req, SESSION_COOKIE);
  if (!secret) return undefined;
  const s = await liveSession(db, secret);
  if (!s) return undefined;
  const who = await memberPrincipal(db, s.member_id, now, "session", s.id);
  if (!who) return undefined;
  return {
    who,
    session: { id: s.id, csrf: s.csrf },
  };
}

/**
 * An active member as a caller, the role read from their record (an elevation whose cooling-off ended applied first),
 * or undefined when they are not active: what a session and a chat command both act as.
 */
export async function memberPrincipal(
  db: Db,
  memberId: string,
  now: number,
  via: "session" | "chat",
  tokenId: string,
): Promise<Principal | undefined> {
  const m = await store.sessionMember(db, memberId, new Date(now));
  if (m?.status !== "active" || !isRole(m.role)) return undefined;
  const role = (m.due ? await settleOwn(db, m.org_id, memberId, now) : undefined) ?? m.role;
  return { kind: "person", orgId: m.org_id, workspaceId: m.workspace_id, tokenId, memberId, email: m.email, role, via };
}

// Browser sessions: the cookie holds 256 random bits, the database only their hash; each session carries the token
// every one of its forms must echo. Signing out ends the row, so the cookie is worth nothing anywhere after that.
import { newId, secretHash } from "../ids.ts";
import type { Db } from "./db.ts";

/** How long a session lasts at most, and how long it may sit unused. */
export const SESSION_MAX_MS = 7 * 86_400_000;
const SESSION_IDLE_MS = 12 * 3_600_000;

const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");

interface NewSession {
  readonly id: string;
  /** The cookie's value: given to the browser once, never stored. */
  readonly secret: string;
  readonly csrf: string;
}

export async function createSession(db: Db, memberId: string, now: number): Promise<NewSession> {
  const s = { id: newId("ses"), secret: random(), csrf: random() };
  await db`INSERT INTO sessions (id, hash, member_id, csrf, expires_at)
           VALUES (${s.id}, ${secretHash(s.secret)}, ${memberId}, ${s.csrf}, ${new Date(now + SESSION_MAX_MS)})`;
  await db`UPDATE members SET last_sign_in_at = now() WHERE id = ${memberId}`;
  return s;
}

interface SessionRow {
  readonly id: string;
  readonly member_id: string;
  readonly csrf: string;
  readonly ended: boolean;
}

/** The live session a cookie names: not ended, not past its end, not idle too long. */
export async function liveSession(db: Db, secret: string): Promise<SessionRow | undefined> {
  const [s]: SessionRow[] = await db`
    SELECT id, member_id, csrf, ended_at IS NOT NULL AS ended FROM sessions
    WHERE hash = ${secretHash(secret)} AND ended_at IS NULL AND expires_at > now()
      AND last_seen_at > now() - make_interval(secs => ${SESSION_IDLE_MS / 1000})`;
  if (!s) return undefined;
  await db`UPDATE sessions SET last_seen_at = now() WHERE id = ${s.id} AND last_seen_at < now() - interval '1 minute'`;
  return s;
}

export async function endSession(db: Db, id: string, by: string): Promise<void> {
  await db`UPDATE sessions SET ended_at = now(), ended_by = ${by} WHERE id = ${id} AND ended_at IS NULL`;
}

/** A suspended member's sessions end with the suspension, not at their next expiry. */
export async function endSessionsOf(db: Db, memberId: string, by: string): Promise<void> {
  await db`UPDATE sessions SET ended_at = now(), ended_by = ${by} WHERE member_id = ${memberId} AND ended_at IS NULL`;
}

/**
 * Selecting another organization the same signed-in identity belongs to: the session now answers for that member.
 * Only a member row bound to the very same issuer and subject qualifies; false when there is none.
 */
export async function switchOrg(db: Db, sessionId: string, fromMemberId: string, orgId: string): Promise<boolean> {
  const [m]: { id: string }[] = await db`
    SELECT m.id FROM members m JOIN members me ON me.id = ${fromMemberId}
    WHERE m.org_id = ${orgId} AND m.email = me.email AND m.status = 'active' AND me.oidc_subject IS NOT NULL
      AND m.oidc_issuer = me.oidc_issuer AND m.oidc_subject = me.oidc_subject`;
  if (!m) return false;
  await db`UPDATE sessions SET member_id = ${m.id} WHERE id = ${sessionId} AND ended_at IS NULL`;
  return true;
}

export interface TokenRow {
  id: string;
  org_id: string;
  kind: string;
  role: string | null;
  name: string;
  revoked_at: Date | null;
  workspace_id: string;
  member_id: string | null;
  email: string | null;
  member_role: string | null;
  member_status: string | null;
  machine_id: string | null;
  machine_revoked_at: Date | null;
  machine_revoked_by: string | null;
  /** A grant of power to this member whose cooling-off has ended, not yet applied. */
  due: boolean;
}

/** The token with this hash, with its workspace, person or machine, and whether a raise of its person is due. */
export async function tokenByHash(db: Db, hash: string, now: Date): Promise<TokenRow | undefined> {
  const [t]: TokenRow[] = await db`
    SELECT t.id, t.org_id, t.kind, t.role, t.name, t.revoked_at, w.id AS workspace_id,
           m.id AS member_id, m.email, m.role AS member_role, m.status AS member_status,
           t.machine_id, x.revoked_at AS machine_revoked_at, x.revoked_by AS machine_revoked_by,
           EXISTS (SELECT 1 FROM elevations e WHERE e.member_id = m.id AND e.status = 'pending'
                     AND e.cooling_off_until <= ${now}) AS due
    FROM tokens t
    JOIN workspaces w ON w.org_id = t.org_id
    LEFT JOIN members m ON m.id = t.member_id
    LEFT JOIN machines x ON x.id = t.machine_id
    WHERE t.hash = ${hash}`;
  return t;
}

/** When a person's token was last used, written at most once a minute. */
export async function noteTokenUse(db: Db, id: string): Promise<void> {
  await db`UPDATE tokens SET last_used_at = now()
             WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
}

/** A session's member with their workspace, and whether a raise of theirs is due. */
export async function sessionMember(
  db: Db,
  memberId: string,
  now: Date,
): Promise<
  { org_id: string; workspace_id: string; email: string; role: string; status: string; due: boolean } | undefined
> {
  const [m]: { org_id: string; workspace_id: string; email: string; role: string; status: string; due: boolean }[] =
    await db`
    SELECT m.org_id, w.id AS workspace_id, m.email, m.role, m.status,
           EXISTS (SELECT 1 FROM elevations e WHERE e.member_id = m.id AND e.status = 'pending'
                     AND e.cooling_off_until <= ${now}) AS due
    FROM members m JOIN workspaces w ON w.org_id = m.org_id WHERE m.id = ${memberId}`;
  return m;
}

/** A sign-in started in a browser: expired ones forgotten, this one kept until it is finished or expires. */
export async function startSignIn(
  db: Db,
  s: {
    readonly hash: string;
    readonly state: string;
    readonly nonce: string;
    readonly verifier: string;
    readonly returnTo: string;
    readonly expires: Date;
  },
): Promise<void> {
  await db`DELETE FROM sign_ins WHERE expires_at < now()`;
  await db`INSERT INTO sign_ins (hash, state, nonce, code_verifier, return_to, expires_at)
           VALUES (${s.hash}, ${s.state}, ${s.nonce}, ${s.verifier}, ${s.returnTo},
                   ${s.expires})`;
}

/** The sign-in this browser started, taken once (undefined when expired or already used). */
export async function takeSignIn(
  db: Db,
  hash: string,
): Promise<{ state: string; nonce: string; code_verifier: string; return_to: string } | undefined> {
  const [pending]: { state: string; nonce: string; code_verifier: string; return_to: string }[] = await db`
    DELETE FROM sign_ins WHERE hash = ${hash} AND expires_at > now()
    RETURNING state, nonce, code_verifier, return_to`;
  return pending;
}

export interface MemberRow {
  id: string;
  org_id: string;
  status: string;
  oidc_issuer: string | null;
  oidc_subject: string | null;
  last_sign_in_at: Date | null;
}

/** Every member row holding this address, in any organization: the one signed in to last first. */
export async function membersByEmail(db: Db, email: string): Promise<MemberRow[]> {
  return db`
    SELECT id, org_id, status, oidc_issuer, oidc_subject, last_sign_in_at FROM members WHERE email = ${email}
    ORDER BY last_sign_in_at DESC NULLS LAST, created_at`;
}

/** A new member bound to the identity that made it. */
export async function bindIdentity(db: Db, memberId: string, issuer: string, subject: string): Promise<void> {
  await db`UPDATE members SET oidc_issuer = ${issuer}, oidc_subject = ${subject} WHERE id = ${memberId}`;
}

/** A provisioned member bound to the identity signing in, unless already bound. */
export async function bindUnbound(db: Db, memberId: string, issuer: string, subject: string): Promise<void> {
  await db`UPDATE members SET oidc_issuer = ${issuer}, oidc_subject = ${subject}
               WHERE id = ${memberId} AND oidc_subject IS NULL`;
}

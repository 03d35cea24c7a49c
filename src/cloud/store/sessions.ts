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

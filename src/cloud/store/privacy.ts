// A data subject's rows, found by address: exported table by table, or erased where they are not a member's. The
// member ids and accounts are found within the organization and workspace, and every read below starts from them.
import type { Db } from "./db.ts";

/** Who an address is here: the organization's members holding it, and the workspace's accounts tied to it. */
export async function subjectRows(
  db: Db,
  orgId: string,
  workspaceId: string,
  email: string,
): Promise<{ memberIds: string[]; accounts: string[] }> {
  const members: { id: string }[] =
    await db`SELECT id FROM members WHERE org_id = ${orgId} AND lower(email) = ${email}`;
  const accounts: { account: string }[] = await db`
    SELECT account FROM person_accounts WHERE workspace_id = ${workspaceId} AND lower(email) = ${email}`;
  return { memberIds: members.map((m) => m.id), accounts: accounts.map((a) => a.account) };
}

/** Everything held about a subject, table by table (credentials never: only their names). */
export async function subjectExport(
  db: Db,
  orgId: string,
  workspaceId: string,
  subject: string,
  s: { readonly memberIds: readonly string[]; readonly accounts: readonly string[] },
): Promise<Record<string, unknown[]>> {
  return {
    members: await db`SELECT id, email, display_name, role, status, created_at, last_sign_in_at FROM members
                        WHERE id = ANY(${s.memberIds})`,
    person_accounts: await db`SELECT source_type, account, email, evidence, linked_at FROM person_accounts
                                WHERE workspace_id = ${workspaceId} AND lower(email) = ${subject}`,
    source_events:
      await db`SELECT id, source_type, source_ref, kind, stream, author, content, occurred_at FROM source_events
                              WHERE workspace_id = ${workspaceId}
                                AND (member_id = ANY(${s.memberIds}) OR author = ANY(${s.accounts}) OR lower(author) = ${subject})`,
    tokens: await db`SELECT id, kind, name, created_at, revoked_at FROM tokens WHERE member_id = ANY(${s.memberIds})`,
    sessions:
      await db`SELECT id, created_at, last_seen_at, expires_at, ended_at FROM sessions WHERE member_id = ANY(${s.memberIds})`,
    machines:
      await db`SELECT id, workspace_id, approved_by, version FROM machines WHERE owner_id = ANY(${s.memberIds})`,
    audit: await db`SELECT id, actor, action, subject, at FROM audit
                      WHERE org_id = ${orgId} AND (lower(actor) = ${subject} OR subject = ${subject} OR subject = ANY(${s.memberIds}))
                      ORDER BY id LIMIT 5000`,
  };
}

/** A member among these ids not removed, if any: their data is erased by removing them instead. */
export async function liveMember(tx: Db, memberIds: readonly string[]): Promise<{ id: string } | undefined> {
  const [live]: { id: string }[] = await tx`
      SELECT id FROM members WHERE id = ANY(${memberIds}) AND status <> 'removed'`;
  return live;
}

/** A non-member subject erased inside the caller's transaction; the rows each step touched. */
export async function eraseSubject(
  tx: Db,
  orgId: string,
  workspaceId: string,
  subject: string,
  s: { readonly memberIds: readonly string[]; readonly accounts: readonly string[] },
): Promise<{ source_events: number; person_accounts: number; audit: number }> {
  const count = (rows: readonly unknown[]) => rows.length;
  const source_events = count(
    await tx`DELETE FROM source_events WHERE workspace_id = ${workspaceId}
                     AND (member_id = ANY(${s.memberIds}) OR author = ANY(${s.accounts}) OR lower(author) = ${subject}) RETURNING 1`,
  );
  const person_accounts = count(
    await tx`DELETE FROM person_accounts WHERE workspace_id = ${workspaceId} AND lower(email) = ${subject} RETURNING 1`,
  );
  const audit = count(
    await tx`UPDATE audit SET subject = 'erased-subject', detail = detail - 'email' - 'subject'
                   WHERE org_id = ${orgId} AND (subject = ${subject} OR detail->>'email' = ${subject} OR detail->>'subject' = ${subject}) RETURNING 1`,
  );
  return { source_events, person_accounts, audit };
}

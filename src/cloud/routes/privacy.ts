// Privacy: the register (store/register.ts), a subject's export table by table, and erasure with a receipt. A subject
// is an address: a member's, or an author known only from a connected system (through person_accounts). A member is
// erased by removing them under People, which is where the account's receipt comes from.
import type * as v from "valibot";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { audit } from "../store/people.ts";
import { REGISTER } from "../store/register.ts";
import type { SubjectBody } from "./bodies.ts";

/** GET /v1/privacy/register: every table, classified four ways. */
export async function privacyRegister(c: Call): Promise<Response> {
  if (!c.who) throw new HttpError(401, "unauthenticated", "this needs a token");
  return json({ tables: REGISTER });
}

interface Subject {
  readonly memberIds: string[];
  readonly accounts: string[];
}

async function subjectOf(c: Call, orgId: string, workspaceId: string, email: string): Promise<Subject> {
  const members: { id: string }[] =
    await c.db`SELECT id FROM members WHERE org_id = ${orgId} AND lower(email) = ${email}`;
  const accounts: { account: string }[] = await c.db`
    SELECT account FROM person_accounts WHERE workspace_id = ${workspaceId} AND lower(email) = ${email}`;
  return { memberIds: members.map((m) => m.id), accounts: accounts.map((a) => a.account) };
}

/** POST /v1/privacy/export {subject}: everything held about a subject, table by table (credentials never: only names). */
export async function exportSubject(c: Call, body: v.InferOutput<typeof SubjectBody>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const s = await subjectOf(c, who.orgId, who.workspaceId, body.subject);
  const tables: Record<string, unknown[]> = {
    members: await c.db`SELECT id, email, display_name, role, status, created_at, last_sign_in_at FROM members
                        WHERE id = ANY(${s.memberIds})`,
    person_accounts: await c.db`SELECT source_type, account, email, evidence, linked_at FROM person_accounts
                                WHERE workspace_id = ${who.workspaceId} AND lower(email) = ${body.subject}`,
    source_events:
      await c.db`SELECT id, source_type, source_ref, kind, stream, author, content, occurred_at FROM source_events
                              WHERE workspace_id = ${who.workspaceId}
                                AND (member_id = ANY(${s.memberIds}) OR author = ANY(${s.accounts}) OR lower(author) = ${body.subject})`,
    tokens: await c.db`SELECT id, kind, name, created_at, revoked_at FROM tokens WHERE member_id = ANY(${s.memberIds})`,
    sessions:
      await c.db`SELECT id, created_at, last_seen_at, expires_at, ended_at FROM sessions WHERE member_id = ANY(${s.memberIds})`,
    machines:
      await c.db`SELECT id, workspace_id, approved_by, version FROM machines WHERE owner_id = ANY(${s.memberIds})`,
    audit: await c.db`SELECT id, actor, action, subject, at FROM audit
                      WHERE org_id = ${who.orgId} AND (lower(actor) = ${body.subject} OR subject = ${body.subject} OR subject = ANY(${s.memberIds}))
                      ORDER BY id LIMIT 5000`,
  };
  await audit(c.db, {
    orgId: who.orgId,
    actor: actorName(who),
    action: "privacy.export",
    detail: { subject: body.subject },
  });
  return json({ subject: body.subject, tables });
}

/**
 * POST /v1/privacy/erasure {subject}: a subject who is not a member (an author seen in a connected system): what they
 * wrote and the accounts tying them to an address are deleted, audit entries about them anonymised; a receipt says so.
 */
export async function eraseSubject(c: Call, body: v.InferOutput<typeof SubjectBody>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const s = await subjectOf({ ...c, db: tx }, who.orgId, who.workspaceId, body.subject);
    const [live]: { id: string }[] = await tx`
      SELECT id FROM members WHERE id = ANY(${s.memberIds}) AND status <> 'removed'`;
    if (live)
      throw new HttpError(
        409,
        "is_member",
        "this address is a member's: remove them under People, which erases the account",
      );
    const count = (rows: readonly unknown[]) => rows.length;
    const receipt = [
      {
        table: "source_events",
        records: count(
          await tx`DELETE FROM source_events WHERE workspace_id = ${who.workspaceId}
                     AND (member_id = ANY(${s.memberIds}) OR author = ANY(${s.accounts}) OR lower(author) = ${body.subject}) RETURNING 1`,
        ),
        strategy: "deleted",
      },
      {
        table: "person_accounts",
        records: count(
          await tx`DELETE FROM person_accounts WHERE workspace_id = ${who.workspaceId} AND lower(email) = ${body.subject} RETURNING 1`,
        ),
        strategy: "deleted",
      },
      {
        table: "audit",
        records: count(
          await tx`UPDATE audit SET subject = 'erased-subject', detail = detail - 'email' - 'subject'
                   WHERE org_id = ${who.orgId} AND (subject = ${body.subject} OR detail->>'email' = ${body.subject} OR detail->>'subject' = ${body.subject}) RETURNING 1`,
        ),
        strategy: "anonymised",
        why: "the entry stays for the chain of what happened; the address leaves it",
      },
    ];
    // The request itself is recorded without the address it erased.
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "privacy.erasure",
      severity: "warning",
      detail: { receipt: receipt.map((r) => ({ table: r.table, records: r.records, strategy: r.strategy })) },
    });
    return json({ erased: true, receipt });
  });
}

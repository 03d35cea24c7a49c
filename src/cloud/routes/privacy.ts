// Privacy: the register (store/register.ts), a subject's export table by table, and erasure with a receipt. A subject
// is an address: a member's, or an author known only from a connected system (through person_accounts). A member is
// erased by removing them under People, which is where the account's receipt comes from.
import type * as v from "valibot";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { audit } from "../store/people.ts";
import * as store from "../store/privacy.ts";
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
  return store.subjectRows(c.db, orgId, workspaceId, email);
}

/** POST /v1/privacy/export {subject}: everything held about a subject, table by table (credentials never: only names). */
export async function exportSubject(c: Call, body: v.InferOutput<typeof SubjectBody>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const s = await subjectOf(c, who.orgId, who.workspaceId, body.subject);
  const tables = await store.subjectExport(c.db, who.orgId, who.workspaceId, body.subject, s);
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
    const live = await store.liveMember(tx, s.memberIds);
    if (live)
      throw new HttpError(
        409,
        "is_member",
        "this address is a member's: remove them under People, which erases the account",
      );
    const n = await store.eraseSubject(tx, who.orgId, who.workspaceId, body.subject, s);
    const receipt = [
      {
        table: "source_events",
        records: n.source_events,
        strategy: "deleted",
      },
      {
        table: "person_accounts",
        records: n.person_accounts,
        strategy: "deleted",
      },
      {
        table: "audit",
        records: n.audit,
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

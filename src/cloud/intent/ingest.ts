// Where an event lands: taint and classification decided once, at arrival, deterministically, then stored once (a
// resend is the same dedup key) and projected into the team graph. Nothing is refused for being tainted: it is stored
// and searchable, and it raises the bar for what reads it.
import { maskSecrets } from "../../core/secrets.ts";
import type { Db } from "../store/db.ts";
import { classify, DEFAULT_RULES, type SensitivityRule } from "./classify.ts";
import type { Level } from "./clearance.ts";
import { projectSourceEvent } from "./graph.ts";
import { dedupKey, type Normalized } from "./normalize.ts";
import type { SourceEventRow } from "./rows.ts";

/** Source types that are third-party by nature: they stay tainted whoever forwarded them. */
const THIRD_PARTY = new Set(["files", "email", "web", "rss"]);

interface Arrival {
  readonly event: Normalized;
  /** A file an admin marked as the team's own: the one way a document is not third-party. */
  readonly own?: boolean;
  readonly fileId?: string;
  readonly deliveryId?: string;
  /** For an uploaded file, the member who uploaded it: they forwarded it, which is not the same as writing it. */
  readonly uploaderId?: string;
}

interface Landed {
  readonly id: number;
  readonly duplicate: boolean;
  readonly tainted: boolean;
  readonly classification: Level;
}

interface Author {
  readonly memberId: string | null;
  readonly trusted: boolean;
  readonly why?: string;
}

/** The author looked up against people: a linked account, or an address the system itself reported for them. */
async function authorOf(db: Db, workspaceId: string, e: Normalized): Promise<Author> {
  if (e.outsideTeam) return { memberId: null, trusted: false, why: "author outside the workspace trust boundary" };
  if (!e.author && !e.authorEmail) return { memberId: null, trusted: false, why: "no author the system could name" };
  if (e.author) {
    const [linked]: { member_id: string }[] = await db`
      SELECT a.member_id FROM person_accounts a JOIN members m ON m.id = a.member_id
      WHERE a.workspace_id = ${workspaceId} AND a.source_type = ${e.sourceType} AND a.account = ${e.author}
        AND m.status = 'active'`;
    if (linked) return { memberId: linked.member_id, trusted: true };
  }
  if (e.authorEmail) {
    // Email is the only evidence strong enough to merge accounts: the system reported it, and a member holds it.
    const [m]: { id: string }[] = await db`
      SELECT m.id FROM members m JOIN workspaces w ON w.org_id = m.org_id
      WHERE w.id = ${workspaceId} AND lower(m.email) = ${e.authorEmail} AND m.status = 'active'`;
    if (m) {
      if (e.author)
        await db`INSERT INTO person_accounts (workspace_id, source_type, account, member_id, email, evidence, linked_by)
                 VALUES (${workspaceId}, ${e.sourceType}, ${e.author}, ${m.id}, ${e.authorEmail}, 'reported', 'system')
                 ON CONFLICT DO NOTHING`;
      return { memberId: m.id, trusted: true };
    }
  }
  return { memberId: null, trusted: false, why: "author outside the workspace trust boundary" };
}

export async function sensitivityRules(db: Db, workspaceId: string): Promise<SensitivityRule[]> {
  const rows: { level: Level; audience: string | null; terms: string[] }[] = await db`
    SELECT level, audience, terms FROM sensitivity_rules WHERE workspace_id = ${workspaceId} ORDER BY id`;
  if (rows.length === 0) return [...DEFAULT_RULES];
  return rows.map((r) => ({ level: r.level, terms: r.terms, ...(r.audience ? { audience: r.audience } : {}) }));
}

/** Stores `a` once with its taint and classification; a resend answers the first arrival's id as a duplicate. */
export async function land(
  db: Db,
  workspaceId: string,
  a: Arrival,
  rules?: readonly SensitivityRule[],
): Promise<Landed> {
  // A credential somebody pasted into a thread is masked before it is stored, classified, or read by a model.
  const e = { ...a.event, content: maskSecrets(a.event.content) };
  const key = dedupKey(e);
  const [seen]: SourceEventRow[] = await db`
    SELECT * FROM source_events WHERE workspace_id = ${workspaceId} AND dedup_key = ${key}`;
  if (seen)
    return {
      id: Number(seen.id),
      duplicate: true,
      tainted: seen.tainted,
      classification: seen.classification ?? "internal",
    };
  const author = a.uploaderId ? { memberId: a.uploaderId, trusted: true } : await authorOf(db, workspaceId, e);
  const thirdParty = THIRD_PARTY.has(e.sourceType) && a.own !== true;
  const taintReason = thirdParty
    ? `third-party source (${e.sourceType}): it stays tainted whoever forwarded it`
    : author.trusted
      ? null
      : (author.why ?? "author outside the workspace trust boundary");
  const level = classify(e.content, rules ?? (await sensitivityRules(db, workspaceId)));
  const [row]: SourceEventRow[] = await db`
    INSERT INTO source_events (workspace_id, dedup_key, source_type, source_ref, kind, stream, author, author_trusted,
                               member_id, content, occurred_at, tainted, taint_reason, classification, audiences,
                               file_id, delivery_id)
    VALUES (${workspaceId}, ${key}, ${e.sourceType}, ${e.sourceRef}, ${e.kind}, ${e.stream}, ${e.author},
            ${author.trusted}, ${author.memberId}, ${e.content}, ${e.occurredAt}, ${taintReason !== null},
            ${taintReason}, ${level.level}, ${[...level.audiences]}, ${a.fileId ?? null}, ${a.deliveryId ?? null})
    ON CONFLICT (workspace_id, dedup_key) DO NOTHING
    RETURNING *`;
  if (!row) return land(db, workspaceId, a, rules);
  await projectSourceEvent(db, workspaceId, row);
  return { id: Number(row.id), duplicate: false, tainted: row.tainted, classification: level.level };
}

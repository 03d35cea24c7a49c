// Where the team's intent arrives, as stored: the systems connected and their health, delivery ids taken once, files
// uploaded, accounts tied to members, source events read and reclassified, sensitivity rules and clearances.
import type { Level } from "../intent/clearance.ts";
import type { SourceEventRow } from "../intent/rows.ts";
import type { Db } from "./db.ts";

/** A connected system's base URL and chosen streams, if the workspace connected it. */
export async function sourceSetting(
  db: Db,
  workspaceId: string,
  sourceType: string,
): Promise<{ base_url: string | null; streams: string[] } | undefined> {
  const [s]: { base_url: string | null; streams: string[] }[] = await db`
    SELECT base_url, streams FROM sources WHERE workspace_id = ${workspaceId} AND source_type = ${sourceType}`;
  return s;
}

/**
 * One delivery, or one refusal, counted against a source the workspace connected (never one a stranger names: an
 * unsigned request cannot grow this table).
 */
export async function noteHealth(
  db: Db,
  workspaceId: string,
  sourceType: string,
  refusal: string | undefined,
): Promise<void> {
  const ok = refusal === undefined;
  await db`INSERT INTO source_health (workspace_id, source_type, last_delivery_at, delivered, refused, last_refusal,
                                      last_refusal_at)
           SELECT s.workspace_id, s.source_type, CASE WHEN ${ok} THEN now() END, CASE WHEN ${ok} THEN 1 ELSE 0 END,
                  CASE WHEN ${ok} THEN 0 ELSE 1 END, ${refusal?.slice(0, 300) ?? null}, CASE WHEN ${ok} THEN NULL ELSE now() END
           FROM sources s WHERE s.workspace_id = ${workspaceId} AND s.source_type = ${sourceType}
           ON CONFLICT (workspace_id, source_type) DO UPDATE SET
             last_delivery_at = COALESCE(EXCLUDED.last_delivery_at, source_health.last_delivery_at),
             delivered = source_health.delivered + EXCLUDED.delivered,
             refused = source_health.refused + EXCLUDED.refused,
             last_refusal = COALESCE(EXCLUDED.last_refusal, source_health.last_refusal),
             last_refusal_at = COALESCE(EXCLUDED.last_refusal_at, source_health.last_refusal_at)`;
}

/** Whether a workspace with this id exists (an inbound route names it in its path). */
export async function workspaceExists(db: Db, workspaceId: string): Promise<boolean> {
  const [ws]: { id: string }[] = await db`SELECT id FROM workspaces WHERE id = ${workspaceId}`;
  return ws !== undefined;
}

/** Delivery ids past the time their sender may resend them, forgotten (every route's: ids are taken across routes). */
export async function forgetOldDeliveries(db: Db, replayWindowS: number): Promise<void> {
  await db`DELETE FROM inbound_deliveries WHERE COALESCE(keep_until, received_at + make_interval(secs => ${2 * replayWindowS})) < now()`;
}

/** Takes a delivery id for this route; when it was already taken, answers the route that took it. */
export async function takeDelivery(
  db: Db,
  deliveryId: string,
  workspaceId: string,
  sourceType: string,
  keepUntil: Date | null,
): Promise<{ workspace_id: string; source_type: string } | undefined> {
  const [taken]: { workspace_id: string; source_type: string }[] = await db`
    WITH fresh AS (
      INSERT INTO inbound_deliveries (delivery_id, workspace_id, source_type, keep_until)
      VALUES (${deliveryId}, ${workspaceId}, ${sourceType}, ${keepUntil}) ON CONFLICT (delivery_id) DO NOTHING RETURNING 1)
    SELECT workspace_id, source_type FROM inbound_deliveries WHERE delivery_id = ${deliveryId}
      AND NOT EXISTS (SELECT 1 FROM fresh)`;
  return taken;
}

/** One sweep of a workspace at a time, held until the caller's transaction ends: two would race each other's duplicates. */
export async function lockSweep(tx: Db, workspaceId: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(hashtext(${`memnox-sweep:${workspaceId}`}))`;
}

export interface SourceListRow {
  source_type: string;
  base_url: string | null;
  streams: string[];
  set_by: string;
  events: string;
  last_delivery_at: Date | null;
  delivered: string | null;
  refused: string | null;
  last_refusal: string | null;
  last_refusal_at: Date | null;
}

/** Each connected system with how many events arrived from it and its delivery health. */
export async function listSources(db: Db, workspaceId: string): Promise<SourceListRow[]> {
  return db`SELECT s.source_type, s.base_url, s.streams, s.set_by,
                      (SELECT count(*) FROM source_events e WHERE e.workspace_id = s.workspace_id
                         AND e.source_type = s.source_type) AS events,
                      h.last_delivery_at, h.delivered, h.refused, h.last_refusal, h.last_refusal_at
               FROM sources s LEFT JOIN source_health h ON h.workspace_id = s.workspace_id
                 AND h.source_type = s.source_type
               WHERE s.workspace_id = ${workspaceId} ORDER BY s.source_type`;
}

/** A system connected, or its base URL and streams changed. */
export async function setSource(
  db: Db,
  workspaceId: string,
  sourceType: string,
  baseUrl: string | null,
  streams: readonly string[],
  by: string,
): Promise<void> {
  await db`INSERT INTO sources (workspace_id, source_type, base_url, streams, set_by)
             VALUES (${workspaceId}, ${sourceType}, ${baseUrl}, ${streams}, ${by})
             ON CONFLICT (workspace_id, source_type) DO UPDATE SET base_url = EXCLUDED.base_url,
               streams = EXCLUDED.streams, set_by = EXCLUDED.set_by, set_at = now()`;
}

/** The active member of the organization holding this address (compared lowercased). */
export async function activeMemberByEmail(db: Db, orgId: string, email: string): Promise<{ id: string } | undefined> {
  const [m]: { id: string }[] = await db`
    SELECT id FROM members WHERE org_id = ${orgId} AND lower(email) = ${email} AND status = 'active'`;
  return m;
}

/** An account of a system tied to a member by an admin. */
export async function linkAccount(
  db: Db,
  workspaceId: string,
  a: {
    readonly sourceType: string;
    readonly account: string;
    readonly memberId: string;
    readonly email: string;
    readonly by: string;
  },
): Promise<void> {
  await db`INSERT INTO person_accounts (workspace_id, source_type, account, member_id, email, evidence, linked_by)
             VALUES (${workspaceId}, ${a.sourceType}, ${a.account}, ${a.memberId}, ${a.email}, 'admin', ${a.by})
             ON CONFLICT (workspace_id, source_type, account) DO UPDATE SET member_id = EXCLUDED.member_id,
               email = EXCLUDED.email, evidence = 'admin', linked_by = EXCLUDED.linked_by, linked_at = now()`;
}

/** The accounts tied to members not removed. */
export async function listAccounts(
  db: Db,
  workspaceId: string,
): Promise<{ source_type: string; account: string; email: string; evidence: string; linked_by: string }[]> {
  return db`SELECT a.source_type, a.account, a.email, a.evidence, a.linked_by FROM person_accounts a
               JOIN members m ON m.id = a.member_id
               WHERE a.workspace_id = ${workspaceId} AND m.status <> 'removed'
               ORDER BY a.source_type, a.email, a.account`;
}

/** An uploaded document's record; its sections land as source events of their own. */
export async function insertFile(
  db: Db,
  f: {
    readonly id: string;
    readonly workspaceId: string;
    readonly name: string;
    readonly sha256: string;
    readonly bytes: number;
    readonly own: boolean;
    readonly sections: number;
    readonly by: string;
  },
): Promise<void> {
  await db`INSERT INTO files (id, workspace_id, name, sha256, bytes, own, sections, uploaded_by)
             VALUES (${f.id}, ${f.workspaceId}, ${f.name}, ${f.sha256}, ${f.bytes}, ${f.own},
                     ${f.sections}, ${f.by})`;
}

/** The workspace's source events, newest first, narrowed by text, source and file when given (empty: any). */
export async function searchSourceEvents(
  db: Db,
  workspaceId: string,
  q: string,
  source: string,
  file: string,
): Promise<SourceEventRow[]> {
  return db`
    SELECT * FROM source_events WHERE workspace_id = ${workspaceId}
      AND (${q} = '' OR position(${q} IN lower(content)) > 0)
      AND (${source} = '' OR source_type = ${source}) AND (${file} = '' OR file_id = ${file})
    ORDER BY id DESC LIMIT 500`;
}

/** One source event reclassified by a person. */
export async function reclassify(
  db: Db,
  workspaceId: string,
  id: number,
  level: Level,
  audiences: readonly string[],
  by: string,
): Promise<SourceEventRow | undefined> {
  const [row]: SourceEventRow[] = await db`
    UPDATE source_events SET classification = ${level}, audiences = ${audiences}, classified_by = ${by}
    WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING *`;
  return row;
}

/** The workspace's sensitivity rules replaced, inside the caller's transaction. */
export async function replaceSensitivityRules(
  tx: Db,
  workspaceId: string,
  rules: readonly { readonly level: Level; readonly audience: string | null; readonly terms: readonly string[] }[],
  by: string,
): Promise<void> {
  await tx`DELETE FROM sensitivity_rules WHERE workspace_id = ${workspaceId}`;
  for (const r of rules)
    await tx`INSERT INTO sensitivity_rules (workspace_id, level, audience, terms, set_by)
               VALUES (${workspaceId}, ${r.level}, ${r.audience}, ${r.terms}, ${by})`;
}

/** A member's clearance ceiling and audiences. */
export async function setMemberClearance(
  db: Db,
  orgId: string,
  id: string,
  level: Level | null,
  audiences: readonly string[],
): Promise<{ id: string; email: string } | undefined> {
  const [m]: { id: string; email: string }[] = await db`
    UPDATE members SET clearance = ${level}, audiences = ${audiences}
    WHERE org_id = ${orgId} AND id = ${id} RETURNING id, email`;
  return m;
}

/** An agent's clearance and audiences. */
export async function setAgentClearance(
  db: Db,
  workspaceId: string,
  name: string,
  level: Level,
  audiences: readonly string[],
): Promise<{ name: string } | undefined> {
  const [a]: { name: string }[] = await db`
    UPDATE agents SET clearance = ${level}, audiences = ${audiences}
    WHERE workspace_id = ${workspaceId} AND name = ${name} RETURNING name`;
  return a;
}

/** The streams chosen of a system, if the workspace connected it. */
export async function connectedStreams(
  db: Db,
  workspaceId: string,
  sourceType: string,
): Promise<{ streams: string[] } | undefined> {
  const [connected]: { streams: string[] }[] = await db`
    SELECT streams FROM sources WHERE workspace_id = ${workspaceId} AND source_type = ${sourceType}`;
  return connected;
}

/** The member a system's account is linked to in this workspace, active and signed up (has signed in). */
export async function linkedMember(
  db: Db,
  workspaceId: string,
  sourceType: string,
  account: string,
): Promise<string | undefined> {
  const [m]: { member_id: string }[] = await db`
    SELECT a.member_id FROM person_accounts a
      JOIN members m ON m.id = a.member_id JOIN workspaces w ON w.id = a.workspace_id AND w.org_id = m.org_id
    WHERE a.workspace_id = ${workspaceId} AND a.source_type = ${sourceType} AND a.account = ${account}
      AND m.status = 'active' AND m.oidc_subject IS NOT NULL`;
  return m?.member_id;
}

/** The organization a workspace belongs to, if the workspace exists. */
export async function workspaceOrg(db: Db, workspaceId: string): Promise<{ org_id: string } | undefined> {
  const [ws]: { org_id: string }[] = await db`SELECT org_id FROM workspaces WHERE id = ${workspaceId}`;
  return ws;
}

/** Takes a delivery id once (false when it was already taken, on any route). */
export async function takeOnce(db: Db, deliveryId: string, workspaceId: string, sourceType: string): Promise<boolean> {
  const [fresh] = await db`INSERT INTO inbound_deliveries (delivery_id, workspace_id, source_type)
    VALUES (${deliveryId}, ${workspaceId}, ${sourceType}) ON CONFLICT (delivery_id) DO NOTHING
    RETURNING 1`;
  return Boolean(fresh);
}

/** The active member a system's account is linked to in this workspace. */
export async function accountMember(
  db: Db,
  workspaceId: string,
  sourceType: string,
  account: string,
): Promise<{ member_id: string } | undefined> {
  const [linked]: { member_id: string }[] = await db`
      SELECT a.member_id FROM person_accounts a JOIN members m ON m.id = a.member_id
      WHERE a.workspace_id = ${workspaceId} AND a.source_type = ${sourceType} AND a.account = ${account}
        AND m.status = 'active'`;
  return linked;
}

/** The active member of the workspace's organization holding this address. */
export async function workspaceMemberByEmail(
  db: Db,
  workspaceId: string,
  email: string,
): Promise<{ id: string } | undefined> {
  const [m]: { id: string }[] = await db`
      SELECT m.id FROM members m JOIN workspaces w ON w.org_id = m.org_id
      WHERE w.id = ${workspaceId} AND lower(m.email) = ${email} AND m.status = 'active'`;
  return m;
}

/** An account the system reported with a member's address, linked to that member (once). */
export async function noteReportedAccount(
  db: Db,
  workspaceId: string,
  sourceType: string,
  account: string,
  memberId: string,
  email: string,
): Promise<void> {
  await db`INSERT INTO person_accounts (workspace_id, source_type, account, member_id, email, evidence, linked_by)
                 VALUES (${workspaceId}, ${sourceType}, ${account}, ${memberId}, ${email}, 'reported', 'system')
                 ON CONFLICT DO NOTHING`;
}

/** The workspace's own sensitivity rules, in order (none: the defaults apply). */
export async function sensitivityRows(
  db: Db,
  workspaceId: string,
): Promise<{ level: Level; audience: string | null; terms: string[] }[]> {
  return db`
    SELECT level, audience, terms FROM sensitivity_rules WHERE workspace_id = ${workspaceId} ORDER BY id`;
}

/** The source event already stored under this dedup key. */
export async function sourceEventByKey(db: Db, workspaceId: string, key: string): Promise<SourceEventRow | undefined> {
  const [seen]: SourceEventRow[] = await db`
    SELECT * FROM source_events WHERE workspace_id = ${workspaceId} AND dedup_key = ${key}`;
  return seen;
}

interface NewSourceEvent {
  readonly workspaceId: string;
  readonly dedupKey: string;
  readonly sourceType: string;
  readonly sourceRef: string;
  readonly kind: string;
  readonly stream: string | null;
  readonly author: string | null;
  readonly authorTrusted: boolean;
  readonly memberId: string | null;
  readonly content: string;
  readonly occurredAt: string;
  readonly taintReason: string | null;
  readonly classification: Level;
  readonly audiences: readonly string[];
  readonly fileId: string | null;
  readonly deliveryId: string | null;
}

/** A source event stored unless its dedup key is taken (then nothing comes back). */
export async function insertSourceEvent(db: Db, e: NewSourceEvent): Promise<SourceEventRow | undefined> {
  const [row]: SourceEventRow[] = await db`
    INSERT INTO source_events (workspace_id, dedup_key, source_type, source_ref, kind, stream, author, author_trusted,
                               member_id, content, occurred_at, tainted, taint_reason, classification, audiences,
                               file_id, delivery_id)
    VALUES (${e.workspaceId}, ${e.dedupKey}, ${e.sourceType}, ${e.sourceRef}, ${e.kind}, ${e.stream}, ${e.author},
            ${e.authorTrusted}, ${e.memberId}, ${e.content}, ${e.occurredAt}, ${e.taintReason !== null},
            ${e.taintReason}, ${e.classification}, ${e.audiences}, ${e.fileId}, ${e.deliveryId})
    ON CONFLICT (workspace_id, dedup_key) DO NOTHING
    RETURNING *`;
  return row;
}

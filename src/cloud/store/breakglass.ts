// Break-glass overrides as stored: one open at a time per workspace (an advisory lock in the opening transaction),
// each with the incident it opens and the conditions it suspends. Every read filters by the workspace.
import type { Db } from "./db.ts";

export interface GlassRow {
  id: string;
  reason: string;
  actions: string[];
  suspends: string[];
  opened_by: string;
  opened_at: Date;
  ends_at: Date;
  closed_by: string | null;
  closed_at: Date | null;
  incident_id: string;
}

/** Every override, newest first. */
export async function breakGlass(db: Db, workspaceId: string): Promise<GlassRow[]> {
  return db`
    SELECT * FROM break_glass WHERE workspace_id = ${workspaceId} ORDER BY opened_at DESC LIMIT 100`;
}

/**
 * Takes the workspace's break-glass lock for the caller's transaction and answers the override already open, if one
 * is: a second while one is open would extend it without a new incident.
 */
export async function lockOpen(tx: Db, workspaceId: string): Promise<{ id: string } | undefined> {
  await tx`SELECT pg_advisory_xact_lock(hashtext(${`break-glass:${workspaceId}`}))`;
  const [already]: { id: string }[] = await tx`
      SELECT id FROM break_glass WHERE workspace_id = ${workspaceId} AND closed_at IS NULL AND ends_at > now()`;
  return already;
}

/** The conditions in force now, which an override suspends. */
export async function conditionsInForce(
  tx: Db,
  workspaceId: string,
): Promise<{ id: string; kind: string; subject: string }[]> {
  return tx`
      SELECT id, kind, subject FROM conditions
      WHERE workspace_id = ${workspaceId} AND lifted_at IS NULL AND expires_at > now() ORDER BY set_at, id`;
}

interface NewGlass {
  readonly id: string;
  readonly workspaceId: string;
  readonly incident: string;
  readonly title: string;
  readonly reason: string;
  readonly actions: readonly string[];
  readonly suspends: readonly string[];
  readonly by: string;
  readonly ends: Date;
}

/** An override opened, with the incident that records it. */
export async function openBreakGlass(tx: Db, g: NewGlass): Promise<GlassRow | undefined> {
  await tx`INSERT INTO incidents (id, workspace_id, detector, title, session, machine_ids, evidence)
             VALUES (${g.incident}, ${g.workspaceId}, 'break-glass', ${g.title}, ${g.id}, '{}', '{}')`;
  const [row]: GlassRow[] = await tx`
      INSERT INTO break_glass (id, workspace_id, reason, actions, suspends, opened_by, ends_at, incident_id)
      VALUES (${g.id}, ${g.workspaceId}, ${g.reason}, ${g.actions}, ${g.suspends}, ${g.by}, ${g.ends}, ${g.incident})
      RETURNING *`;
  return row;
}

/** An open override closed early. */
export async function closeBreakGlass(
  tx: Db,
  workspaceId: string,
  id: string,
  by: string,
): Promise<GlassRow | undefined> {
  const [g]: GlassRow[] = await tx`
      UPDATE break_glass SET closed_by = ${by}, closed_at = now()
      WHERE id = ${id} AND workspace_id = ${workspaceId} AND closed_at IS NULL AND ends_at > now()
      RETURNING *`;
  return g;
}

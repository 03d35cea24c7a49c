// Where a workspace's caught verdicts are forwarded, as stored: sinks made, removed, listed, and how each delivery
// fared. Every read filters by the workspace.
import type { Db } from "./db.ts";

export interface SinkRow {
  id: string;
  kind: "webhook" | "syslog";
  target: string;
  verdicts: string[];
  created_by: string;
  created_at: Date;
  delivered: string;
  failed: string;
  last_delivery_at: Date | null;
  last_error: string | null;
}

/** The workspace's sinks not removed, oldest first. */
export async function sinks(db: Db, workspaceId: string): Promise<SinkRow[]> {
  return db`
    SELECT * FROM sinks WHERE workspace_id = ${workspaceId} AND removed_at IS NULL ORDER BY created_at`;
}

/** A sink made. */
export async function insertSink(
  db: Db,
  s: {
    readonly id: string;
    readonly workspaceId: string;
    readonly kind: string;
    readonly target: string;
    readonly verdicts: readonly string[];
    readonly by: string;
  },
): Promise<SinkRow | undefined> {
  const [row]: SinkRow[] = await db`
    INSERT INTO sinks (id, workspace_id, kind, target, verdicts, created_by)
    VALUES (${s.id}, ${s.workspaceId}, ${s.kind}, ${s.target}, ${s.verdicts}, ${s.by}) RETURNING *`;
  return row;
}

/** A sink removed (its record stays). */
export async function removeSink(db: Db, workspaceId: string, id: string): Promise<SinkRow | undefined> {
  const [s]: SinkRow[] = await db`
    UPDATE sinks SET removed_at = now() WHERE id = ${id} AND workspace_id = ${workspaceId}
      AND removed_at IS NULL RETURNING *`;
  return s;
}

/** The sinks a batch's caught verdicts go to (no order: they are delivered side by side). */
export async function liveSinks(db: Db, workspaceId: string): Promise<SinkRow[]> {
  return db`
    SELECT * FROM sinks WHERE workspace_id = ${workspaceId} AND removed_at IS NULL`;
}

/** Rows delivered to a sink. */
export async function noteDelivered(db: Db, id: string, n: number): Promise<void> {
  await db`UPDATE sinks SET delivered = delivered + ${n}, last_delivery_at = now() WHERE id = ${id}`;
}

/** Rows a sink failed to take, and why. */
export async function noteFailed(db: Db, id: string, n: number, why: string): Promise<void> {
  await db`UPDATE sinks SET failed = failed + ${n}, last_error = ${why} WHERE id = ${id}`;
}

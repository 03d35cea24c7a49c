// Incidents the detectors open, as stored: listed, counted by how they were resolved (a detector's precision), and
// acknowledged, resolved or contained under a lock. Every read filters by the workspace.
import type { Db } from "./db.ts";

export interface IncidentRow {
  id: string;
  detector: string;
  title: string;
  agent: string | null;
  session: string | null;
  machine_ids: string[];
  evidence: string[];
  opened_at: Date;
  acknowledged_by: string | null;
  acknowledged_at: Date | null;
  contained_by: string | null;
  contained_at: Date | null;
  resolved_by: string | null;
  resolved_at: Date | null;
  resolution: string | null;
  agents: string[];
  pattern: string | null;
  hops: unknown;
  proposal: unknown;
}

/** The workspace's incidents, open only unless `all`, newest first. */
export async function incidents(db: Db, workspaceId: string, all: boolean): Promise<IncidentRow[]> {
  return db`
    SELECT * FROM incidents WHERE workspace_id = ${workspaceId} ${all ? db`` : db`AND resolved_at IS NULL`}
    ORDER BY opened_at DESC, id LIMIT 200`;
}

/** Per detector, how many incidents were resolved as confirmed and as false alarms. */
export async function resolutionCounts(
  db: Db,
  workspaceId: string,
): Promise<{ detector: string; confirmed: string; false_alarm: string }[]> {
  return db`
    SELECT detector, count(*) FILTER (WHERE resolution = 'confirmed') AS confirmed,
           count(*) FILTER (WHERE resolution = 'false-alarm') AS false_alarm
    FROM incidents WHERE workspace_id = ${workspaceId} GROUP BY detector`;
}

/** One incident of the workspace, locked for the deciding transaction. */
export async function incidentForUpdate(db: Db, workspaceId: string, id: string): Promise<IncidentRow | undefined> {
  const [i]: IncidentRow[] = await db`
    SELECT * FROM incidents WHERE id = ${id} AND workspace_id = ${workspaceId} FOR UPDATE`;
  return i;
}

/** Somebody is looking at it (the first to say so stays). */
export async function acknowledge(tx: Db, id: string, by: string): Promise<IncidentRow | undefined> {
  const [r]: IncidentRow[] = await tx`
      UPDATE incidents SET acknowledged_by = coalesce(acknowledged_by, ${by}), acknowledged_at = coalesce(acknowledged_at, now())
      WHERE id = ${id} RETURNING *`;
  return r;
}

/** Resolved as confirmed or a false alarm (acknowledged too, if nobody had). */
export async function resolve(tx: Db, id: string, by: string, resolution: string): Promise<IncidentRow | undefined> {
  const [r]: IncidentRow[] = await tx`
      UPDATE incidents SET resolved_by = ${by}, resolved_at = now(), resolution = ${resolution},
                           acknowledged_by = coalesce(acknowledged_by, ${by}), acknowledged_at = coalesce(acknowledged_at, now())
      WHERE id = ${id} RETURNING *`;
  return r;
}

/** Contained (acknowledged too, if nobody had). */
export async function contain(tx: Db, id: string, by: string): Promise<IncidentRow | undefined> {
  const [r]: IncidentRow[] = await tx`
      UPDATE incidents SET contained_by = ${by}, contained_at = now(),
                           acknowledged_by = coalesce(acknowledged_by, ${by}), acknowledged_at = coalesce(acknowledged_at, now())
      WHERE id = ${id} RETURNING *`;
  return r;
}

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

/** Whether the open incident of this detector, session and agent already cites all it may. */
export async function refusalIncidentFull(
  db: Db,
  workspaceId: string,
  detector: string,
  agent: string | null,
  session: string,
  most: number,
): Promise<boolean> {
  const [full] = await db`
        SELECT 1 FROM incidents WHERE workspace_id = ${workspaceId} AND detector = ${detector}
          AND coalesce(session, '') = ${session} AND coalesce(agent, '') = ${agent ?? ""} AND resolved_at IS NULL
          AND cardinality(evidence) >= ${most}`;
  return full !== undefined;
}

/** A session's refused decisions within the window before its latest action, at most `limit`, in order. */
export async function recentRefusals(
  db: Db,
  workspaceId: string,
  agent: string | null,
  session: string,
  windowMin: number,
  limit: number,
): Promise<{ id: string; machine_id: string }[]> {
  return db`
        SELECT e.id, e.machine_id FROM events e
        WHERE e.workspace_id = ${workspaceId} AND e.effect = 'deny' AND e.agent_session_id = ${session}
          AND e.agent IS NOT DISTINCT FROM ${agent} AND e.subject_id = e.dedup_key
          AND e.occurred_at > (SELECT max(occurred_at) FROM events WHERE workspace_id = ${workspaceId}
                                 AND agent_session_id = ${session}) - make_interval(mins => ${windowMin})
        ORDER BY e.id LIMIT ${limit}`;
}

/** An incident a detector opens: its session (or lineage), the machines involved and the actions it cites. */
interface NewIncident {
  readonly id: string;
  readonly workspaceId: string;
  readonly detector: string;
  readonly title: string;
  readonly agent: string | null;
  readonly session: string;
  readonly machines: readonly string[];
  readonly ids: readonly number[];
}

interface NewRefusalIncident extends NewIncident {
  /** How many citations an incident keeps. */
  readonly keep: number;
}

/** Opens the session's incident, or adds to the open one its evidence and machines. */
export async function openRefusalIncident(db: Db, i: NewRefusalIncident): Promise<void> {
  await db`
        INSERT INTO incidents (id, workspace_id, detector, title, agent, session, machine_ids, evidence)
        VALUES (${i.id}, ${i.workspaceId}, ${i.detector},
                ${i.title}, ${i.agent}, ${i.session}, ${i.machines}, ${i.ids})
        ON CONFLICT (workspace_id, detector, coalesce(session, ''), coalesce(agent, '')) WHERE resolved_at IS NULL
        DO UPDATE SET
          evidence = ARRAY(SELECT DISTINCT x FROM unnest(incidents.evidence || EXCLUDED.evidence) x ORDER BY x
                           LIMIT ${i.keep}),
          machine_ids = ARRAY(SELECT DISTINCT x FROM unnest(incidents.machine_ids || EXCLUDED.machine_ids) x ORDER BY x)`;
}

/** A chain of actions: one correlation id carried across machines, or one session's uncorrelated recent actions. */
interface Lineage {
  readonly method: "propagated" | "inferred";
  readonly correlation: string;
  readonly stitchWindowMin: number;
}

function lineageWhere(db: Db, l: Lineage) {
  return l.method === "propagated"
    ? db`correlation_id = ${l.correlation}`
    : db`agent_session_id = ${l.correlation} AND correlation_id IS NULL
               AND occurred_at > now() - make_interval(mins => ${l.stitchWindowMin})`;
}

/** When a lineage's `read`-th decision happened: arrivals after it cannot change what the first `read` show. */
export async function lineageEdge(
  db: Db,
  workspaceId: string,
  l: Lineage,
  read: number,
): Promise<{ occurred_at: Date } | undefined> {
  const lineage = lineageWhere(db, l);
  const [edge]: { occurred_at: Date }[] = await db`
        SELECT occurred_at FROM events WHERE workspace_id = ${workspaceId} AND subject_id = dedup_key AND ${lineage}
        ORDER BY occurred_at, id OFFSET ${read - 1} LIMIT 1`;
  return edge;
}

export interface LineageRow {
  id: string;
  machine_id: string;
  agent: string | null;
  operation: string;
  resource_ref: string | null;
  effect: string | null;
  occurred_at: Date;
}

/** A lineage's first `read` decisions, in order. */
export async function lineage(db: Db, workspaceId: string, l: Lineage, read: number): Promise<LineageRow[]> {
  const where = lineageWhere(db, l);
  return db`
        SELECT id, machine_id, agent, operation, resource_ref, effect, occurred_at FROM events
        WHERE workspace_id = ${workspaceId} AND subject_id = dedup_key AND ${where}
        ORDER BY occurred_at, id LIMIT ${read}`;
}

interface NewChainIncident extends NewIncident {
  readonly agents: readonly string[];
  /** JSON text of the hops and of the proposed containment. */
  readonly hops: string;
  readonly proposal: string;
}

/** A privilege-escalation chain's incident, unless one is open for the lineage already. */
export async function openChainIncident(db: Db, i: NewChainIncident): Promise<void> {
  await db`
        INSERT INTO incidents (id, workspace_id, detector, title, agent, session, machine_ids, evidence, agents, pattern,
                               hops, proposal)
        VALUES (${i.id}, ${i.workspaceId}, ${i.detector},
                ${i.title}, ${i.agent}, ${i.session}, ${i.machines}, ${i.ids}, ${i.agents},
                'privilege_escalation', ${i.hops}::text::jsonb,
                ${i.proposal}::text::jsonb)
        ON CONFLICT (workspace_id, detector, coalesce(session, ''), coalesce(agent, '')) WHERE resolved_at IS NULL
        DO NOTHING`;
}

// The team graph's rows: nodes and edges upserted as the projection in intent/graph.ts computes them, and the reads it
// projects from. An edge's evidence only accumulates (to a bound), and a confirmed basis stays confirmed. Every
// statement filters by the workspace, except reads by a decision's own id.
import type { Level } from "../intent/clearance.ts";
import type { DecisionRow, SourceEventRow } from "../intent/rows.ts";
import type { Db } from "./db.ts";

export interface NodeRow {
  readonly id: string;
  readonly kind: string;
  readonly label: string;
  readonly sourceRef: string;
  readonly classification: Level | null;
  readonly audiences: readonly string[];
  readonly props: Readonly<Record<string, unknown>>;
}

/** A node written, or rewritten in place under the same id. */
export async function upsertNode(db: Db, workspaceId: string, n: NodeRow): Promise<void> {
  await db`INSERT INTO graph_nodes (workspace_id, id, kind, label, source_ref, classification, audiences, props)
           VALUES (${workspaceId}, ${n.id}, ${n.kind}, ${n.label}, ${n.sourceRef},
                   ${n.classification}, ${n.audiences}, ${n.props})
           ON CONFLICT (workspace_id, id) DO UPDATE SET label = EXCLUDED.label, source_ref = EXCLUDED.source_ref,
             classification = EXCLUDED.classification, audiences = EXCLUDED.audiences, props = EXCLUDED.props`;
}

/** An edge written; an existing one gains the evidence (sorted, at most `keep`) and keeps a confirmed basis. */
export async function upsertEdge(
  db: Db,
  workspaceId: string,
  e: {
    readonly from: string;
    readonly relation: string;
    readonly to: string;
    readonly evidence: readonly string[];
    readonly basis: string;
  },
  keep: number,
): Promise<void> {
  await db`INSERT INTO graph_edges (workspace_id, from_id, relation, to_id, evidence, basis)
           VALUES (${workspaceId}, ${e.from}, ${e.relation}, ${e.to}, ${e.evidence}, ${e.basis})
           ON CONFLICT (workspace_id, from_id, relation, to_id) DO UPDATE SET
             evidence = ARRAY(SELECT DISTINCT x FROM unnest(graph_edges.evidence || EXCLUDED.evidence) x ORDER BY x
                              LIMIT ${keep}),
             basis = CASE WHEN graph_edges.basis = 'confirmed' THEN 'confirmed' ELSE EXCLUDED.basis END`;
}

/** A system's node, written only the first time it is named. */
export async function insertSystemNode(
  db: Db,
  workspaceId: string,
  id: string,
  label: string,
  sourceRef: string,
): Promise<void> {
  await db`INSERT INTO graph_nodes (workspace_id, id, kind, label, source_ref)
           VALUES (${workspaceId}, ${id}, 'system', ${label}, ${sourceRef})
           ON CONFLICT (workspace_id, id) DO NOTHING`;
}

/** The accounts of the member holding this address, in the workspace. */
export async function accountsOf(
  db: Db,
  workspaceId: string,
  email: string,
): Promise<{ source_type: string; account: string }[]> {
  return db`
    SELECT a.source_type, a.account FROM person_accounts a JOIN members m ON m.id = a.member_id
    WHERE a.workspace_id = ${workspaceId} AND m.email = ${email} ORDER BY 1, 2`;
}

/** Every version of a decision node, in order. */
export async function versionsOf(db: Db, workspaceId: string, node: string): Promise<DecisionRow[]> {
  return db`
    SELECT * FROM decisions WHERE workspace_id = ${workspaceId} AND node_id = ${node} ORDER BY version`;
}

/** The workspace's source events with these ids, in order. */
export async function sourceEventsIn(db: Db, workspaceId: string, ids: readonly number[]): Promise<SourceEventRow[]> {
  return db`
    SELECT * FROM source_events WHERE workspace_id = ${workspaceId} AND id IN ${db(ids)} ORDER BY id`;
}

/** The node of the decision with this id. */
export async function decisionNode(db: Db, id: string): Promise<{ node_id: string } | undefined> {
  const [old]: { node_id: string }[] = await db`SELECT node_id FROM decisions WHERE id = ${id}`;
  return old;
}

/** Whether the workspace's graph holds this node. */
export async function nodeExists(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const [known] = await db`SELECT 1 FROM graph_nodes WHERE workspace_id = ${workspaceId} AND id = ${id}`;
  return known !== undefined;
}

/** The workspace's actions with these ids: who did them and what they reached. */
export async function actionsIn(
  db: Db,
  workspaceId: string,
  ids: readonly number[],
): Promise<{ id: string; agent: string | null; resource_ref: string | null }[]> {
  return db`SELECT id, agent, resource_ref FROM events WHERE workspace_id = ${workspaceId} AND id IN ${db(ids)}`;
}

/** The workspace's graph emptied, inside the rebuilding transaction. */
export async function clearGraph(tx: Db, workspaceId: string): Promise<void> {
  await tx`DELETE FROM graph_edges WHERE workspace_id = ${workspaceId}`;
  await tx`DELETE FROM graph_nodes WHERE workspace_id = ${workspaceId}`;
}

/** Every source event of the workspace, in order. */
export async function allSourceEvents(tx: Db, workspaceId: string): Promise<SourceEventRow[]> {
  return tx`
      SELECT * FROM source_events WHERE workspace_id = ${workspaceId} ORDER BY id`;
}

/** Every decision of the workspace, in the order approved. */
export async function allDecisions(tx: Db, workspaceId: string): Promise<DecisionRow[]> {
  return tx`
      SELECT * FROM decisions WHERE workspace_id = ${workspaceId} ORDER BY approved_at, id`;
}

export interface GraphIncidentRow {
  id: string;
  title: string;
  agent: string | null;
  agents: string[];
  evidence: string[];
}

/** Every incident of the workspace, in the order opened. */
export async function allIncidents(tx: Db, workspaceId: string): Promise<GraphIncidentRow[]> {
  return tx`
      SELECT id, title, agent, agents, evidence FROM incidents WHERE workspace_id = ${workspaceId} ORDER BY opened_at, id`;
}

/** How many nodes and edges the workspace's graph holds. */
export async function graphSize(tx: Db, workspaceId: string): Promise<{ nodes: string; edges: string } | undefined> {
  const [n]: { nodes: string; edges: string }[] = await tx`
      SELECT (SELECT count(*) FROM graph_nodes WHERE workspace_id = ${workspaceId}) AS nodes,
             (SELECT count(*) FROM graph_edges WHERE workspace_id = ${workspaceId}) AS edges`;
  return n;
}

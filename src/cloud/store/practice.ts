// What the fleet did against what was decided, as stored: the approvals and refusals patterns are read from, the
// candidates a pattern proposes, and the facts behind decay and drift. Every read filters by the workspace.
import type { Db } from "./db.ts";

export interface GrantRow {
  id: string;
  action: string;
  target: string | null;
  answered_by: string;
  rule_id: string | null;
  answered_at: Date;
}

/** A person's approvals within the window (not a machine's own), in order. */
export async function approvalsWithin(db: Db, workspaceId: string, days: number): Promise<GrantRow[]> {
  return db`
    SELECT id, action, target, answered_by, rule_id, answered_at FROM holds
    WHERE workspace_id = ${workspaceId} AND answer = 'grant' AND answered_by IS NOT NULL
      AND answered_at > now() - make_interval(days => ${days})
      AND answered_by NOT LIKE 'machine:%' ORDER BY answered_at, id`;
}

/** The refusals within the window: a pattern anybody refused is no pattern. */
export async function refusalsWithin(
  db: Db,
  workspaceId: string,
  days: number,
): Promise<{ action: string; target: string | null }[]> {
  return db`
    SELECT action, target FROM holds WHERE workspace_id = ${workspaceId} AND answer = 'deny'
      AND answered_at > now() - make_interval(days => ${days})`;
}

/** A pattern proposed as a candidate once (its key is unique); a row when it is new. */
export async function insertPatternCandidate(
  db: Db,
  k: {
    readonly id: string;
    readonly workspaceId: string;
    readonly statement: string;
    readonly rationale: string;
    readonly affects: readonly string[];
    readonly pattern: string;
    readonly key: string;
  },
): Promise<{ id: string }[]> {
  return db`
      INSERT INTO candidates (id, workspace_id, origin, statement, rationale, affects, pattern, pattern_key,
                              classification, tainted)
      VALUES (${k.id}, ${k.workspaceId}, 'pattern',
              ${k.statement},
              ${k.rationale},
              ${k.affects}, ${k.pattern}::text::jsonb, ${k.key}, 'internal', false)
      ON CONFLICT (workspace_id, pattern_key) WHERE pattern_key IS NOT NULL DO NOTHING RETURNING id`;
}

export interface DecayRow {
  id: string;
  node_id: string;
  statement: string;
  approved_by: string;
  approved_at: Date;
  owner_status: string | null;
  newest_evidence: Date | null;
  confirmed_at: Date | null;
  last_matched: Date | null;
}

/** Each decision in force with its owner's status and when its evidence, a confirmation and a match were last seen. */
export async function decayFacts(db: Db, workspaceId: string): Promise<DecayRow[]> {
  return db`
    SELECT d.id, d.node_id, d.statement, d.approved_by, d.approved_at, m.status AS owner_status,
           (SELECT max(occurred_at) FROM source_events s WHERE s.id = ANY (d.evidence)) AS newest_evidence,
           (SELECT max(confirmed_at) FROM decision_confirmations c WHERE c.decision_id = d.id) AS confirmed_at,
           (SELECT max(occurred_at) FROM events e WHERE e.workspace_id = d.workspace_id
              AND e.rule_id LIKE 'decision-' || substr(d.node_id, 10) || '-%') AS last_matched
    FROM decisions d LEFT JOIN members m ON m.id = d.approver_member_id
    WHERE d.workspace_id = ${workspaceId} AND d.superseded_by IS NULL ORDER BY d.approved_at, d.id`;
}

export interface DriftRow {
  id: string;
  statement: string;
  event: string | null;
  effect: string | null;
  operation: string | null;
  machine_id: string | null;
  occurred_at: Date | null;
}

/** Each decision in force with every action its rules matched, in order. */
export async function driftFacts(db: Db, workspaceId: string): Promise<DriftRow[]> {
  return db`
    SELECT d.id, d.statement, e.id AS event, e.effect, e.operation, e.machine_id, e.occurred_at
    FROM decisions d JOIN events e ON e.workspace_id = d.workspace_id
      AND e.rule_id LIKE 'decision-' || substr(d.node_id, 10) || '-%'
    WHERE d.workspace_id = ${workspaceId} AND d.superseded_by IS NULL ORDER BY d.id, e.id`;
}

// What the team intended, as stored: extraction runs, the candidates they propose, the decisions approved from them,
// and the reads that answer "why". Every read of a tenant's rows filters by its workspace.
import type { Level } from "../intent/clearance.ts";
import type { Candidate } from "../intent/extract.ts";
import type { CandidateRow, DecisionRow, SourceEventRow } from "../intent/rows.ts";
import type { Db } from "./db.ts";

/** The workspace's extraction ceiling with the organization's name and description, which the prompt names. */
export async function extractionSetting(
  db: Db,
  workspaceId: string,
): Promise<{ reads_up_to: Level; team: string; about: string | null } | undefined> {
  const [ws]: { reads_up_to: Level; team: string; about: string | null }[] = await db`
    SELECT w.extraction_reads_up_to AS reads_up_to, o.name AS team, o.about
    FROM workspaces w JOIN orgs o ON o.id = w.org_id WHERE w.id = ${workspaceId}`;
  return ws;
}

/** Where the last finished run stopped reading, so the next one starts after it. */
export async function lastExtractedThrough(db: Db, workspaceId: string): Promise<string | null | undefined> {
  const [last]: { through: string | null }[] = await db`
    SELECT max(window_through) AS through FROM extraction_runs WHERE workspace_id = ${workspaceId} AND status = 'done'`;
  return last?.through;
}

/** One run's window: the team's own events (never memnox's echo), oldest first, at most `limit`. */
export async function extractionWindow(
  db: Db,
  workspaceId: string,
  after: number,
  through: number,
  limit: number,
): Promise<SourceEventRow[]> {
  return db`
    SELECT * FROM source_events WHERE workspace_id = ${workspaceId} AND id > ${after} AND id <= ${through}
      AND source_type <> 'memnox' ORDER BY id LIMIT ${limit}`;
}

interface NewRun {
  readonly id: string;
  readonly workspaceId: string;
  readonly startedBy: string;
  readonly model: string;
  readonly readsUpTo: Level;
  readonly after: number;
  readonly through: number;
  readonly sent: number;
  readonly withheld: number;
}

/** A run recorded as running before the model is asked, so a crash leaves its trace. */
export async function insertExtractionRun(db: Db, r: NewRun): Promise<void> {
  await db`INSERT INTO extraction_runs (id, workspace_id, started_by, model, reads_up_to, window_after, window_through,
                                          sent, withheld, status)
             VALUES (${r.id}, ${r.workspaceId}, ${r.startedBy}, ${r.model}, ${r.readsUpTo}, ${r.after},
                     ${r.through}, ${r.sent}, ${r.withheld}, 'running')`;
}

/** A run that had nothing to send is done at once. */
export async function finishEmptyRun(db: Db, runId: string): Promise<void> {
  await db`UPDATE extraction_runs SET status = 'done' WHERE id = ${runId}`;
}

/** A run whose model call failed, with why. */
export async function failRun(db: Db, runId: string, why: string): Promise<void> {
  await db`UPDATE extraction_runs SET status = 'failed', failure = ${why} WHERE id = ${runId}`;
}

/** A run's outcome: what it proposed and dropped and the tokens it spent. */
export async function finishRun(
  db: Db,
  runId: string,
  r: {
    readonly proposed: number;
    readonly dropped: number;
    readonly inputTokens: number | null;
    readonly outputTokens: number | null;
  },
): Promise<void> {
  await db`UPDATE extraction_runs SET status = 'done', proposed = ${r.proposed}, dropped = ${r.dropped},
               input_tokens = ${r.inputTokens}, output_tokens = ${r.outputTokens} WHERE id = ${runId}`;
}

/** Statements already suggested by extraction or in force, so a re-read thread is not asked again. */
export async function knownStatements(db: Db, workspaceId: string): Promise<{ statement: string }[]> {
  return db`
    SELECT statement FROM candidates WHERE workspace_id = ${workspaceId} AND origin = 'extraction'
    UNION SELECT statement FROM decisions WHERE workspace_id = ${workspaceId} AND superseded_by IS NULL`;
}

/** A candidate as extraction read it, its text made storable, with where it goes. */
interface NewCandidate extends Candidate {
  readonly id: string;
  readonly workspaceId: string;
  readonly runId: string;
}

/** One candidate an extraction run proposes, its text already made storable by the caller. */
export async function insertExtractedCandidate(db: Db, k: NewCandidate): Promise<CandidateRow | undefined> {
  const [row]: CandidateRow[] = await db`
      INSERT INTO candidates (id, workspace_id, origin, run_id, statement, rationale, affects, evidence, classification,
                              audiences, tainted)
      VALUES (${k.id}, ${k.workspaceId}, 'extraction', ${k.runId}, ${k.statement},
              ${k.rationale}, ${[...k.affects]}, ${[...k.evidence]},
              ${k.classification}, ${[...k.audiences]}, ${k.tainted})
      RETURNING *`;
  return row;
}

/** The workspace's source events with these ids (non-numbers dropped), oldest first. */
export async function eventsById(
  db: Db,
  workspaceId: string,
  ids: readonly (string | number)[],
): Promise<SourceEventRow[]> {
  const list = ids.map(Number).filter((n) => Number.isSafeInteger(n));
  if (list.length === 0) return [];
  return db`SELECT * FROM source_events WHERE workspace_id = ${workspaceId} AND id IN ${db(list)} ORDER BY id`;
}

/** The review queue in one status, oldest first, at most 200. */
export async function candidatesIn(db: Db, workspaceId: string, status: string): Promise<CandidateRow[]> {
  return db`
    SELECT * FROM candidates WHERE workspace_id = ${workspaceId} AND status = ${status}
    ORDER BY proposed_at, id LIMIT 200`;
}

/** One candidate of the workspace. */
export async function candidateById(db: Db, workspaceId: string, id: string): Promise<CandidateRow | undefined> {
  const [k]: CandidateRow[] = await db`
    SELECT * FROM candidates WHERE workspace_id = ${workspaceId} AND id = ${id}`;
  return k;
}

/** The decision to supersede, locked for the approving transaction. */
export async function decisionForUpdate(tx: Db, workspaceId: string, id: string): Promise<DecisionRow | undefined> {
  const [old]: DecisionRow[] = await tx`
        SELECT * FROM decisions WHERE workspace_id = ${workspaceId} AND id = ${id} FOR UPDATE`;
  return old;
}

/** The highest version a decision node reached. */
export async function maxVersion(tx: Db, workspaceId: string, node: string): Promise<number | null | undefined> {
  const [n]: { v: number | null }[] = await tx`
          SELECT max(version) AS v FROM decisions WHERE workspace_id = ${workspaceId} AND node_id = ${node}`;
  return n?.v;
}

/** The highest version of a node and the id of its version in force, if one is. */
export async function nodeVersions(
  tx: Db,
  workspaceId: string,
  node: string,
): Promise<{ v: number | null; open: string | null } | undefined> {
  const [n]: { v: number | null; open: string | null }[] = await tx`
        SELECT max(version) AS v, max(id) FILTER (WHERE superseded_by IS NULL) AS open FROM decisions
        WHERE workspace_id = ${workspaceId} AND node_id = ${node}`;
  return n;
}

interface ApprovalEvent {
  readonly workspaceId: string;
  readonly dedupKey: string;
  readonly ref: string;
  readonly author: string;
  readonly memberId: string | null;
  readonly content: string;
  readonly at: string;
  readonly classification: Level;
  readonly audiences: readonly string[];
}

/** The approval as a source event of memnox's own, so the decision's provenance includes the person's yes. */
export async function insertApprovalEvent(tx: Db, e: ApprovalEvent): Promise<SourceEventRow | undefined> {
  const [approval]: SourceEventRow[] = await tx`
      INSERT INTO source_events (workspace_id, dedup_key, source_type, source_ref, kind, author, author_trusted,
                                 member_id, content, occurred_at, tainted, taint_reason, classification, audiences,
                                 classified_by)
      VALUES (${e.workspaceId}, ${e.dedupKey},
              'memnox', ${e.ref}, 'approval', ${e.author}, true, ${e.memberId},
              ${e.content}, ${e.at}, false, null, ${e.classification}, ${e.audiences},
              'inherited')
      RETURNING *`;
  return approval;
}

interface NewDecision {
  readonly id: string;
  readonly workspaceId: string;
  readonly node: string;
  readonly version: number;
  readonly statement: string;
  readonly terms: readonly string[];
  readonly effect: "ask" | "deny";
  readonly scope: string;
  readonly sourceType: string;
  readonly sourceRef: string;
  readonly evidence: readonly number[];
  readonly affects: readonly string[];
  readonly classification: Level;
  readonly audiences: readonly string[];
  readonly tainted: boolean;
  readonly approvedBy: string;
  readonly approverMemberId: string | null;
  readonly approvalEvent: string | number;
  readonly candidateId: string;
  readonly supersedes: string | null;
  readonly rulesJson: string;
  readonly boundTerms: readonly string[];
}

/** A decision approved from a candidate. */
export async function insertDecision(tx: Db, d: NewDecision): Promise<DecisionRow | undefined> {
  const [row]: DecisionRow[] = await tx`
      INSERT INTO decisions (id, workspace_id, node_id, version, statement, terms, effect, scope, project_id,
                             source_type, source_ref, evidence, affects, classification, audiences, tainted,
                             approved_by, approver_member_id, approval_event, candidate_id, supersedes, rules_json,
                             bound_terms)
      VALUES (${d.id}, ${d.workspaceId}, ${d.node}, ${d.version}, ${d.statement}, ${d.terms}, ${d.effect}, ${d.scope},
              'machine', ${d.sourceType}, ${d.sourceRef},
              ${d.evidence}, ${d.affects}, ${d.classification}, ${d.audiences}, ${d.tainted},
              ${d.approvedBy}, ${d.approverMemberId}, ${d.approvalEvent}, ${d.candidateId}, ${d.supersedes},
              ${d.rulesJson}, ${d.boundTerms})
      RETURNING *`;
  return row;
}

/** The old version points at the one that replaced it. */
export async function markSuperseded(tx: Db, id: string, by: string): Promise<void> {
  await tx`UPDATE decisions SET superseded_by = ${by} WHERE id = ${id}`;
}

/** A candidate approved as a decision, by the person named. */
export async function approveAsDecision(tx: Db, candidateId: string, by: string, decisionId: string): Promise<void> {
  await tx`UPDATE candidates SET status = 'approved', decided_by = ${by}, decided_at = now(),
               decision_id = ${decisionId} WHERE id = ${candidateId}`;
}

/** A pattern candidate approved as a rule proposal. */
export async function approveAsProposal(
  db: Db,
  candidateId: string,
  by: string,
  proposalId: string,
): Promise<CandidateRow | undefined> {
  const [row]: CandidateRow[] = await db`
    UPDATE candidates SET status = 'approved', decided_by = ${by}, decided_at = now(),
      proposal_id = ${proposalId} WHERE id = ${candidateId} RETURNING *`;
  return row;
}

/** The decisions in force. */
export async function decisionsInForce(db: Db, workspaceId: string): Promise<DecisionRow[]> {
  return db`
    SELECT * FROM decisions WHERE workspace_id = ${workspaceId} AND superseded_by IS NULL`;
}

/** Somebody read a decision again and it still holds. */
export async function confirmDecision(db: Db, id: string, by: string): Promise<void> {
  await db`INSERT INTO decision_confirmations (decision_id, confirmed_by) VALUES (${id}, ${by})`;
}

/** A pending candidate rejected (undefined when it was decided meanwhile). */
export async function rejectCandidate(
  db: Db,
  id: string,
  by: string,
  reason: string | null,
): Promise<CandidateRow | undefined> {
  const [row]: CandidateRow[] = await db`
    UPDATE candidates SET status = 'rejected', decided_by = ${by}, decided_at = now(), reason = ${reason}
    WHERE id = ${id} AND status = 'pending' RETURNING *`;
  return row;
}

/** The decisions, in force only unless `all`, in the order approved. */
export async function listDecisions(db: Db, workspaceId: string, all: boolean): Promise<DecisionRow[]> {
  return db`
    SELECT * FROM decisions WHERE workspace_id = ${workspaceId}
      ${all ? db`` : db`AND superseded_by IS NULL`} ORDER BY approved_at, id`;
}

/** Every version of every decision, by version, to draw each one's chain. */
export async function decisionChains(db: Db, workspaceId: string): Promise<DecisionRow[]> {
  return db`
    SELECT * FROM decisions WHERE workspace_id = ${workspaceId} ORDER BY version`;
}

/** A decision by id or node, its latest version. */
export async function latestDecision(db: Db, workspaceId: string, idOrNode: string): Promise<DecisionRow | undefined> {
  const [d]: DecisionRow[] = await db`
    SELECT * FROM decisions WHERE workspace_id = ${workspaceId} AND (id = ${idOrNode} OR node_id = ${idOrNode})
    ORDER BY version DESC LIMIT 1`;
  return d;
}

/** A decision node's latest version. */
export async function latestOfNode(db: Db, workspaceId: string, node: string): Promise<DecisionRow | undefined> {
  const [d]: DecisionRow[] = await db`
      SELECT * FROM decisions WHERE workspace_id = ${workspaceId} AND node_id = ${node}
      ORDER BY version DESC LIMIT 1`;
  return d;
}

/** How far extraction reads in this workspace. */
export async function setReadsUpTo(db: Db, workspaceId: string, level: Level): Promise<void> {
  await db`UPDATE workspaces SET extraction_reads_up_to = ${level} WHERE id = ${workspaceId}`;
}

export interface GraphNodeRow {
  id: string;
  kind: string;
  label: string;
  source_ref: string;
  classification: Level | null;
  audiences: string[];
  props: Record<string, unknown>;
}

export interface GraphEdgeRow {
  from_id: string;
  relation: string;
  to_id: string;
  evidence: string[];
  basis: string;
}

/** The team graph's nodes. */
export async function graphNodes(db: Db, workspaceId: string): Promise<GraphNodeRow[]> {
  return db`SELECT id, kind, label, source_ref, classification, audiences, props FROM graph_nodes
                   WHERE workspace_id = ${workspaceId} ORDER BY id`;
}

/** The team graph's edges. */
export async function graphEdges(db: Db, workspaceId: string): Promise<GraphEdgeRow[]> {
  return db`
    SELECT from_id, relation, to_id, evidence, basis FROM graph_edges WHERE workspace_id = ${workspaceId}
    ORDER BY from_id, relation, to_id`;
}

export interface ExtractionRunRow {
  id: string;
  started_by: string;
  started_at: Date;
  model: string;
  reads_up_to: string;
  window_after: string;
  window_through: string;
  sent: number;
  withheld: number;
  proposed: number;
  dropped: number;
  status: string;
  failure: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
}

/** The usage log: the last 200 runs, newest first. */
export async function extractionRuns(db: Db, workspaceId: string): Promise<ExtractionRunRow[]> {
  return db`SELECT * FROM extraction_runs WHERE workspace_id = ${workspaceId}
                   ORDER BY started_at DESC, id LIMIT 200`;
}

/** The model and reasoning the workspace chose for extraction, if it chose. */
export async function workspaceModel(
  db: Db,
  workspaceId: string,
): Promise<{ model: string | null; model_reasoning: string | null } | undefined> {
  const [w]: { model: string | null; model_reasoning: string | null }[] =
    await db`SELECT model, model_reasoning FROM workspaces WHERE id = ${workspaceId}`;
  return w;
}

/** The workspace's extraction model and reasoning. */
export async function setWorkspaceModel(db: Db, workspaceId: string, model: string, reasoning: string): Promise<void> {
  await db`UPDATE workspaces SET model = ${model}, model_reasoning = ${reasoning}
             WHERE id = ${workspaceId}`;
}

// The rows the decisions pipeline reads back, as PostgreSQL hands them over, and how each is shown.
import { iso } from "../iso.ts";
import type { Level } from "./clearance.ts";

export interface SourceEventRow {
  id: string;
  dedup_key: string;
  source_type: string;
  source_ref: string;
  kind: string;
  stream: string | null;
  author: string | null;
  author_trusted: boolean;
  member_id: string | null;
  content: string;
  occurred_at: Date;
  tainted: boolean;
  taint_reason: string | null;
  classification: Level | null;
  audiences: string[];
  classified_by: string;
  file_id: string | null;
  received_at: Date;
}

export function sourceEventView(r: SourceEventRow) {
  return {
    id: Number(r.id),
    sourceType: r.source_type,
    sourceRef: r.source_ref,
    kind: r.kind,
    stream: r.stream,
    author: r.author,
    authorTrusted: r.author_trusted,
    content: r.content,
    occurredAt: iso(r.occurred_at),
    tainted: r.tainted,
    ...(r.taint_reason ? { taintReason: r.taint_reason } : {}),
    classification: r.classification ?? "internal",
    audiences: r.audiences,
    classifiedBy: r.classified_by,
    fileId: r.file_id,
    receivedAt: iso(r.received_at),
  };
}

export type SourceEventView = ReturnType<typeof sourceEventView>;

export interface DecisionRow {
  id: string;
  node_id: string;
  version: number;
  statement: string;
  terms: string[];
  effect: "ask" | "deny";
  scope: string;
  project_id: string;
  source_type: string;
  source_ref: string;
  evidence: string[];
  affects: string[];
  classification: Level;
  audiences: string[];
  tainted: boolean;
  approved_by: string;
  approver_member_id: string;
  approved_at: Date;
  approval_event: string;
  candidate_id: string | null;
  supersedes: string | null;
  superseded_by: string | null;
}

export function decisionView(d: DecisionRow) {
  return {
    id: d.id,
    node: d.node_id,
    version: d.version,
    statement: d.statement,
    effect: d.effect,
    scope: d.scope,
    sourceType: d.source_type,
    sourceRef: d.source_ref,
    evidence: d.evidence.map(Number),
    affects: d.affects,
    classification: d.classification,
    audiences: d.audiences,
    tainted: d.tainted,
    approvedBy: d.approved_by,
    approvedAt: iso(d.approved_at),
    supersedes: d.supersedes,
    supersededBy: d.superseded_by,
    inForce: d.superseded_by === null,
  };
}

export type DecisionView = ReturnType<typeof decisionView>;

export interface CandidateRow {
  id: string;
  origin: "extraction" | "pattern";
  run_id: string | null;
  statement: string;
  rationale: string | null;
  affects: string[];
  evidence: string[];
  pattern: PatternEvidence | null;
  pattern_key: string | null;
  classification: Level;
  audiences: string[];
  tainted: boolean;
  proposed_at: Date;
  status: "pending" | "approved" | "rejected";
  decided_by: string | null;
  decided_at: Date | null;
  reason: string | null;
  decision_id: string | null;
  proposal_id: string | null;
}

/** What a pattern candidate is drawn from: the approvals that repeat, each a held call somebody granted. */
interface PatternEvidence {
  readonly action: string;
  readonly shape: string;
  readonly by: string;
  readonly holds: readonly string[];
  readonly count: number;
  readonly rule: Readonly<Record<string, unknown>>;
}

export function candidateView(c: CandidateRow) {
  return {
    id: c.id,
    origin: c.origin,
    runId: c.run_id,
    statement: c.statement,
    rationale: c.rationale,
    affects: c.affects,
    evidence: c.evidence.map(Number),
    pattern: c.pattern,
    classification: c.classification,
    audiences: c.audiences,
    tainted: c.tainted,
    proposedAt: iso(c.proposed_at),
    status: c.status,
    decidedBy: c.decided_by,
    decidedAt: iso(c.decided_at),
    reason: c.reason,
    decisionId: c.decision_id,
    proposalId: c.proposal_id,
  };
}

export type CandidateView = ReturnType<typeof candidateView>;

// The rule bundle in force for a workspace: the newest published rules plus the conditions in force, as the exact text
// of the two files a machine writes, and the hash of both.

import { type CompilableDecision, withDecisions, withRules } from "../intent/compile.ts";
import { iso } from "../iso.ts";
import { bundleHash, type ConditionFact, conditionsText } from "../protocol/bundle.ts";
import type { Db } from "./db.ts";

/** What no override reaches: an action that cannot be undone. */
export const IRREVERSIBLE = ["project.delete", "database.drop"] as const;

/** The condition ids an open break-glass suspends: left out of what machines are sent until it ends. */
async function suspendedConditions(db: Db, workspaceId: string): Promise<Set<string>> {
  const rows: { suspends: string[] }[] = await db`
    SELECT suspends FROM break_glass WHERE workspace_id = ${workspaceId} AND closed_at IS NULL AND ends_at > now()`;
  return new Set(rows.flatMap((r) => r.suspends));
}

/** While the glass is broken, the rules machines get also deny every irreversible action outright. */
function irreversibleRules(open: boolean): readonly object[] {
  if (!open) return [];
  return [
    {
      name: "break-glass-irreversible",
      description: "added while a break-glass is open: an override never covers an action that cannot be undone",
      match: { actions: [...IRREVERSIBLE] },
      decision: { effect: "deny", reason: "break-glass never covers an irreversible action" },
    },
  ];
}

interface BundleInForce {
  readonly hash: string;
  /** org.policies.json's text; empty when nothing was ever published (the machine then writes no rules file). */
  readonly rulesText: string;
  /** org-conditions.json's text. */
  readonly conditionsText: string;
  readonly published: {
    readonly id: number;
    readonly at: string | null;
    readonly by: string;
    readonly format: string;
    readonly source: string;
    readonly ruleCount: number;
  } | null;
  readonly facts: readonly ConditionFact[];
}

interface ConditionRow {
  id: string;
  kind: string;
  subject: string;
  reason: string | null;
  set_by: string;
  set_at: Date;
  expires_at: Date;
}

/** Conditions neither lifted nor expired, oldest first, as the facts a machine hands its engine. */
export async function conditionsInForce(db: Db, workspaceId: string): Promise<ConditionFact[]> {
  const rows: ConditionRow[] = await db`
    SELECT id, kind, subject, reason, set_by, set_at, expires_at FROM conditions
    WHERE workspace_id = ${workspaceId} AND lifted_at IS NULL AND expires_at > now()
    ORDER BY set_at, id`;
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    subject: r.subject,
    expiresAt: iso(r.expires_at) ?? "",
    by: r.set_by,
    setAt: iso(r.set_at) ?? "",
    ...(r.reason ? { reason: r.reason } : {}),
  }));
}

/** Halts and revocations have no end of their own: they hold until lifted (a halt) or for good (a revocation). */
const UNTIL_LIFTED = "9999-12-31T00:00:00.000Z";

/** Agents stopped on every machine: halted (until somebody lifts it) or revoked, as facts their gates refuse on. */
async function agentStops(db: Db, workspaceId: string): Promise<ConditionFact[]> {
  const rows: {
    name: string;
    halted_at: Date | null;
    halted_by: string | null;
    halt_reason: string | null;
    revoked_at: Date | null;
    revoked_by: string | null;
  }[] = await db`SELECT name, halted_at, halted_by, halt_reason, revoked_at, revoked_by FROM agents
                 WHERE workspace_id = ${workspaceId} AND (halted_at IS NOT NULL OR revoked_at IS NOT NULL)
                 ORDER BY name`;
  return rows.map((r) =>
    r.revoked_at
      ? {
          id: `revoke-agent:${r.name}`,
          kind: "revoke-agent",
          subject: r.name,
          expiresAt: UNTIL_LIFTED,
          by: r.revoked_by ?? "workspace",
          setAt: iso(r.revoked_at) ?? "",
        }
      : {
          id: `halt-agent:${r.name}`,
          kind: "halt-agent",
          subject: r.name,
          expiresAt: UNTIL_LIFTED,
          by: r.halted_by ?? "workspace",
          setAt: iso(r.halted_at) ?? "",
          ...(r.halt_reason ? { reason: r.halt_reason } : {}),
        },
  );
}

/** Decisions in force that bind machines: approved by a person, never restricted (restricted never reaches a machine). */
export async function decisionsInForce(
  db: Db,
  workspaceId: string,
): Promise<(CompilableDecision & { readonly rulesJson: string | null })[]> {
  const rows: {
    id: string;
    node_id: string;
    statement: string;
    terms: string[];
    effect: "ask" | "deny";
    approved_by: string;
    source_ref: string;
    classification: string;
    rules_json: string | null;
    bound_terms: string[] | null;
  }[] = await db`SELECT id, node_id, statement, terms, effect, approved_by, source_ref, classification, rules_json,
                        bound_terms FROM decisions
                 WHERE workspace_id = ${workspaceId} AND superseded_by IS NULL AND classification <> 'restricted'
                 ORDER BY approved_at, id`;
  return rows.map((r) => ({
    id: r.id,
    nodeId: r.node_id,
    statement: r.statement,
    terms: r.terms,
    effect: r.effect,
    approvedBy: r.approved_by,
    sourceRef: r.source_ref,
    quoted: r.classification === "public" || r.classification === "internal",
    boundTerms: r.bound_terms,
    rulesJson: r.rules_json,
  }));
}

export async function bundleInForce(db: Db, workspaceId: string): Promise<BundleInForce> {
  const [b]: {
    id: string;
    format: string;
    source: string;
    rules_json: string;
    rule_count: number;
    published_by: string;
    published_at: Date;
  }[] = await db`SELECT id, format, source, rules_json, rule_count, published_by, published_at FROM bundles
                 WHERE workspace_id = ${workspaceId} ORDER BY id DESC LIMIT 1`;
  // An open break-glass leaves out what it suspends, and adds the deny no override reaches.
  const suspended = await suspendedConditions(db, workspaceId);
  const conditions = (await conditionsInForce(db, workspaceId)).filter((f) => !suspended.has(f.id));
  const facts = [...conditions, ...(await agentStops(db, workspaceId))];
  const rulesText = withRules(
    withDecisions(b?.rules_json ?? "", await decisionsInForce(db, workspaceId)),
    irreversibleRules(suspended.size > 0),
  );
  const conditionsFile = conditionsText(facts);
  return {
    hash: bundleHash(rulesText, conditionsFile),
    rulesText,
    conditionsText: conditionsFile,
    published: b
      ? {
          id: Number(b.id),
          at: iso(b.published_at),
          by: b.published_by,
          format: b.format,
          source: b.source,
          ruleCount: b.rule_count,
        }
      : null,
    facts,
  };
}

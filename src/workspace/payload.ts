// What one ledger row becomes on the wire: the allow-list of fields, each copied by name. A field the ledger gains
// later does not travel because nobody wrote a line here for it; what could name a secret goes through the masker.
import type { SentEvent, SentHold } from "../cloud/protocol/sync.ts";
import { maskSecrets } from "../core/secrets.ts";
import type { LedgerRow } from "../ledger/row.ts";
import type { Hold } from "../state/pending.ts";

/** The kinds of row that are an action: what was decided, and how it ended. */
export const SENT_KINDS = ["decision", "outcome"] as const;

/** Credentials out of a path, a host or a reason: the one masker, as every row is masked when it is written. */
export function masked(text: string, max: number): string {
  return maskSecrets(text).slice(0, max);
}

export function sentEvent(row: LedgerRow): SentEvent {
  return {
    dedupKey: row.id,
    subjectId: row.kind === "decision" ? row.id : (row.parent ?? row.id),
    occurredAt: row.occurredAt,
    ...(row.agentSessionId !== undefined ? { agentSessionId: row.agentSessionId } : {}),
    ...(row.agent !== undefined ? { agent: masked(row.agent, 200) } : {}),
    surface: row.surface,
    operation: row.operation,
    ...(row.classes !== undefined ? { classes: row.classes } : {}),
    ...(row.effect !== undefined ? { effect: row.effect } : {}),
    ...(row.reason !== undefined ? { reason: masked(row.reason, 2000) } : {}),
    ...(row.ruleId !== undefined ? { ruleId: row.ruleId } : {}),
    ...(row.resourceRef !== undefined ? { resourceRef: masked(row.resourceRef, 600) } : {}),
    ...(row.argsDigest !== undefined ? { argsDigest: row.argsDigest } : {}),
    ...(row.exitCode !== undefined ? { exitCode: row.exitCode } : {}),
    ...(row.startedAt !== undefined ? { startedAt: row.startedAt } : {}),
    ...(row.policyHash !== undefined ? { policyHash: row.policyHash } : {}),
  };
}

/**
 * A held call as it travels up: what it is and why, never its arguments. Its target is what its decision row
 * recorded as the resource (`resourceRef`), which leaves out targets that are the call's own arguments.
 */
export function sentHold(h: Hold, resourceRef: string | undefined): SentHold {
  return {
    id: h.id,
    surface: h.surface,
    action: h.action,
    ...(resourceRef ? { target: masked(resourceRef, 600) } : {}),
    ...(h.agent !== undefined ? { agent: h.agent } : {}),
    ...(h.session !== undefined ? { session: h.session } : {}),
    reason: masked(h.reason, 2000),
    ...(h.rule ? { ruleId: h.rule.name } : {}),
    createdAt: h.createdAt,
    expiresAt: h.expiresAt,
  };
}

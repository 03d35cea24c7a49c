// What one ledger row becomes on the wire: the allow-list of fields, each copied by name. A field the ledger gains
// later does not travel because nobody wrote a line here for it; what could name a secret goes through the masker.
import type { SentEvent, SentHold } from "../cloud/protocol/sync.ts";
import { escapeControls } from "../cloud/protocol/text.ts";
import { maskSecrets } from "../core/secrets.ts";
import type { LedgerRow } from "../ledger/row.ts";
import type { Hold } from "../state/pending.ts";

/** The kinds of row that are an action: what was decided, and how it ended. */
export const SENT_KINDS = ["decision", "outcome"] as const;

/**
 * Credentials out of a path, a host or a reason (the one masker, as every row is masked when it is written), and any
 * control character written out, so a path holding a NUL still reaches the workspace instead of being refused there.
 */
export function masked(text: string, max: number, multiline = false): string {
  return escapeControls(maskSecrets(text), multiline).slice(0, max);
}

/** An identifier or a name as it travels: control characters written out, never cut in a way the server refuses. */
function plain(text: string, max: number): string {
  return escapeControls(text).slice(0, max);
}

export function sentEvent(row: LedgerRow): SentEvent {
  return {
    dedupKey: row.id,
    subjectId: row.kind === "decision" ? row.id : (row.parent ?? row.id),
    occurredAt: row.occurredAt,
    ...(row.agentSessionId ? { agentSessionId: plain(row.agentSessionId, 200) } : {}),
    ...(row.agent ? { agent: masked(row.agent, 200) } : {}),
    surface: row.surface,
    operation: masked(row.operation, 300),
    ...(row.classes !== undefined ? { classes: row.classes } : {}),
    ...(row.effect !== undefined ? { effect: row.effect } : {}),
    ...(row.reason !== undefined ? { reason: masked(row.reason, 2000, true) } : {}),
    ...(row.ruleId ? { ruleId: plain(row.ruleId, 300) } : {}),
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
export function sentHold(h: Hold, resourceRef: string | undefined, repository?: string): SentHold {
  return {
    id: h.id,
    surface: h.surface,
    action: masked(h.action, 300),
    ...(resourceRef ? { target: masked(resourceRef, 600) } : {}),
    ...(repository ? { repository: masked(repository, 600) } : {}),
    ...(h.agent ? { agent: masked(h.agent, 200) } : {}),
    ...(h.session ? { session: plain(h.session, 200) } : {}),
    reason: masked(h.reason, 2000, true),
    ...(h.rule ? { ruleId: plain(h.rule.name, 300) } : {}),
    createdAt: h.createdAt,
    expiresAt: h.expiresAt,
  };
}

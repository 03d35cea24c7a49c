// Whether a recorded verdict reproduces: the row replayed with its own timestamp and the rule set kept for it.
import { MemnoxError } from "../core/errors.ts";
import type { Reevaluate, Replayed } from "./reevaluate.ts";
import type { LedgerRow } from "./row.ts";
import type { Ledger } from "./store.ts";

interface Reproduction {
  readonly reproduces: boolean;
  readonly policyHash: string;
  readonly recorded: { effect: string | null; ruleId: string | null; reason: string | null };
  readonly replayed: { effect: string; ruleId: string | null; reason: string };
  /** What differs, in words; empty when it reproduces. */
  readonly differences: readonly string[];
}

export async function reproduce(ledger: Ledger, row: LedgerRow, evaluate: Reevaluate): Promise<Reproduction> {
  if (row.kind !== "decision" || !row.request)
    throw new MemnoxError("usage", `\`${row.id}\` is a ${row.kind} row with no recorded request to replay`);
  if (!row.policyHash)
    throw new MemnoxError("usage", `\`${row.id}\` names no rule set, so there is nothing to replay it against`);
  const ruleSet = ledger.ruleSet(row.policyHash);
  if (!ruleSet)
    throw new MemnoxError(
      "not_found",
      `the rule set ${row.policyHash.slice(0, 16)} that decided \`${row.id}\` was not kept in the ledger`,
      "rows written before rule sets were kept cannot be replayed",
    );
  return compareVerdict(row, await evaluate(row, ruleSet));
}

/** The verdict (what enforce would have applied) and the deciding rule must both match. */
export function compareVerdict(row: LedgerRow, got: Replayed): Reproduction {
  const effect = row.enforceEffect ?? row.effect ?? null;
  const ruleId = row.ruleId ?? null;
  const differences: string[] = [];
  if (got.effect !== effect) differences.push(`effect: recorded ${effect ?? "none"}, replayed ${got.effect}`);
  if ((got.ruleId ?? null) !== ruleId)
    differences.push(`rule: recorded ${ruleId ?? "none"}, replayed ${got.ruleId ?? "none"}`);
  return {
    reproduces: differences.length === 0,
    policyHash: row.policyHash ?? "",
    recorded: { effect, ruleId, reason: row.reason ?? null },
    replayed: { effect: got.effect, ruleId: got.ruleId ?? null, reason: got.reason },
    differences,
  };
}

export function reproductionLines(r: Reproduction): string[] {
  if (r.reproduces)
    return [
      `verify  reproduces: ${r.replayed.effect}${r.replayed.ruleId ? ` by ${r.replayed.ruleId}` : ""} under rule set ${r.policyHash.slice(0, 16)}`,
    ];
  return [
    `verify  DOES NOT reproduce under rule set ${r.policyHash.slice(0, 16)}`,
    ...r.differences.map((d) => `        ${d}`),
  ];
}

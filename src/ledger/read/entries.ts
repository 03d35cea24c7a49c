// A decision and what came of it are separate rows, often from separate processes; readers see them joined by parent.
import type { LedgerRow } from "../row.ts";

/** What finally happened to a decided action. */
export type Final = "proceeded" | "failed" | "blocked" | "held";

export interface Entry {
  readonly row: LedgerRow;
  /** The latest outcome row linked to this decision. */
  readonly outcome?: LedgerRow;
  /** The latest answer a person gave to this decision's ask. */
  readonly answer?: LedgerRow;
  readonly final?: Final;
}

/** Joins outcome and answer rows onto their decisions; a child whose decision is not in `rows` stands alone. */
export function joinEntries(rows: readonly LedgerRow[], children: readonly LedgerRow[] = []): Entry[] {
  const decisions = new Map<string, { outcome?: LedgerRow; answer?: LedgerRow }>();
  for (const r of rows) if (r.kind === "decision") decisions.set(r.id, {});
  const attached = new Set<string>();
  const seen = new Set<string>();
  for (const c of [...rows, ...children]) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    const slot = c.parent ? decisions.get(c.parent) : undefined;
    if (!slot) continue;
    if (c.kind === "outcome") slot.outcome = c;
    else if (c.kind === "answer") slot.answer = c;
    else continue;
    attached.add(c.id);
  }
  const out: Entry[] = [];
  for (const r of rows) {
    if (attached.has(r.id)) continue;
    const slot = decisions.get(r.id);
    if (!slot) {
      out.push({ row: r });
      continue;
    }
    out.push({
      row: r,
      ...(slot.outcome ? { outcome: slot.outcome } : {}),
      ...(slot.answer ? { answer: slot.answer } : {}),
      final: finalOf(r, slot.outcome, slot.answer),
    });
  }
  return out;
}

function finalOf(decision: LedgerRow, outcome?: LedgerRow, answer?: LedgerRow): Final {
  const ran = (): Final => (outcome?.exitCode !== undefined && outcome.exitCode !== 0 ? "failed" : "proceeded");
  if (decision.effect === "deny") return "blocked";
  if (decision.effect === "ask") {
    if (!answer) return outcome ? ran() : "held";
    return answer.effect === "allow" ? ran() : "blocked";
  }
  return ran();
}

/** The verdict: what enforce would have applied, which is also what was applied in enforce. */
export function verdictOf(row: LedgerRow): LedgerRow["effect"] {
  return row.enforceEffect ?? row.effect;
}

/** The JSON form of an entry: the row under sync names, plus what was joined onto it. */
export function entryJson(e: Entry): Record<string, unknown> {
  return {
    ...e.row,
    outcome: e.outcome ? childJson(e.outcome) : null,
    answer: e.answer ? childJson(e.answer) : null,
    final: e.final ?? null,
  };
}

function childJson(r: LedgerRow): Record<string, unknown> {
  return {
    id: r.id,
    seq: r.seq,
    kind: r.kind,
    occurredAt: r.occurredAt,
    ...(r.effect ? { effect: r.effect } : {}),
    ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
    ...(r.durationMs !== undefined ? { durationMs: r.durationMs } : {}),
    ...(r.startedAt ? { startedAt: r.startedAt } : {}),
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.detail ? { detail: r.detail } : {}),
  };
}

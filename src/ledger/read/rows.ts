// The rows other rooms ask the ledger for, one named question each, so the SQL stays in the ledger.
import type { LedgerRow } from "../row.ts";
import type { Ledger } from "../store.ts";

/** The row with this exact id, if the ledger still holds it. */
export function rowById(ledger: Ledger, id: string): LedgerRow | undefined {
  return ledger.select("SELECT * FROM events WHERE id = ?", id)[0];
}

/** Up to `limit` rows after sequence number `seq`, in chain order: what a sync sends next. */
export function rowsAfter(ledger: Ledger, seq: number, limit: number): LedgerRow[] {
  return ledger.select("SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?", seq, limit);
}

/** The settings changes recorded after sequence number `seq`, in chain order. */
export function configRowsAfter(ledger: Ledger, seq: number): LedgerRow[] {
  return ledger.select("SELECT * FROM events WHERE kind = 'config' AND seq > ? ORDER BY seq", seq);
}

/** Whether the agent named `agent` has a row at or after the instant `since` (ISO). */
export function agentActedSince(ledger: Ledger, agent: string, since: string): boolean {
  return (
    ledger.db.query("SELECT 1 FROM events WHERE agent = ? AND occurred_at >= ? LIMIT 1").get(agent, since) !== null
  );
}

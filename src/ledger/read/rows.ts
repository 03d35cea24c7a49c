// The rows other rooms ask the ledger for, one named question each, so the SQL stays in the ledger.
import type { Database } from "bun:sqlite";
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

/** The newest row that names both a session and an agent: the session `claims` looks at by default. */
export function latestAgentSessionRow(ledger: Ledger): LedgerRow | undefined {
  return ledger.select(
    "SELECT * FROM events WHERE session IS NOT NULL AND agent IS NOT NULL ORDER BY seq DESC LIMIT 1",
  )[0];
}

/** Every folder a row was recorded in (at most `limit` when given). */
export function recordedCwds(db: Database, limit?: number): string[] {
  const rows =
    limit === undefined
      ? db.query<{ cwd: string }, []>("SELECT DISTINCT cwd FROM events WHERE cwd IS NOT NULL").all()
      : db
          .query<{ cwd: string }, [number]>("SELECT cwd FROM events WHERE cwd IS NOT NULL GROUP BY cwd LIMIT ?")
          .all(limit);
  return rows.map((r) => r.cwd);
}

/** Whether any row was recorded in `root` or a folder under it. */
export function recordedUnder(db: Database, root: string): boolean {
  const like = `${root.replace(/[\\%_]/g, "\\$&")}/%`;
  return (
    db
      .query<{ x: number }, [string, string]>(
        "SELECT 1 AS x FROM events WHERE cwd = ? OR cwd LIKE ? ESCAPE '\\' LIMIT 1",
      )
      .get(root, like) !== null
  );
}

/** A call that went ahead: a decision that allowed, or a person's yes (`answer`) to one that asked. */
export interface ProceededRow {
  readonly id: string;
  readonly kind: string;
  readonly parent: string | null;
  readonly operation: string;
  readonly at: string;
  /** The budgets the decision said it spent, comma-separated. */
  readonly spends: string | null;
}

/** The calls that went ahead at or after `since` (ISO), oldest first: what budgets count. */
export function proceededSince(db: Database, since: string): ProceededRow[] {
  return db
    .query<ProceededRow, [string]>(
      `SELECT id, kind, parent, operation, occurred_at AS at, json_extract(detail, '$.budgets') AS spends
       FROM events WHERE occurred_at >= ? AND effect = 'allow' AND kind IN ('decision', 'answer')
       ORDER BY occurred_at`,
    )
    .all(since);
}

/** How long the outcomes of these calls ran together, in milliseconds. */
export function outcomeMs(db: Database, calls: readonly string[]): number {
  const r = db
    .query<{ ms: number | null }, [string]>(
      "SELECT sum(duration_ms) AS ms FROM events WHERE kind = 'outcome' AND parent IN (SELECT value FROM json_each(?))",
    )
    .get(JSON.stringify(calls));
  return r?.ms ?? 0;
}

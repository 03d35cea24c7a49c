// Which rows a reader asks for: a time window (`--since 1h|7d|<iso>`), a session, an id prefix, and their children.
import { parseDuration } from "../../core/duration.ts";
import { MemnoxError } from "../../core/errors.ts";
import type { LedgerRow } from "../row.ts";
import type { Ledger } from "../store.ts";

export interface Window {
  /** Inclusive lower bound, ISO; undefined = from the first row kept. */
  readonly since?: string;
  /** Exclusive upper bound, ISO; undefined = up to the tip. */
  readonly until?: string;
}

/** `1h`, `7d`, `90s`, an ISO date or instant, or `all`. */
export function parseInstant(text: string, nowMs: number, flag: string): string | undefined {
  const t = text.trim();
  if (t === "all") return undefined;
  if (/^\d+(\.\d+)?\s*[smhdw]$/.test(t)) return new Date(nowMs - parseDuration(t)).toISOString();
  if (/^\d{4}-\d{2}-\d{2}/.test(t)) {
    const ms = Date.parse(t);
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  throw new MemnoxError(
    "usage",
    `\`${text}\` is not a time for ${flag}`,
    "use a duration back from now (30m, 1h, 7d), an ISO date or instant, or `all`",
  );
}

export function windowFrom(nowMs: number, since: string | undefined, until?: string): Window {
  const s = since === undefined ? undefined : parseInstant(since, nowMs, "--since");
  const u = until === undefined ? undefined : parseInstant(until, nowMs, "--until");
  return { ...(s ? { since: s } : {}), ...(u ? { until: u } : {}) };
}

/** The chain segment from the first row at or after `since` to the last before `until`, in chain order. */
export function rowsIn(ledger: Ledger, w: Window): LedgerRow[] {
  const lo = w.since ? firstSeqFrom(ledger, w.since) : 0;
  const hi = w.until ? firstSeqFrom(ledger, w.until) - 1 : Number.MAX_SAFE_INTEGER;
  if (lo === Number.MAX_SAFE_INTEGER || hi < lo) return [];
  return ledger.select("SELECT * FROM events WHERE seq >= ? AND seq <= ? ORDER BY seq", lo, hi);
}

/** Sequence number of the earliest row at or after `iso` (one index probe), or MAX_SAFE_INTEGER when none. */
function firstSeqFrom(ledger: Ledger, iso: string): number {
  const r = ledger.db
    .query<{ seq: number }, [string]>("SELECT seq FROM events WHERE occurred_at >= ? ORDER BY occurred_at LIMIT 1")
    .get(iso);
  return r?.seq ?? Number.MAX_SAFE_INTEGER;
}

/** Rows that name one of `ids` as their parent (outcomes, answers), wherever they fall in time. */
export function childrenOf(ledger: Ledger, ids: readonly string[]): LedgerRow[] {
  if (ids.length === 0) return [];
  return ledger.select(
    "SELECT * FROM events WHERE parent IN (SELECT value FROM json_each(?)) ORDER BY seq",
    JSON.stringify(ids),
  );
}

export function sessionRows(ledger: Ledger, session: string): LedgerRow[] {
  return ledger.select("SELECT * FROM events WHERE session = ? ORDER BY seq", session);
}

/** The row whose id starts with `prefix`; an unknown or ambiguous prefix is an error saying which. */
export function rowByIdPrefix(ledger: Ledger, prefix: string): LedgerRow {
  const p = prefix.startsWith("evt_") ? prefix : `evt_${prefix}`;
  const rows = ledger.select("SELECT * FROM events WHERE id >= ? AND id < ? ORDER BY seq LIMIT 6", p, `${p}\u{10FFFF}`);
  const [row, ...more] = rows;
  if (!row) throw new MemnoxError("not_found", `no event \`${prefix}\` in the ledger`, "memnox timeline lists them");
  if (more.length > 0)
    throw new MemnoxError(
      "usage",
      `\`${prefix}\` matches ${rows.length > 5 ? "more than 5" : rows.length} events`,
      `give more of the id: ${rows
        .slice(0, 5)
        .map((r) => r.id)
        .join(", ")}`,
    );
  return row;
}

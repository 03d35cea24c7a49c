// What the chain alone cannot show: the tip kept outside the database against the chain's end, the rows in which an
// append or an open recorded tampering it found, and a database that is gone. `verify` and `doctor` read this.
import { existsSync } from "node:fs";
import type { Ledger } from "./store.ts";
import { tipMismatch } from "./store.ts";
import { type LedgerPaths, readTip, tipFiles } from "./tip.ts";

interface Tampering {
  readonly reason: string;
  /** The row that recorded it, when one did (an append or an open found it); absent for what is found now. */
  readonly seq?: number;
  readonly id?: string;
  readonly at?: string;
}

/** A session's record holds an attempt to mislead it: an after-tool event claiming a refused call ran. */
interface RecordFinding {
  readonly kind: "forged-outcome";
  readonly seq: number;
  readonly id: string;
  readonly at: string;
  /** The refusal the event claimed ran. */
  readonly refused?: string;
  readonly session?: string;
  readonly reason: string;
}

/** Every `memnox.forged-outcome` row: the chain holds them intact, and a person should still hear of them. */
export function recordFindings(ledger: Ledger): RecordFinding[] {
  return ledger.db
    .query<
      {
        seq: number;
        id: string;
        occurred_at: string;
        parent: string | null;
        session: string | null;
        reason: string | null;
      },
      []
    >(
      "SELECT seq, id, occurred_at, parent, session, reason FROM events WHERE kind = 'state' AND operation = 'memnox.forged-outcome' ORDER BY seq",
    )
    .all()
    .map((r) => ({
      kind: "forged-outcome" as const,
      seq: r.seq,
      id: r.id,
      at: r.occurred_at,
      ...(r.parent ? { refused: r.parent } : {}),
      ...(r.session ? { session: r.session } : {}),
      reason: r.reason ?? "an after-tool event claimed a refused call ran",
    }));
}

export function findingLines(f: readonly RecordFinding[]): string[] {
  return f.map(
    (x) =>
      `finding (row ${x.seq}, ${x.at}${x.session ? `, session ${x.session}` : ""}): forged outcome for ${x.refused ?? "a refused call"}: ${x.reason}`,
  );
}

interface OutsideReport {
  readonly tampered: readonly Tampering[];
  /** Facts worth saying that are not tampering (since which row the tip is kept outside). */
  readonly notes: readonly string[];
}

/**
 * The tip kept outside against the chain's end, read under the write lock so no append is half done, and every
 * row in which memnox recorded tampering it found.
 */
export function checkOutside(ledger: Ledger): OutsideReport {
  const now = ledger.db
    .transaction(() =>
      tipMismatch(ledger.db, ledger.tipFiles.tip, readTip(ledger.tipFiles), ledger.tip(), ledger.tipSince),
    )
    .immediate();
  const recorded = ledger.db
    .query<{ seq: number; id: string; occurred_at: string; operation: string; reason: string | null }, []>(
      "SELECT seq, id, occurred_at, operation, reason FROM events WHERE kind = 'state' AND operation IN ('memnox.ledger-tampered', 'memnox.ledger-tip') ORDER BY seq",
    )
    .all();
  const tampered: Tampering[] = recorded
    .filter((r) => r.operation === "memnox.ledger-tampered")
    .map((r) => ({ reason: r.reason ?? "tampering was found", seq: r.seq, id: r.id, at: r.occurred_at }));
  if (now) tampered.push({ reason: now });
  const notes = recorded.filter((r) => r.operation === "memnox.ledger-tip").map((r) => r.reason ?? "");
  return { tampered, notes };
}

/** With no database file: nothing recorded yet, or a ledger that was removed (its tip, or setup, says there was one). */
export function missingLedger(paths: LedgerPaths, setupAt: string | undefined): Tampering | undefined {
  if (existsSync(paths.db)) return undefined;
  const files = tipFiles(paths);
  const tip = readTip(files);
  if (tip.kind === "sealed")
    return {
      reason: `the ledger ${paths.db} is gone: its tip, kept outside it in ${files.tip}, names row ${tip.seq} (${tip.hash.slice(0, 16)})`,
    };
  if (tip.kind === "unsealed")
    return { reason: `the ledger ${paths.db} is gone, and the tip kept outside it cannot be trusted: ${tip.why}` };
  if (setupAt)
    return {
      reason: `memnox was set up here (${setupAt}), yet neither the ledger ${paths.db} nor its tip ${files.tip} remains: both were removed`,
    };
  return undefined;
}

export function tamperLines(t: readonly Tampering[]): string[] {
  return t.map((x) => `tampered${x.seq !== undefined ? ` (recorded at row ${x.seq}, ${x.at})` : ""}: ${x.reason}`);
}

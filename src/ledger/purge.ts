// Drops the prefix past retention: a signed anchor names the last dropped hash, then exactly that prefix goes.
import { type AnchorFacts, anchorDetail } from "./anchor.ts";
import { draftFrom } from "./normalize.ts";
import { dropNoticesThrough } from "./notices.ts";
import type { Signer } from "./sign.ts";
import type { Appended, Ledger } from "./store.ts";

export interface PurgePlan {
  readonly cutoff: string;
  readonly rows: number;
  readonly firstSeq: number | null;
  readonly throughSeq: number | null;
  /** When the oldest and newest dropped rows happened. */
  readonly from: string | null;
  readonly to: string | null;
}

interface PurgeResult extends PurgePlan {
  readonly anchors: readonly Appended[];
}

/** Rows per transaction, so an appending hook never waits long on a large first purge. */
const PURGE_BATCH = 20_000;

/** The longest prefix whose rows all happened before `cutoff`; nothing is changed. */
export function planPurge(ledger: Ledger, cutoff: string): PurgePlan {
  const q = (sql: string, ...p: (string | number)[]) =>
    ledger.db.query<{ v: number | null }, (string | number)[]>(sql).get(...p)?.v ?? null;
  const firstSeq = q("SELECT MIN(seq) AS v FROM events");
  const none: PurgePlan = { cutoff, rows: 0, firstSeq: null, throughSeq: null, from: null, to: null };
  if (firstSeq === null) return none;
  const firstRecent = q("SELECT seq AS v FROM events WHERE occurred_at >= ? ORDER BY seq LIMIT 1", cutoff);
  const throughSeq = firstRecent === null ? q("SELECT MAX(seq) AS v FROM events") : firstRecent - 1;
  if (throughSeq === null || throughSeq < firstSeq) return none;
  const span = ledger.db
    .query<{ n: number; lo: string; hi: string }, [number]>(
      "SELECT COUNT(*) AS n, MIN(occurred_at) AS lo, MAX(occurred_at) AS hi FROM events WHERE seq <= ?",
    )
    .get(throughSeq);
  return { cutoff, rows: span?.n ?? 0, firstSeq, throughSeq, from: span?.lo ?? null, to: span?.hi ?? null };
}

interface PurgeOptions {
  /** The instant the anchors are written at (the command's clock). */
  readonly now: string;
  readonly retentionDays: number;
  readonly batch?: number;
}

export function purge(ledger: Ledger, signer: Signer, cutoff: string, opts: PurgeOptions): PurgeResult {
  const plan = planPurge(ledger, cutoff);
  const anchors: Appended[] = [];
  if (plan.throughSeq === null) return { ...plan, anchors };
  const batch = Math.max(1, opts.batch ?? PURGE_BATCH);
  const through = plan.throughSeq;
  const step = (): Appended | undefined => {
    const first = ledger.db.query<{ seq: number }, []>("SELECT seq FROM events ORDER BY seq LIMIT 1").get();
    if (!first || first.seq > through) return undefined;
    const end = Math.min(through, first.seq + batch - 1);
    const last = ledger.db.query<{ hash: string }, [number]>("SELECT hash FROM events WHERE seq = ?").get(end);
    const count = ledger.db.query<{ n: number }, [number]>("SELECT COUNT(*) AS n FROM events WHERE seq <= ?").get(end);
    if (!last || !count) return undefined;
    const facts: AnchorFacts = {
      throughSeq: end,
      firstDroppedSeq: first.seq,
      droppedCount: count.n,
      lastDroppedHash: last.hash,
      cutoff,
    };
    const row = ledger.place(anchorDraft(facts, signer, opts), end);
    ledger.db.run("DELETE FROM events WHERE seq <= ?", [end]);
    dropNoticesThrough(ledger.db, end);
    return { id: row.id, seq: row.seq, hash: row.hash };
  };
  for (;;) {
    const done = ledger.write(step);
    if (!done) break;
    anchors.push(done);
  }
  return { ...plan, anchors };
}

function anchorDraft(facts: AnchorFacts, signer: Signer, opts: PurgeOptions) {
  return draftFrom({
    kind: "anchor",
    occurredAt: opts.now,
    surface: "cli",
    operation: "memnox.purge",
    reason: `${facts.droppedCount} row(s) older than ${opts.retentionDays} day(s) dropped; the chain continues from here`,
    detail: anchorDetail(facts, signer),
  });
}

// Walks rows in chain order: each hashes to itself, links to the one before, and starts at genesis or a signed anchor.
import { type AnchorFacts, anchorFacts, anchorSignatureValid } from "./anchor.ts";
import { canonical, GENESIS, sha256Hex } from "./canonical.ts";
import { isEventId } from "./normalize.ts";
import { CANONICAL_SQL, type DbRecord, FIELDS, hashedContent, rowFromDb } from "./row.ts";
import type { Ledger } from "./store.ts";

type Anchoring =
  | { readonly kind: "empty" }
  | { readonly kind: "genesis" }
  | {
      readonly kind: "anchor";
      /** The first row still kept, and the hash it links to. */
      readonly seq: number;
      readonly prevHash: string;
      readonly anchorId: string;
      readonly anchorSeq: number;
      /** Every row up to this sequence number was dropped by purges. */
      readonly droppedThroughSeq: number;
      readonly cutoff: string;
      readonly purgedAt: string;
      readonly publicKey: string;
      readonly signedByThisMachine: boolean | null;
    }
  /** An export that starts where its range starts: it vouches for its rows, not for what came before. */
  | { readonly kind: "range"; readonly seq: number; readonly prevHash: string };

interface Broken {
  readonly seq: number;
  readonly id: string;
  readonly reason: string;
}

export interface ChainReport {
  readonly chain: "intact" | "broken";
  readonly rows: number;
  readonly firstSeq: number | null;
  readonly lastSeq: number | null;
  readonly tipHash: string | null;
  readonly anchoredOn: Anchoring;
  readonly broken: Broken | null;
  /** Places a filtered export skips rows, where links cannot be checked. */
  readonly gaps: number;
  readonly complete: boolean;
}

type Row = Readonly<Record<string, unknown>>;

/** A row as the walk sees it: the fields it links and checks, and the hash its content actually has. */
interface Walked {
  readonly seq: unknown;
  readonly id: unknown;
  readonly kind: unknown;
  readonly prevHash: unknown;
  readonly hash: unknown;
  readonly detail?: unknown;
  readonly contentHash: string;
}

/** A parsed row (an export line, a LedgerRow): its content hash recomputed from the object. */
function walkable(row: object): Walked {
  const r = row as Row;
  return { ...pick(r), contentHash: contentHashOf(r) };
}

function contentHashOf(r: Row): string {
  return sha256Hex(canonical(hashedContent(r)));
}

/** A streamed record: its canonical text as SQLite built it (CANONICAL_SQL), and what the walk links and checks. */
interface Streamed {
  readonly seq: number;
  readonly id: unknown;
  readonly kind: unknown;
  readonly prev_hash: unknown;
  readonly hash: unknown;
  readonly detail: unknown;
  readonly canon: string;
}

/** Its content hash from the text SQLite built; a row whose text does not hash right is hashed as readers read it. */
function walkableFromDb(rec: Streamed, columns: (seq: number) => DbRecord | null): Walked {
  let contentHash = sha256Hex(rec.canon);
  if (contentHash !== rec.hash) contentHash = readersHash(columns(rec.seq));
  return {
    seq: rec.seq,
    id: rec.id,
    kind: rec.kind,
    prevHash: rec.prev_hash,
    hash: rec.hash,
    detail: rec.kind === "anchor" ? parsed(rec.detail) : undefined,
    contentHash,
  };
}

/**
 * The reference: the row exactly as rowFromDb gives it to every reader, hashed. A JSON column that does not parse
 * fails here, so text spliced into one to stand in for a column set NULL cannot rebuild the original bytes.
 */
function readersHash(cols: DbRecord | null): string {
  try {
    return cols ? contentHashOf(rowFromDb(cols) as unknown as Row) : "";
  } catch {
    return "";
  }
}

function parsed(text: unknown): unknown {
  try {
    return typeof text === "string" ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function pick(r: Row): Omit<Walked, "contentHash"> {
  return {
    seq: r.seq,
    id: r.id,
    kind: r.kind,
    prevHash: r.prevHash,
    hash: r.hash,
    detail: r.detail,
  };
}
type Anchor = AnchorFacts & { signature: string; publicKey: string; id: string; seq: number; occurredAt: string };

interface WalkOptions {
  /** A database must start at genesis or at an anchor; an export may start anywhere. */
  readonly source: "ledger" | "export";
  /** Anchors present in the source, found before the walk because they sit after the rows they replace. */
  readonly anchors: readonly object[];
  /** A filtered export leaves holes in the sequence; anywhere else a hole is a break. */
  readonly gapsAllowed: boolean;
  /** This machine's public key, to say whether an anchor was signed here. */
  readonly thisMachineKey?: string | undefined;
}

function verifyRows(rows: Iterable<Walked>, opts: WalkOptions): ChainReport {
  const anchors = collectAnchors(opts.anchors);
  let count = 0;
  let gaps = 0;
  let first: Walked | undefined;
  let prev: Walked | undefined;
  let anchoredOn: Anchoring = { kind: "empty" };
  const result = (broken: Broken | null): ChainReport => ({
    chain: broken ? "broken" : "intact",
    rows: count,
    firstSeq: first ? num(first.seq) : null,
    lastSeq: prev ? num(prev.seq) : null,
    tipHash: prev ? str(prev.hash) : null,
    anchoredOn,
    broken,
    gaps,
    complete: true,
  });
  for (const row of rows) {
    const at = (reason: string): Broken => ({ seq: num(row.seq), id: str(row.id), reason });
    const own = selfCheck(row);
    if (own) return result(at(own));
    if (!prev) {
      first = row;
      const start = startOf(row, anchors, opts);
      if (typeof start === "string") return result(at(start));
      anchoredOn = start;
    } else {
      const gap = num(row.seq) - num(prev.seq) - 1;
      if (gap < 0) return result(at(`its sequence number does not follow row ${num(prev.seq)}`));
      if (gap > 0 && !opts.gapsAllowed)
        return result(at(`rows ${num(prev.seq) + 1}..${num(row.seq) - 1} before it are missing`));
      if (gap > 0) gaps += 1;
      else if (row.prevHash !== prev.hash)
        return result(at(`it does not link to row ${num(prev.seq)}: prevHash differs from that row's hash`));
    }
    if (row.kind === "anchor") {
      const a = anchorFacts(row.detail);
      if (!a) return result(at("it is an anchor without the facts an anchor carries"));
      if (!anchorSignatureValid(a)) return result(at("its anchor signature does not verify"));
    }
    count += 1;
    prev = row;
  }
  return result(null);
}

function selfCheck(row: Walked): string | undefined {
  if (typeof row.seq !== "number" || typeof row.hash !== "string" || typeof row.prevHash !== "string")
    return "it lacks seq, hash or prevHash";
  if (typeof row.id !== "string" || !isEventId(row.id)) return "its id is not an event id";
  if (row.contentHash !== row.hash) return "its content does not match its hash: it was changed";
  return undefined;
}

function startOf(row: Walked, anchors: Map<number, Anchor>, opts: WalkOptions): Anchoring | string {
  const seq = num(row.seq);
  const prevHash = str(row.prevHash);
  if (prevHash === GENESIS) return seq === 1 ? { kind: "genesis" } : "it claims to start the chain but is not row 1";
  const a = anchors.get(seq - 1);
  if (a && a.lastDroppedHash === prevHash) {
    if (!anchorSignatureValid(a)) return `the anchor ${a.id} that names it has a signature that does not verify`;
    return {
      kind: "anchor",
      seq,
      prevHash,
      anchorId: a.id,
      anchorSeq: a.seq,
      droppedThroughSeq: a.throughSeq,
      cutoff: a.cutoff,
      purgedAt: a.occurredAt,
      publicKey: a.publicKey,
      signedByThisMachine: opts.thisMachineKey === undefined ? null : opts.thisMachineKey === a.publicKey,
    };
  }
  if (opts.source === "export") return { kind: "range", seq, prevHash };
  return "it links to a row that is gone, and no purge anchor names that row";
}

function collectAnchors(rows: readonly object[]): Map<number, Anchor> {
  const out = new Map<number, Anchor>();
  for (const item of rows) {
    const r = item as Row;
    const f = anchorFacts(r.detail);
    if (f) out.set(f.throughSeq, { ...f, id: str(r.id), seq: num(r.seq), occurredAt: str(r.occurredAt) });
  }
  return out;
}

const num = (v: unknown): number => (typeof v === "number" ? v : Number.NaN);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Every column a row's hash covers, and the hash: what a row whose SQL-built text does not hash right is read as. */
const HASHED_COLUMNS = FIELDS.map(([, column]) => column).join(", ");

/** The rows in chain order, one string each: building 32 JS values a row was what capped `verify`. */
const STREAM = `SELECT seq, id, kind, prev_hash, hash, CASE WHEN kind = 'anchor' THEN detail END AS detail,
  ${CANONICAL_SQL} AS canon FROM events ORDER BY seq`;

/** The whole database, in chain order. */
export function verifyLedger(ledger: Ledger, thisMachineKey?: string): ChainReport {
  // Ordered by seq alone, SQLite scanned every row to find the few anchors; this order keeps to their index.
  const anchors = ledger.db
    .query<{ seq: number; id: string; occurred_at: string; detail: unknown }, []>(
      "SELECT seq, id, occurred_at, detail FROM events WHERE anchor_through IS NOT NULL ORDER BY anchor_through, seq",
    )
    .all()
    // A detail that does not parse is an anchor without its facts, never a crash of the check.
    .map((r) => ({ seq: r.seq, id: r.id, occurredAt: r.occurred_at, detail: parsed(r.detail) }));
  const one = ledger.db.query<DbRecord, [number]>(`SELECT ${HASHED_COLUMNS} FROM events WHERE seq = ?`);
  const records = ledger.db.query<Streamed, []>(STREAM).iterate();
  return verifyRows(
    mapIter(records, (r) => walkableFromDb(r, (seq) => one.get(seq))),
    { source: "ledger", anchors, gapsAllowed: false, thisMachineKey },
  );
}

/** Every exported or parsed row, hashed from its object form. */
export function verifyObjects(rows: readonly object[], opts: WalkOptions): ChainReport {
  return verifyRows(mapIter(rows, walkable), opts);
}

function* mapIter<A, B>(items: Iterable<A>, f: (a: A) => B): Generator<B> {
  for (const a of items) yield f(a);
}

// The ledger on bun:sqlite: WAL, a busy timeout, and appends that read the tip and insert in one immediate transaction.
import { constants, Database, type Statement } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import type { EventInput } from "../core/event.ts";
import { canonical, GENESIS, sha256Hex } from "./canonical.ts";
import { type Draft, draftFrom } from "./normalize.ts";
import { indexNotices } from "./notices.ts";
import { type DbRecord, FIELDS, type LedgerRow, rowFromDb, rowToDb } from "./row.ts";
import { ensureSchema, inspectStructure, restoreTriggers, startTipAnchoring } from "./schema.ts";
import {
  type LedgerPaths,
  readTipFile,
  type TipFiles,
  type TipState,
  tipFiles,
  writeTip,
  writeTipText,
} from "./tip.ts";

export interface Appended {
  readonly id: string;
  readonly seq: number;
  readonly hash: string;
}

export interface Tip {
  readonly seq: number;
  readonly hash: string;
}

/** One file of a rule set, kept so a replay can recompile exactly what decided. */
export interface RuleSource {
  readonly path: string;
  readonly text: string;
  readonly hash: string;
  /** Why the file was loaded (machine, repository…), so a replay labels it the same way. */
  readonly origin?: string;
}

export interface RuleSetSources {
  readonly hash: string;
  readonly sources: readonly RuleSource[];
}

export interface Ledger extends Disposable {
  readonly path: string;
  readonly db: Database;
  /** Where the chain's tip is kept outside the database, and the key that seals it. */
  readonly tipFiles: TipFiles;
  /** The row from which the tip is kept outside (1 for a ledger made since), undefined before that began. */
  readonly tipSince: number | undefined;
  /** Appends one row to the chain; throws when it cannot be written (see recorder.ts for the never-throwing path). */
  append(input: EventInput): Appended;
  /**
   * Places one row after the tip, inside the caller's write transaction: first a row saying so if the tip kept
   * outside no longer matches the chain (rows gone, rewritten, tip removed), then the row, then the new tip.
   */
  place(draft: Draft, anchorThrough: number | null): LedgerRow;
  /** Runs `fn` in one immediate write transaction; the tip file is put back as it was if it does not commit. */
  write<T>(fn: () => T): T;
  /** Keeps a rule set by its hash; a hash already kept is left as it is. */
  putRuleSet(hash: string, sources: readonly RuleSource[]): void;
  ruleSet(hash: string): RuleSetSources | undefined;
  tip(): Tip | undefined;
  /** Rows for a query built by the readers (`sql` selects `*` from events). */
  select(sql: string, ...params: (string | number)[]): LedgerRow[];
  /** Every row in chain order, one at a time. */
  iterate(): IterableIterator<LedgerRow>;
  close(): void;
}

export interface OpenOptions {
  /** Milliseconds a writer waits for another process's transaction; a hook must not wait long. */
  readonly busyTimeoutMs?: number;
  /** WAL pages after which a commit also checkpoints (SQLite's 1000); 0 leaves checkpoints to the caller. */
  readonly walAutoCheckpoint?: number;
}

/** Opens (creating when absent) the ledger at `paths.db`, 0600, in WAL mode, schema and triggers checked. */
export function openLedger(paths: LedgerPaths, opts: OpenOptions = {}): Ledger {
  const path = paths.db;
  let db: Database;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Created 0600 before SQLite opens it; SQLite gives the -wal and -shm files the same mode. A reader that finds it
    // already so changes nothing on disk, so a watcher of ~/.memnox is not woken by every open.
    if (!existsSync(path)) closeSync(openSync(path, "a", 0o600));
    if ((statSync(path).mode & 0o777) !== 0o600) chmodSync(path, 0o600);
    db = new Database(path, { create: true, strict: true });
    db.run(`PRAGMA busy_timeout = ${Math.trunc(opts.busyTimeoutMs ?? 5000)}`);
    db.run("PRAGMA synchronous = NORMAL");
    if (opts.walAutoCheckpoint !== undefined)
      db.run(`PRAGMA wal_autocheckpoint = ${Math.trunc(opts.walAutoCheckpoint)}`);
    // WAL is recorded in the file itself: only a database this code has not yet set up needs switching.
    ensureSchema(db, path, () => db.run("PRAGMA journal_mode = WAL"));
    // A hook is often the last connection: keeping the WAL file spares the next one its creation and directory fsync.
    db.fileControl(constants.SQLITE_FCNTL_PERSIST_WAL, 1);
    db.run("PRAGMA journal_size_limit = 1048576");
  } catch (e) {
    if (e instanceof MemnoxError) throw e;
    throw new MemnoxError("io", `could not open the ledger \`${path}\`: ${(e as Error).message}`);
  }
  const ledger = ledgerOn(db, path, tipFiles(paths));
  try {
    repair(ledger);
  } catch {
    // Busy or read-only: the repair and its row wait for the next open, and this one still reads and appends.
  }
  return ledger;
}

/** Triggers somebody dropped are put back, and the chain says so; a ledger from before tips starts keeping one. */
function repair(ledger: Ledger & Internal): void {
  const found = inspectStructure(ledger.db);
  ledger.setTipSince(found.tipSince);
  if (found.missingTriggers.length === 0 && found.tipSince !== undefined) return;
  ledger.write(() => {
    const now = inspectStructure(ledger.db);
    ledger.setTipSince(now.tipSince);
    if (now.missingTriggers.length > 0) {
      restoreTriggers(ledger.db, now.missingTriggers);
      const reason = `the ledger's append-only trigger(s) ${now.missingTriggers.join(", ")} were gone (dropped outside memnox) and were put back: rows could be changed or deleted while they were missing`;
      ledger.place(stateDraft("memnox.ledger-tampered", reason, { found: "triggers-dropped" }), null);
    }
    if (now.tipSince === undefined) {
      const rows = ledger.tip();
      const since = startTipAnchoring(ledger.db);
      ledger.setTipSince(since);
      if (rows) {
        const reason = `the chain's tip is kept outside the database from row ${since} on; rows before it are vouched for by the chain alone`;
        ledger.place(stateDraft("memnox.ledger-tip", reason, { since }), null);
      }
    }
  });
}

interface Internal {
  setTipSince(since: number | undefined): void;
}

function stateDraft(operation: string, reason: string, detail: Record<string, string | number>): Draft {
  return draftFrom({
    kind: "state",
    occurredAt: new Date().toISOString(),
    surface: "cli",
    operation,
    reason,
    detail,
  });
}

function ledgerOn(db: Database, path: string, files: TipFiles): Ledger & Internal {
  // Statements are prepared on first use: a hook that appends one row prepares only what an append needs.
  const tipQ = () =>
    db.query<{ seq: number; hash: string }, []>("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").get() ??
    undefined;
  let insert: Statement | undefined;
  let tipSince: number | undefined = 1;
  // The tip file as it was before this transaction wrote one (null: there was none), put back if it does not commit.
  let unsettled: string | null | undefined;
  const place = (draft: Draft, anchorThrough: number | null): LedgerRow => {
    insert ??= insertStatement(db);
    let last = tipQ();
    const kept = readTipFile(files);
    if (unsettled === undefined) unsettled = kept.text;
    const broken = tipMismatch(db, files.tip, kept.state, last, tipSince);
    if (broken) {
      const row = chained({ ...evidence(broken), occurredAt: draft.occurredAt }, last);
      insert.run(...rowToDb(row), null);
      last = row;
    }
    const row = chained(draft, last);
    insert.run(...rowToDb(row), anchorThrough);
    indexNotices(db, row);
    try {
      writeTip(files, row);
    } catch {
      // A tip that could not be written stays behind the chain, which is never read as tampering; the next append
      // writes it. A row is never lost for its bookkeeping.
    }
    return row;
  };
  let appendTx: ((draft: Draft) => Appended) | undefined;
  const appendOnce = () => {
    const tx = db.transaction((draft: Draft): Appended => {
      const row = place(draft, null);
      return { id: row.id, seq: row.seq, hash: row.hash };
    });
    return (draft: Draft) => write(() => tx.immediate(draft));
  };
  /** Runs a write transaction; if it did not commit, the tip file it wrote is put back as it was. */
  const write = <T>(run: () => T): T => {
    unsettled = undefined;
    try {
      return run();
    } catch (e) {
      if (unsettled !== undefined) putBackTip(files, unsettled);
      throw e;
    } finally {
      unsettled = undefined;
    }
  };
  const ledger: Ledger & Internal = {
    path,
    db,
    tipFiles: files,
    get tipSince() {
      return tipSince;
    },
    setTipSince(since) {
      tipSince = since;
    },
    write: (fn) => write(() => db.transaction(fn).immediate()),
    append(input) {
      if (input.kind === "anchor") throw new MemnoxError("usage", "only a purge writes an anchor row");
      appendTx ??= appendOnce();
      return appendTx(draftFrom(input));
    },
    place,
    putRuleSet(hash, sources) {
      if (db.query("SELECT 1 FROM rule_sets WHERE hash = ?").get(hash)) return;
      db.query("INSERT OR IGNORE INTO rule_sets (hash, sources) VALUES (?, ?)").run(
        hash,
        JSON.stringify(
          sources.map((s) => ({ path: s.path, text: s.text, hash: s.hash, ...(s.origin ? { origin: s.origin } : {}) })),
        ),
      );
    },
    ruleSet(hash) {
      const r = db.query<{ sources: string }, [string]>("SELECT sources FROM rule_sets WHERE hash = ?").get(hash);
      return r ? { hash, sources: JSON.parse(r.sources) as RuleSource[] } : undefined;
    },
    tip: tipQ,
    select: (sql, ...params) =>
      db
        .query<DbRecord, (string | number)[]>(sql)
        .all(...params)
        .map(rowFromDb),
    *iterate() {
      for (const rec of db.query<DbRecord, []>("SELECT * FROM events ORDER BY seq").iterate()) yield rowFromDb(rec);
    },
    close: () => db.close(),
    [Symbol.dispose]: () => db.close(),
  };
  return ledger;
}

/** What no longer matches between the chain's end and the tip kept outside, in words; undefined when all is well. */
export function tipMismatch(
  db: Database,
  file: string,
  kept: TipState,
  last: Tip | undefined,
  since: number | undefined,
): string | undefined {
  if (kept.kind === "absent") {
    // Missing is only wrong once the tip was kept: a ledger from before that began, or one still empty, has none.
    if (!last || since === undefined || last.seq < since) return undefined;
    return `the chain's tip, kept outside the database in ${file}, is gone (the ledger ends at row ${last.seq})`;
  }
  if (kept.kind === "unsealed")
    return `the chain's tip kept outside the database (${file}) cannot be trusted: ${kept.why}`;
  if (!last)
    return `every row is gone: the ledger is empty, and its tip kept outside the database names row ${kept.seq}`;
  if (kept.seq > last.seq)
    return `rows ${last.seq + 1}..${kept.seq} are gone: the ledger ends at row ${last.seq}, and its tip kept outside the database names row ${kept.seq}`;
  const hash =
    kept.seq === last.seq
      ? last.hash
      : db.query<{ hash: string }, [number]>("SELECT hash FROM events WHERE seq = ?").get(kept.seq)?.hash;
  if (hash === undefined) return `row ${kept.seq}, which the tip kept outside the database names, is gone`;
  if (hash !== kept.hash)
    return `row ${kept.seq} is not the row its tip kept outside the database recorded: the chain was rewritten from there`;
  return undefined;
}

function evidence(reason: string): Draft {
  return stateDraft("memnox.ledger-tampered", reason, { found: "tip-mismatch" });
}

function putBackTip(files: TipFiles, text: string | null): void {
  try {
    if (text === null) rmSync(files.tip, { force: true });
    else writeTipText(files, text);
  } catch {
    // as when a tip cannot be written: the next append notices and says so
  }
}

/** The draft placed after `tip`: its sequence number, the previous hash, and its own hash over all of it. */
export function chained(draft: Draft, tip: Tip | undefined): LedgerRow {
  const content = { ...draft, seq: (tip?.seq ?? 0) + 1, prevHash: tip?.hash ?? GENESIS };
  return { ...content, hash: rowHash(content) };
}

export function rowHash(content: Readonly<Record<string, unknown>>): string {
  return sha256Hex(canonical(content));
}

/** INSERT of every column in FIELDS order plus anchor_through. */
export function insertStatement(db: Database): Statement {
  const cols = [...FIELDS.map(([, c]) => c), "anchor_through"];
  return db.query(`INSERT INTO events (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);
}

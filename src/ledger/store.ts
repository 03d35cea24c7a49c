// The ledger on bun:sqlite: WAL, a busy timeout, and appends that read the tip and insert in one immediate transaction.
import { constants, Database, type Statement } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import type { EventInput } from "../core/event.ts";
import type { Paths } from "../ports/paths.ts";
import { canonical, GENESIS, sha256Hex } from "./canonical.ts";
import { type Draft, draftFrom } from "./normalize.ts";
import { type DbRecord, FIELDS, type LedgerRow, rowFromDb, rowToDb } from "./row.ts";
import { ensureSchema } from "./schema.ts";

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
  /** Appends one row to the chain; throws when it cannot be written (see recorder.ts for the never-throwing path). */
  append(input: EventInput): Appended;
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

/** Opens (creating when absent) the ledger at `paths.db`, 0600, in WAL mode, schema checked. */
export function openLedger(paths: Pick<Paths, "db">, opts: OpenOptions = {}): Ledger {
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
  return ledgerOn(db, path);
}

function ledgerOn(db: Database, path: string): Ledger {
  // Statements are prepared on first use: a hook that appends one row prepares only what an append needs.
  const tipQ = () =>
    db.query<{ seq: number; hash: string }, []>("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").get() ??
    undefined;
  let appendTx: ((draft: Draft) => Appended) | undefined;
  const appendOnce = () => {
    const insert = insertStatement(db);
    const tx = db.transaction((draft: Draft): Appended => {
      const row = chained(draft, tipQ());
      insert.run(...rowToDb(row), null);
      return { id: row.id, seq: row.seq, hash: row.hash };
    });
    return (draft: Draft) => tx.immediate(draft);
  };
  const ledger: Ledger = {
    path,
    db,
    append(input) {
      if (input.kind === "anchor") throw new MemnoxError("usage", "only a purge writes an anchor row");
      appendTx ??= appendOnce();
      return appendTx(draftFrom(input));
    },
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

// The ledger's tables, its append-only triggers and the indexes the readers need; SQL that SQLite 3.39 understands.
import type { Database } from "bun:sqlite";
import { MemnoxError } from "../core/errors.ts";
import { NOTICES_DDL } from "./notices.ts";

/** PRAGMA user_version of the schema this code writes. */
export const SCHEMA_VERSION = 3;

/** What brings an older ledger up to SCHEMA_VERSION, by the version it is at; rows already written are untouched. */
const UPGRADES: Readonly<Record<number, string>> = {
  // 2: verdicts decided on a workspace bundle the workspace had not confirmed are marked stale.
  1: "ALTER TABLE events ADD COLUMN stale INTEGER;",
  // 3: the notice layer's index of what each agent did and what each session took or failed at (notices.ts).
  2: NOTICES_DDL,
};

/** The append-only triggers, by name: checked on every open and put back when missing. */
const TRIGGERS: Readonly<Record<string, string>> = {
  events_no_update: `CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN
  SELECT RAISE(ABORT, 'the memnox ledger is append-only: a row cannot be updated');
END;`,
  events_delete_only_anchored_prefix: `CREATE TRIGGER IF NOT EXISTS events_delete_only_anchored_prefix BEFORE DELETE ON events
WHEN OLD.seq > COALESCE((SELECT MAX(anchor_through) FROM events WHERE anchor_through IS NOT NULL), 0)
BEGIN
  SELECT RAISE(ABORT, 'the memnox ledger is append-only: only a prefix named by a purge anchor can be deleted');
END;`,
  rule_sets_no_update: `CREATE TRIGGER IF NOT EXISTS rule_sets_no_update BEFORE UPDATE ON rule_sets
BEGIN
  SELECT RAISE(ABORT, 'a kept rule set cannot be changed: it is addressed by its content');
END;`,
  rule_sets_no_delete: `CREATE TRIGGER IF NOT EXISTS rule_sets_no_delete BEFORE DELETE ON rule_sets
BEGIN
  SELECT RAISE(ABORT, 'a kept rule set cannot be deleted: ledger rows refer to it');
END;`,
};
const TRIGGER_NAMES = Object.keys(TRIGGERS);

const DDL = `
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  schema_version INTEGER NOT NULL,
  kind TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  session TEXT,
  agent TEXT,
  surface TEXT NOT NULL,
  operation TEXT NOT NULL,
  classes TEXT,
  resource_ref TEXT,
  effect TEXT,
  enforce_effect TEXT,
  mode TEXT,
  governed INTEGER,
  reason TEXT,
  rule_id TEXT,
  rule_file TEXT,
  rule_line INTEGER,
  alternative TEXT,
  args_digest TEXT,
  policy_hash TEXT,
  exit_code INTEGER,
  duration_ms INTEGER,
  started_at TEXT,
  cwd TEXT,
  parent TEXT,
  request TEXT,
  stale INTEGER,
  detail TEXT,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  anchor_through INTEGER
);
CREATE INDEX IF NOT EXISTS events_time ON events(occurred_at);
CREATE INDEX IF NOT EXISTS events_session ON events(session, seq);
CREATE INDEX IF NOT EXISTS events_parent ON events(parent);
CREATE INDEX IF NOT EXISTS events_anchor ON events(anchor_through) WHERE anchor_through IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_notable ON events(seq)
  WHERE kind = 'decision' AND (effect <> 'allow' OR enforce_effect <> 'allow');
CREATE TABLE IF NOT EXISTS rule_sets (
  hash TEXT PRIMARY KEY,
  sources TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ledger_tip (since_seq INTEGER NOT NULL);
INSERT INTO ledger_tip (since_seq) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM ledger_tip);
${NOTICES_DDL}
`;

/** Creates or checks the schema; true when it was already in place. A newer schema is refused rather than misread. */
export function ensureSchema(db: Database, path: string, beforeCreate: () => void): boolean {
  const current = userVersion(db);
  if (current === SCHEMA_VERSION) return true;
  if (current > SCHEMA_VERSION)
    throw new MemnoxError(
      "conflict",
      `the ledger \`${path}\` has schema version ${current}, newer than this memnox understands (${SCHEMA_VERSION})`,
      "update memnox",
    );
  if (current === 0) beforeCreate();
  db.transaction(() => {
    let at = userVersion(db);
    if (at === SCHEMA_VERSION) return;
    if (at === 0) {
      db.run(DDL);
      for (const sql of Object.values(TRIGGERS)) db.run(sql);
    } else
      for (; at < SCHEMA_VERSION; at++) {
        const step = UPGRADES[at];
        if (step) db.run(step);
      }
    db.run(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  }).immediate();
  return false;
}

function userVersion(db: Database): number {
  const row = db.query<{ user_version: number }, []>("PRAGMA user_version").get();
  return row?.user_version ?? 0;
}

/** What an open checks on an existing ledger: triggers somebody dropped, and since which row the tip is kept outside. */
interface Structure {
  readonly missingTriggers: readonly string[];
  /** Undefined for a ledger from before tips were kept outside the database (or whose record of it was dropped). */
  readonly tipSince: number | undefined;
}

export function inspectStructure(db: Database): Structure {
  const names = new Set(
    db
      .query<{ name: string }, []>(
        `SELECT name FROM sqlite_master WHERE name IN ('ledger_tip', ${TRIGGER_NAMES.map((n) => `'${n}'`).join(", ")})`,
      )
      .all()
      .map((r) => r.name),
  );
  const since = names.has("ledger_tip")
    ? (db.query<{ s: number | null }, []>("SELECT MIN(since_seq) AS s FROM ledger_tip").get()?.s ?? undefined)
    : undefined;
  return { missingTriggers: TRIGGER_NAMES.filter((n) => !names.has(n)), tipSince: since ?? undefined };
}

export function restoreTriggers(db: Database, names: readonly string[]): void {
  for (const n of names) {
    const sql = TRIGGERS[n];
    if (sql) db.run(sql);
  }
}

/** From the next row on, the tip is kept outside the database too. */
export function startTipAnchoring(db: Database): number {
  const next = (db.query<{ s: number | null }, []>("SELECT MAX(seq) AS s FROM events").get()?.s ?? 0) + 1;
  db.run("CREATE TABLE IF NOT EXISTS ledger_tip (since_seq INTEGER NOT NULL)");
  db.run("DELETE FROM ledger_tip");
  db.run("INSERT INTO ledger_tip (since_seq) VALUES (?)", [next]);
  return next;
}

import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, statSync } from "node:fs";
import { EVENT_SCHEMA_VERSION } from "../../src/core/event.ts";
import { GENESIS } from "../../src/ledger/canonical.ts";
import { SCHEMA_VERSION } from "../../src/ledger/schema.ts";
import { openLedger } from "../../src/ledger/store.ts";
import { verifyLedger } from "../../src/ledger/verify.ts";
import { decision, ledgerHome, outcome } from "./helpers.ts";

const h = ledgerHome();
afterAll(() => h[Symbol.dispose]());

describe("append", () => {
  test("returns evt_ id, sequence and hash; each row links to the one before and carries the schema version", () => {
    const a = h.ledger.append(decision());
    const b = h.ledger.append(outcome(a.id));
    expect(a.id).toMatch(/^evt_[0-9a-f]{16}$/);
    expect(b.seq).toBe(a.seq + 1);
    const rows = [...h.ledger.iterate()];
    expect(rows[0]?.prevHash).toBe(GENESIS);
    expect(rows[1]?.prevHash).toBe(a.hash);
    expect(rows[1]?.parent).toBe(a.id);
    for (const r of rows) expect(r.schemaVersion).toBe(EVENT_SCHEMA_VERSION);
    const raw = h.ledger.db.query<{ v: number }, []>("SELECT DISTINCT schema_version AS v FROM events").all();
    expect(raw).toEqual([{ v: 1 }]);
  });

  test("a writer may choose the id, so an outcome from another process can name its decision", () => {
    const r = h.ledger.append(decision({ id: "evt_tooluse_abc123" }));
    expect(r.id).toBe("evt_tooluse_abc123");
    expect(() => h.ledger.append(decision({ id: "evt_tooluse_abc123" }))).toThrow(/UNIQUE/);
    expect(() => h.ledger.append(decision({ id: "not-an-id" }))).toThrow(/field `id`/);
  });

  test("bad input names the field and never echoes its value", () => {
    expect(() => h.ledger.append(decision({ occurredAt: "yesterday-ish secret" }))).toThrow(
      /field `occurredAt` is not an ISO-8601 instant$/,
    );
    expect(() => h.ledger.append(decision({ effect: "block" as "deny" }))).toThrow(/field `effect`/);
  });

  test("only a purge writes an anchor row", () => {
    expect(() => h.ledger.append(decision({ kind: "anchor" }))).toThrow(/only a purge/);
  });

  test("the database file and its WAL are owner-only", () => {
    expect(statSync(h.paths.db).mode & 0o777).toBe(0o600);
    expect(statSync(`${h.paths.db}-wal`).mode & 0o777).toBe(0o600);
  });

  test("opening a ledger already owner-only touches nothing (a watcher of ~/.memnox is not woken); a loosened one is tightened", () => {
    const home = ledgerHome();
    try {
      home.ledger.append(decision());
      const before = statSync(home.paths.db).ctimeMs;
      Bun.sleepSync(20);
      openLedger(home.paths).close();
      expect(statSync(home.paths.db).ctimeMs).toBe(before);
      chmodSync(home.paths.db, 0o644);
      openLedger(home.paths).close();
      expect(statSync(home.paths.db).mode & 0o777).toBe(0o600);
    } finally {
      home[Symbol.dispose]();
    }
  });
});

describe("append-only, enforced by the database", () => {
  test("an UPDATE is refused by the trigger", () => {
    expect(() => h.ledger.db.run("UPDATE events SET effect = 'deny'")).toThrow(/append-only: a row cannot be updated/);
    const other = new Database(h.paths.db);
    expect(() => other.run("UPDATE events SET reason = 'rewritten' WHERE seq = 1")).toThrow(/append-only/);
    other.close();
  });

  test("a DELETE outside a purge anchor's prefix is refused", () => {
    expect(() => h.ledger.db.run("DELETE FROM events WHERE seq = 1")).toThrow(/only a prefix named by a purge anchor/);
  });

  test("rule sets are kept by hash, once, and cannot be changed or deleted", () => {
    const sources = [{ path: "/repo/memnox.policies.toml", text: "[[policies]]\nname = 'x'\n", hash: "f1" }];
    h.ledger.putRuleSet("rs1", sources);
    h.ledger.putRuleSet("rs1", [{ path: "/other", text: "changed", hash: "f2" }]);
    expect(h.ledger.ruleSet("rs1")).toEqual({ hash: "rs1", sources });
    expect(h.ledger.ruleSet("absent")).toBeUndefined();
    expect(() => h.ledger.db.run("UPDATE rule_sets SET sources = '[]'")).toThrow(/cannot be changed/);
    expect(() => h.ledger.db.run("DELETE FROM rule_sets")).toThrow(/cannot be deleted/);
  });
});

describe("schema", () => {
  test("WAL, a busy timeout, and the indexes the readers use", () => {
    const q = <T>(sql: string) => h.ledger.db.query<T, []>(sql).get();
    expect(q<{ journal_mode: string }>("PRAGMA journal_mode")?.journal_mode).toBe("wal");
    expect(q<{ timeout: number }>("PRAGMA busy_timeout")?.timeout).toBe(5000);
    const names = h.ledger.db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'events_%'")
      .all()
      .map((r) => r.name)
      .sort();
    expect(names).toEqual(["events_anchor", "events_notable", "events_parent", "events_session", "events_time"]);
    const plan = h.ledger.db
      .query<{ detail: string }, []>(
        "EXPLAIN QUERY PLAN SELECT seq FROM events WHERE occurred_at >= '2026' ORDER BY occurred_at LIMIT 1",
      )
      .all();
    expect(plan.map((p) => p.detail).join(" ")).toContain("events_time");
  });

  test("the WAL file outlives a writer that closes last, so the next short-lived writer does not recreate it", () => {
    const home = ledgerHome();
    try {
      home.ledger.append(decision());
      home.ledger.close();
      expect(existsSync(`${home.paths.db}-wal`)).toBe(true);
      const again = openLedger(home.paths);
      expect(again.db.query<{ n: number }, []>("SELECT count(*) AS n FROM events").get()?.n).toBe(1);
      again.close();
    } finally {
      home[Symbol.dispose]();
    }
  });

  test("a ledger from before the stale column is upgraded in place: its rows and chain stay, a stale row chains on", () => {
    using dir = ledgerHome();
    dir.ledger.append(decision());
    dir.ledger.db.run("ALTER TABLE events DROP COLUMN stale");
    dir.ledger.db.run("PRAGMA user_version = 1");
    dir.ledger.close();
    const again = openLedger(dir.paths);
    try {
      expect(again.db.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version).toBe(
        SCHEMA_VERSION,
      );
      again.append(decision({ stale: true }));
      const rows = [...again.iterate()];
      expect(rows.map((r) => r.stale ?? false)).toEqual([false, true]);
      expect(verifyLedger(again).chain).toBe("intact");
    } finally {
      again.close();
    }
  });

  test("a ledger written by a newer memnox is refused, not misread", () => {
    using dir = ledgerHome();
    dir.ledger.db.run(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    dir.ledger.close();
    expect(() => openLedger(dir.paths)).toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}, newer than this memnox understands`),
    );
  });
});

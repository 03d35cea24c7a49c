import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { canonical, sha256Hex } from "../../src/ledger/canonical.ts";
import { CANONICAL_SQL, type DbRecord, hashedContent, rowFromDb } from "../../src/ledger/row.ts";
import { verifyLedger } from "../../src/ledger/verify.ts";
import { at, decision, ledgerHome, outcome, request } from "./helpers.ts";

/** 60 rows, then the file opened behind the ledger's back with its triggers dropped, as an attacker would. */
function tampered() {
  const h = ledgerHome();
  for (let i = 0; i < 60; i++)
    h.ledger.append(decision({ occurredAt: at(i * 1000), effect: i % 7 === 0 ? "deny" : "allow" }));
  const raw = new Database(h.paths.db);
  raw.run("DROP TRIGGER events_no_update");
  raw.run("DROP TRIGGER events_delete_only_anchored_prefix");
  return { h, raw };
}

describe("verify", () => {
  test("an untouched chain is intact and anchored on its first row", () => {
    using h = ledgerHome();
    for (let i = 0; i < 10; i++) h.ledger.append(decision({ occurredAt: at(i) }));
    const r = verifyLedger(h.ledger);
    expect(r).toMatchObject({ chain: "intact", rows: 10, firstSeq: 1, lastSeq: 10, broken: null });
    expect(r.anchoredOn).toEqual({ kind: "genesis" });
    expect(r.tipHash).toBe(h.ledger.tip()?.hash ?? "");
  });

  test("an edited row is found at its own place", () => {
    const { h, raw } = tampered();
    using _ = h;
    raw.run("UPDATE events SET effect = 'allow' WHERE seq = 36");
    raw.close();
    const r = verifyLedger(h.ledger);
    expect(r.chain).toBe("broken");
    expect(r.broken?.seq).toBe(36);
    expect(r.broken?.reason).toContain("does not match its hash");
    expect(r.rows).toBe(35);
  });

  test("an edited row whose hash was recomputed breaks the link to the next row", () => {
    const { h, raw } = tampered();
    using _ = h;
    const rec = raw.query<Record<string, string | number | null>, []>("SELECT * FROM events WHERE seq = 20").get();
    if (!rec) throw new Error("row 20 missing");
    const { hash: _old, ...content } = { ...rowFromDb(rec), reason: "nothing to see" };
    raw.run("UPDATE events SET reason = ?, hash = ? WHERE seq = 20", ["nothing to see", sha256Hex(canonical(content))]);
    raw.close();
    const r = verifyLedger(h.ledger);
    expect(r.broken?.seq).toBe(21);
    expect(r.broken?.reason).toContain("does not link to row 20");
  });

  test("a row deleted from the middle is named by the gap it leaves", () => {
    const { h, raw } = tampered();
    using _ = h;
    raw.run("DELETE FROM events WHERE seq = 44");
    raw.close();
    const r = verifyLedger(h.ledger);
    expect(r.broken).toMatchObject({ seq: 45, reason: "rows 44..44 before it are missing" });
  });

  test("a deleted prefix with no anchor naming it is a break, not a quiet new start", () => {
    const { h, raw } = tampered();
    using _ = h;
    raw.run("DELETE FROM events WHERE seq <= 10");
    raw.close();
    const r = verifyLedger(h.ledger);
    expect(r.broken?.seq).toBe(11);
    expect(r.broken?.reason).toContain("no purge anchor names that row");
  });

  // Each kind of column, as SQLite stores it, changed behind the ledger's back: the row itself is found.
  type Param = string | number | Uint8Array | null;
  const edits: readonly (readonly [string, number, readonly (readonly [string, ...Param[]])[]])[] = [
    ["an integer column", 12, [["UPDATE events SET rule_line = 4 WHERE seq = 12"]]],
    ["an integer column turned to text", 12, [["UPDATE events SET rule_line = '3x' WHERE seq = 12"]]],
    ["a boolean column", 12, [["UPDATE events SET governed = 0 WHERE seq = 12"]]],
    ["a text column set to NULL", 12, [["UPDATE events SET reason = NULL WHERE seq = 12"]]],
    [
      "a text column given a BLOB",
      12,
      [["UPDATE events SET effect = ? WHERE seq = 12", new TextEncoder().encode("allow")]],
    ],
    [
      "a JSON column",
      12,
      [["UPDATE events SET request = ? WHERE seq = 12", canonical(request({ targets: ["prod"] }))]],
    ],
    ["a JSON column that does not parse", 12, [["UPDATE events SET request = '{' WHERE seq = 12"]]],
    ["the previous hash", 12, [["UPDATE events SET prev_hash = hash WHERE seq = 12"]]],
    // The hashed text stays byte for byte what it was, but a reader would see no cwd and a classes it cannot parse.
    [
      "a column set NULL with its text carried inside the JSON column before it",
      12,
      [[`UPDATE events SET classes = '["write"],"cwd":"/repo"', cwd = NULL WHERE seq = 12`]],
    ],
    // A row's place is part of what it hashes.
    [
      "the order of two rows",
      30,
      [
        ["UPDATE events SET seq = -1 WHERE seq = 30"],
        ["UPDATE events SET seq = 30 WHERE seq = 31"],
        ["UPDATE events SET seq = 31 WHERE seq = -1"],
      ],
    ],
  ];
  for (const [what, seq, statements] of edits)
    test(`${what} changed is found at its own row`, () => {
      const { h, raw } = tampered();
      using _ = h;
      for (const [sql, ...params] of statements) raw.run(sql, params);
      raw.close();
      const r = verifyLedger(h.ledger);
      expect(r.broken?.seq).toBe(seq);
      expect(r.broken?.reason).toContain("does not match its hash");
    });

  test("an anchor whose detail does not parse is a break, not a crash", () => {
    const { h, raw } = tampered();
    using _ = h;
    raw.run("UPDATE events SET anchor_through = 5, detail = 'not json' WHERE seq = 6");
    raw.run("DELETE FROM events WHERE seq <= 5");
    raw.close();
    const r = verifyLedger(h.ledger);
    expect(r.chain).toBe("broken");
  });

  test("rows whose text is unusual verify intact, and SQLite builds each one's hashed text exactly", () => {
    using h = ledgerHome();
    const odd = [
      'quote " and \\ backslash',
      "tab\t nl\n cr\r \u0001 \u001f \u007f",
      "é ü 中文 😀 \u2028 \u2029",
      "</script>",
    ];
    for (const [i, text] of odd.entries()) {
      const d = h.ledger.append(
        decision({
          occurredAt: at(i),
          reason: text,
          cwd: `/repo/${text}`,
          governed: i % 2 === 0,
          alternative: { command: text, reason: "use this" } as never,
          request: request({ targets: [text], facts: [text] as never }),
          detail: { note: text, n: i, ok: true, none: null, "10": "integer-like key", "2": "sorted as text" },
        }),
      );
      h.ledger.append(outcome(d.id, { occurredAt: at(i), exitCode: i, durationMs: 2 ** 40 + i }));
    }
    h.ledger.append(decision({ stale: true, effect: "deny", enforceEffect: "ask", mode: "observe" }));
    const rows = h.ledger.db
      .query<DbRecord & { canon: string }, []>(`SELECT ${CANONICAL_SQL} AS canon, * FROM events`)
      .all();
    expect(rows).toHaveLength(odd.length * 2 + 1);
    for (const rec of rows) {
      expect(rec.canon).toBe(canonical(hashedContent({ ...rowFromDb(rec) })));
      expect(sha256Hex(rec.canon)).toBe(String(rec.hash));
    }
    expect(verifyLedger(h.ledger)).toMatchObject({ chain: "intact", rows: rows.length });
  });

  test("a JSON column whose keys were reordered is checked as readers parse it: still intact", () => {
    const { h, raw } = tampered();
    using _ = h;
    // The same JSON with its keys out of order: SQLite's text differs, what every reader parses does not.
    const rec = raw.query<DbRecord, []>("SELECT request FROM events WHERE seq = 9").get();
    const req = JSON.parse(String(rec?.request)) as Record<string, unknown>;
    const reversed = Object.fromEntries(Object.entries(req).reverse());
    raw.run("UPDATE events SET request = ? WHERE seq = 9", [JSON.stringify(reversed)]);
    raw.close();
    expect(verifyLedger(h.ledger)).toMatchObject({ chain: "intact", rows: 60 });
  });
});

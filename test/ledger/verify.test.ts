import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { canonical, sha256Hex } from "../../src/ledger/canonical.ts";
import { rowFromDb } from "../../src/ledger/row.ts";
import { verifyLedger } from "../../src/ledger/verify.ts";
import { at, decision, ledgerHome } from "./helpers.ts";

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
});

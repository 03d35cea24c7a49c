// Tamper evidence: the chain's tip is kept outside the database, so what an agent could do to memnox.db with the
// real sqlite3 (drop the triggers, delete the newest rows or every row) or the shell (remove the file) is reported
// by `verify` (non-zero) and `doctor`, saying what is missing, and stays reported after later appends.

import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { checkOutside } from "../../src/ledger/integrity.ts";
import { openLedger } from "../../src/ledger/store.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import { run } from "../../src/seams/cli/index.ts";
import { type FakeHome, fakeHome, runBinary, testContext } from "../support/index.ts";
import { decision } from "./helpers.ts";

function home(rows: number): FakeHome & { paths: ReturnType<typeof memnoxPaths> } {
  const h = fakeHome();
  const paths = memnoxPaths(h.env());
  using ledger = openLedger(paths);
  for (let i = 0; i < rows; i++) ledger.append(decision({ occurredAt: new Date(Date.now() - 60_000).toISOString() }));
  return Object.assign(h, { paths });
}

/** As an agent would: the real sqlite3 on the real file, behind memnox's back. */
function sqlite3(db: string, sql: string): void {
  const r = Bun.spawnSync(["sqlite3", db, sql], { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`sqlite3: ${r.stderr.toString()}`);
}

async function cli(h: FakeHome, args: string[]): Promise<{ code: number; out: string; json: unknown }> {
  const { ctx, io } = testContext(h, { args: [...args, "--json"] });
  const code = await run(ctx);
  return { code, out: io.stdout(), json: JSON.parse(io.stdout()) };
}

interface Verified {
  chain: string;
  tampered: { reason: string; seq?: number }[];
}

async function verify(h: FakeHome): Promise<{ code: number; v: Verified }> {
  const r = await cli(h, ["verify"]);
  return { code: r.code, v: r.json as Verified };
}

async function doctorFinding(h: FakeHome): Promise<{ title: string; evidence: string[] } | undefined> {
  const r = await cli(h, ["doctor", "--no-probe"]);
  const list = (r.json as { findings: { id: string; title: string; evidence: string[] }[] }).findings;
  return list.find((f) => f.id === "ledger:tampered");
}

const triggers = (db: string) =>
  new Database(db, { readonly: true })
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    .all()
    .map((r) => r.name);

describe("the tip kept outside the database", () => {
  test("an untouched ledger verifies, with its tip naming its newest row", async () => {
    using h = home(12);
    const { code, v } = await verify(h);
    expect(code).toBe(0);
    expect(v.chain).toBe("intact");
    expect(v.tampered).toEqual([]);
    expect(readFileSync(h.paths.ledgerTip, "utf8")).toContain('"seq":12');
    expect(await doctorFinding(h)).toBeUndefined();
  });

  test("the newest rows deleted with the real sqlite3 (triggers dropped first): broken, naming the rows gone", async () => {
    using h = home(30);
    sqlite3(
      h.paths.db,
      "DROP TRIGGER events_no_update; DROP TRIGGER events_delete_only_anchored_prefix; DELETE FROM events WHERE seq > 20;",
    );
    const { code, v } = await verify(h);
    expect(code).toBe(1);
    expect(v.chain).toBe("broken");
    const reasons = v.tampered.map((t) => t.reason).join("\n");
    expect(reasons).toContain("rows 21..30 are gone");
    expect(reasons).toContain("events_no_update, events_delete_only_anchored_prefix were gone");
    // Opening put the triggers back: a second delete is refused again.
    expect(triggers(h.paths.db)).toContain("events_delete_only_anchored_prefix");
    expect((await doctorFinding(h))?.evidence.join("\n")).toContain("rows 21..30 are gone");
  });

  test("what an append found stays found: later rows do not heal it", async () => {
    using h = home(10);
    sqlite3(
      h.paths.db,
      "DROP TRIGGER events_delete_only_anchored_prefix; DELETE FROM events WHERE seq > 6; CREATE TRIGGER events_delete_only_anchored_prefix BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'x'); END;",
    );
    {
      using ledger = openLedger(h.paths);
      for (let i = 0; i < 5; i++) ledger.append(decision({ occurredAt: new Date().toISOString() }));
    }
    const { code, v } = await verify(h);
    expect(code).toBe(1);
    expect(v.tampered).toHaveLength(1);
    expect(v.tampered[0]).toMatchObject({ seq: 7 });
    expect(v.tampered[0]?.reason).toContain("rows 7..10 are gone");
  });

  test("every row deleted: broken, saying every row is gone", async () => {
    using h = home(8);
    sqlite3(h.paths.db, "DROP TRIGGER events_delete_only_anchored_prefix; DELETE FROM events;");
    const { code, v } = await verify(h);
    expect(code).toBe(1);
    expect(v.tampered.map((t) => t.reason).join("\n")).toContain("every row is gone");
  });

  test("memnox.db removed: verify and doctor say the ledger is gone and what its tip named", async () => {
    using h = home(8);
    for (const f of [h.paths.db, `${h.paths.db}-wal`, `${h.paths.db}-shm`]) rmSync(f, { force: true });
    const { code, v } = await verify(h);
    expect(code).toBe(1);
    expect(v.tampered[0]?.reason).toContain("is gone: its tip, kept outside it");
    expect(v.tampered[0]?.reason).toContain("names row 8");
    expect(existsSync(h.paths.db)).toBe(false);
    expect((await doctorFinding(h))?.title).toContain("is gone");
    // The next hook makes a new database; its first row says what happened to the old one.
    {
      using ledger = openLedger(h.paths);
      ledger.append(decision({ occurredAt: new Date().toISOString() }));
    }
    const again = await verify(h);
    expect(again.code).toBe(1);
    expect(again.v.tampered[0]?.reason).toContain("every row is gone");
  });

  test("memnox.db and its tip both removed after setup: still reported, since setup ran", async () => {
    using h = home(3);
    writeFileSync(h.paths.kept, JSON.stringify({ version: 1, setupAt: "2026-11-01T10:00:00.000Z" }));
    for (const f of [h.paths.db, `${h.paths.db}-wal`, `${h.paths.db}-shm`, h.paths.ledgerTip])
      rmSync(f, { force: true });
    const { code, v } = await verify(h);
    expect(code).toBe(1);
    expect(v.tampered[0]?.reason).toContain("neither the ledger");
  });

  test("the triggers dropped and nothing else: put back on open, and reported", async () => {
    using h = home(5);
    sqlite3(h.paths.db, "DROP TRIGGER events_no_update; DROP TRIGGER rule_sets_no_delete;");
    const { code, v } = await verify(h);
    expect(code).toBe(1);
    expect(v.tampered[0]?.reason).toContain("events_no_update, rule_sets_no_delete were gone");
    expect(triggers(h.paths.db)).toEqual([
      "events_delete_only_anchored_prefix",
      "events_no_update",
      "rule_sets_no_delete",
      "rule_sets_no_update",
    ]);
  });

  test("the tip removed, or edited to agree with a shorter chain: broken", async () => {
    using gone = home(5);
    rmSync(gone.paths.ledgerTip);
    const a = await verify(gone);
    expect(a.code).toBe(1);
    expect(a.v.tampered[0]?.reason).toContain("is gone (the ledger ends at row 5)");
    using edited = home(5);
    const text = readFileSync(edited.paths.ledgerTip, "utf8").replace('"seq":5', '"seq":4');
    writeFileSync(edited.paths.ledgerTip, text);
    const b = await verify(edited);
    expect(b.code).toBe(1);
    expect(b.v.tampered[0]?.reason).toContain("its seal does not verify");
  });

  test("a ledger from before tips were kept outside starts keeping one, and says from which row", async () => {
    using h = home(4);
    sqlite3(h.paths.db, "DROP TABLE ledger_tip;");
    rmSync(h.paths.ledgerTip);
    const r = await cli(h, ["verify"]);
    expect(r.code).toBe(0);
    expect((r.json as { notes: string[] }).notes[0]).toContain("from row 5 on");
    expect(readFileSync(h.paths.ledgerTip, "utf8")).toContain('"seq":5');
  });

  test("concurrent appenders: every tip is written under the write lock, so it ends on the last row", () => {
    using h = home(0);
    const workers = Array.from({ length: 4 }, (_, i) =>
      Bun.spawn(
        [process.execPath, `${import.meta.dir}/append-worker.ts`, h.paths.db, "300", `c${i}`, new Date().toISOString()],
        {
          stdout: "ignore",
          stderr: "inherit",
        },
      ),
    );
    return Promise.all(workers.map((w) => w.exited)).then((codes) => {
      expect(codes).toEqual([0, 0, 0, 0]);
      using ledger = openLedger(h.paths);
      expect(ledger.tip()?.seq).toBe(1200);
      expect(checkOutside(ledger)).toEqual({ tampered: [], notes: [] });
    });
  });
});

describe("the compiled binary", () => {
  test("`memnox verify` exits non-zero on a truncated ledger and says which rows are missing", async () => {
    using h = home(15);
    sqlite3(h.paths.db, "DROP TRIGGER events_delete_only_anchored_prefix; DELETE FROM events WHERE seq > 9;");
    const v = await runBinary("memnox", ["verify"], { env: h.env() });
    expect(v.code).toBe(1);
    expect(v.stdout).toContain("rows 10..15 are gone");
    const d = await runBinary("memnox", ["doctor", "--no-probe"], { env: h.env() });
    expect(d.stdout).toContain("the ledger was tampered with");
  }, 120_000);
});

import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { type DbRecord, rowFromDb } from "../../src/ledger/row.ts";
import { openLedger, rowHash } from "../../src/ledger/store.ts";
import { verifyLedger } from "../../src/ledger/verify.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import { run } from "../../src/seams/cli/index.ts";
import { fakeHome, testContext } from "../support/index.ts";
import { at, decision, T0 } from "./helpers.ts";

const DAY = 86_400_000;

function seeded() {
  const home = fakeHome();
  const paths = memnoxPaths(home.env());
  using ledger = openLedger(paths);
  for (let i = 40; i >= 0; i--) ledger.append(decision({ occurredAt: at(-i * DAY) }));
  return { home, paths };
}

async function cli(home: ReturnType<typeof fakeHome>, ...args: string[]) {
  const { ctx, io } = testContext(home, { args, now: T0 });
  const code = await run(ctx);
  return { code, out: io.stdout() };
}

describe("memnox purge", () => {
  test("drops what is past retention (default 30 days), anchors the chain, and verify says where", async () => {
    const { home, paths } = seeded();
    using _ = home;
    mkdirSync(paths.transcripts, { recursive: true });
    writeFileSync(`${paths.transcripts}/old.log`, "x\n");
    writeFileSync(`${paths.transcripts}/new.log`, "y\n");
    utimesSync(`${paths.transcripts}/old.log`, (T0 - 31 * DAY) / 1000, (T0 - 31 * DAY) / 1000);
    const p = await cli(home, "purge");
    expect(p.code).toBe(0);
    expect(p.out).toMatch(
      /^dropped 10 row\(s\) from 2026-10-21 12:00:00 to 2026-10-30 12:00:00, older than 30 day\(s\)/,
    );
    expect(p.out).toContain("the chain is now anchored on row 11");
    expect(p.out).toContain("removed 1 transcript(s)");
    expect(existsSync(`${paths.transcripts}/old.log`)).toBe(false);
    expect(existsSync(`${paths.transcripts}/new.log`)).toBe(true);
    const v = await cli(home, "verify");
    expect(v.code).toBe(0);
    expect(v.out).toContain("intact: 32 row(s), 11..42");
    expect(v.out).toMatch(/anchored on row 11: rows up to 10 were purged .* signed by this machine/);
    const again = await cli(home, "purge", "--json");
    expect(JSON.parse(again.out)).toMatchObject({ rows: 0, anchors: [] });
  });

  test("an anchor rewritten with its hash recomputed is caught by its signature", async () => {
    const { home, paths } = seeded();
    using _ = home;
    await cli(home, "purge");
    const raw = new Database(paths.db);
    raw.run("DROP TRIGGER events_no_update");
    const rec = raw.query<DbRecord, []>("SELECT * FROM events WHERE kind = 'anchor'").get();
    if (!rec) throw new Error("no anchor");
    const row = rowFromDb(rec);
    const { hash: _h, ...content } = { ...row, detail: { ...row.detail, droppedCount: 1 } };
    raw.run("UPDATE events SET detail = ?, hash = ? WHERE kind = 'anchor'", [
      JSON.stringify(content.detail),
      rowHash(content),
    ]);
    raw.close();
    using ledger = openLedger(paths);
    const r = verifyLedger(ledger);
    expect(r.chain).toBe("broken");
    expect(r.broken?.reason).toMatch(/^the anchor evt_\w+ that names it has a signature that does not verify$/);
  });
});

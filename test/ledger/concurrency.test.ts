// Real processes appending to one real SQLite file: every hook is its own process, so this is the normal case.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkOutside } from "../../src/ledger/integrity.ts";
import { purge } from "../../src/ledger/purge.ts";
import { machineSigner } from "../../src/ledger/sign.ts";
import { verifyLedger } from "../../src/ledger/verify.ts";
import { ledgerHome, T0 } from "./helpers.ts";

const WORKER = join(import.meta.dir, "append-worker.ts");
const DAY = 86_400_000;

interface Worker {
  readonly ready: Promise<void>;
  readonly ids: Promise<string[]>;
}

function spawnWorker(db: string, count: number, tag: string, occurredAt: string, stopFile?: string): Worker {
  const child = Bun.spawn(
    [process.execPath, WORKER, db, String(count), tag, occurredAt, ...(stopFile ? [stopFile] : [])],
    {
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  const ids = (async () => {
    let text = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      text += decoder.decode(chunk);
      if (text.startsWith("ready\n")) onReady();
    }
    const code = await child.exited;
    if (code !== 0) throw new Error(`worker ${tag} exited ${code}: ${await new Response(child.stderr).text()}`);
    onReady();
    const last = text.trim().split("\n").at(-1) ?? "[]";
    return JSON.parse(last) as string[];
  })();
  return { ready, ids };
}

describe("many processes, one chain", () => {
  test("8 processes appending 500 rows each leave 4,000 rows in one intact chain", async () => {
    using h = ledgerHome();
    const when = new Date(T0).toISOString();
    const workers = Array.from({ length: 8 }, (_, i) => spawnWorker(h.paths.db, 500, `w${i}`, when));
    const ids = (await Promise.all(workers.map((w) => w.ids))).flat();
    expect(ids.length).toBe(4000);
    const r = verifyLedger(h.ledger);
    expect(r).toMatchObject({ chain: "intact", rows: 4000, firstSeq: 1, lastSeq: 4000 });
    const stored = new Set([...h.ledger.iterate()].map((row) => row.id));
    for (const id of ids) expect(stored.has(id)).toBe(true);
    // Every appender rewrote the tip kept outside under the write lock: it names the last row, nothing was found.
    expect(checkOutside(h.ledger)).toEqual({ tampered: [], notes: [] });
  });

  test("a purge while 4 processes append keeps the chain verifiable and loses no row", async () => {
    using h = ledgerHome();
    const old = new Date(T0 - 60 * DAY).toISOString();
    const oldIds = (await spawnWorker(h.paths.db, 3000, "old", old).ids).length;
    expect(oldIds).toBe(3000);
    const recent = new Date(T0).toISOString();
    const stop = h.join("stop");
    const workers = Array.from({ length: 4 }, (_, i) => spawnWorker(h.paths.db, 100_000, `n${i}`, recent, stop));
    await Promise.all(workers.map((w) => w.ready));
    const cutoff = new Date(T0 - 30 * DAY).toISOString();
    const result = purge(h.ledger, machineSigner(h.paths), cutoff, { now: recent, retentionDays: 30, batch: 1000 });
    writeFileSync(stop, "");
    const ids = (await Promise.all(workers.map((w) => w.ids))).flat();
    expect(result.rows).toBe(3000);
    expect(result.anchors.length).toBe(3);
    const rows = [...h.ledger.iterate()];
    const kept = new Set(rows.map((r) => r.id));
    for (const id of ids) expect(kept.has(id)).toBe(true);
    expect(rows.filter((r) => r.agent === "old").length).toBe(0);
    expect(rows.length).toBe(ids.length + 3);
    // Rows were appended both before the first anchor and after the last: the purge ran among the appends.
    const seqOf = new Map(rows.map((r) => [r.id, r.seq]));
    const newSeqs = ids.map((id) => seqOf.get(id) ?? 0);
    expect(Math.min(...newSeqs)).toBeLessThan(result.anchors[0]?.seq ?? 0);
    expect(Math.max(...newSeqs)).toBeGreaterThan(result.anchors.at(-1)?.seq ?? 0);
    const v = verifyLedger(h.ledger, machineSigner(h.paths).publicKey);
    expect(v.chain).toBe("intact");
    expect(checkOutside(h.ledger).tampered).toEqual([]);
    expect(v.anchoredOn).toMatchObject({
      kind: "anchor",
      seq: 3001,
      droppedThroughSeq: 3000,
      signedByThisMachine: true,
    });
  });
});

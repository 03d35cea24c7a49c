// Spawned by ledger.bench.ts: appends `count` rows (`ledger`) or plain INSERTs (`raw`), printing start and end times.
import { Database } from "bun:sqlite";
import { openLedger } from "../src/ledger/store.ts";
import { benchRow, rawInsert } from "./ledger-rows.ts";

const [mode, db, countText] = process.argv.slice(2);
if (!db || !countText || (mode !== "ledger" && mode !== "raw"))
  throw new Error("usage: ledger-worker ledger|raw <db> <n>");
const n = Number(countText);
const start = performance.timeOrigin + performance.now();
if (mode === "ledger") {
  const ledger = openLedger({ db }, { busyTimeoutMs: 60_000 });
  for (let i = 0; i < n; i++) ledger.append(benchRow(i, new Date().toISOString()));
  ledger.close();
} else {
  const raw = new Database(db);
  raw.run("PRAGMA busy_timeout = 60000");
  const insert = rawInsert(raw);
  for (let i = 0; i < n; i++) insert(i);
  raw.close();
}
process.stdout.write(`${start} ${performance.timeOrigin + performance.now()}\n`);

// Spawned by the concurrency tests: appends rows, prints "ready" after the first, and stops once the stop file exists.
import { existsSync } from "node:fs";
import { openLedger } from "../../src/ledger/store.ts";

const [db, countText, tag, occurredAt, stopFile] = process.argv.slice(2);
if (!db || !countText || !tag || !occurredAt) throw new Error("usage: append-worker <db> <count> <tag> <at> [stop]");
const ledger = openLedger({ db }, { busyTimeoutMs: 30_000 });
const ids: string[] = [];
const append = (i: number) =>
  ledger.append({
    kind: "decision",
    occurredAt,
    surface: "shell",
    operation: "test.append",
    agent: tag,
    session: `ses_${tag}`,
    effect: "allow",
    detail: { n: i },
  }).id;
const max = Number(countText);
for (let i = 0; i < max; i++) {
  ids.push(append(i));
  if (i === 0) process.stdout.write("ready\n");
  if (stopFile && existsSync(stopFile)) {
    ids.push(append(i + 1));
    break;
  }
}
ledger.close();
process.stdout.write(`${JSON.stringify(ids)}\n`);

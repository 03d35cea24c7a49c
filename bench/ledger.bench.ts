// Ledger figures, each beside a baseline measured in the same run on the same disk:
//   appends/s from 1 process and from 8 (against plain autocommit INSERTs of the same rows), and what one hook pays,
//   verify rows/s over 1,000,000 rows (against reading and parsing the same rows),
//   `timeline --since 1d` on 1,000,000 rows spanning 30 days (against fetching the window's rows raw).
import { Database } from "bun:sqlite";
import { mkdirSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { draftFrom } from "../src/ledger/normalize.ts";
import { buildTimeline, renderTimeline, timelineJson } from "../src/ledger/read/timeline.ts";
import { windowFrom } from "../src/ledger/read/window.ts";
import { rowToDb } from "../src/ledger/row.ts";
import { chained, insertStatement, type Ledger, openLedger, type Tip } from "../src/ledger/store.ts";
import { verifyLedger } from "../src/ledger/verify.ts";
import { compiledBinary } from "../test/support/binary.ts";
import { benchRow, rawInsert } from "./ledger-rows.ts";

const ROOT = join(tmpdir(), `memnox-bench-ledger-${process.pid}`);
const WORKER = join(import.meta.dir, "ledger-worker.ts");
const DAY = 86_400_000;
const BIG = Number(process.env.LEDGER_BENCH_ROWS ?? 1_000_000);
/** Rows a second `memnox verify` is to check (issue 32). */
const GOAL = 500_000;

/** The 1-minute load average, printed beside the figures it colours. */
function loadAverage(): string {
  return (loadavg()[0] ?? 0).toFixed(2);
}

function rate(n: number, ms: number): string {
  return `${Math.round((n / ms) * 1000).toLocaleString("en-US")}/s`;
}

function line(name: string, ours: string, base: string, ratio: number): void {
  console.log(`${name.padEnd(34)} ${ours.padStart(14)}   baseline ${base.padStart(14)}   ratio ${ratio.toFixed(2)}`);
}

function dbIn(name: string): string {
  const dir = join(ROOT, name);
  mkdirSync(dir, { recursive: true });
  return join(dir, "memnox.db");
}

function oneProcess(n: number): void {
  const ledger = openLedger({ db: dbIn("one") });
  const t0 = performance.now();
  for (let i = 0; i < n; i++) ledger.append(benchRow(i, new Date().toISOString()));
  const ours = performance.now() - t0;
  ledger.close();
  const raw = new Database(dbIn("one-raw"));
  const insert = rawInsert(raw);
  const t1 = performance.now();
  for (let i = 0; i < n; i++) insert(i);
  const base = performance.now() - t1;
  raw.close();
  line(`append, 1 process (${n} rows)`, rate(n, ours), rate(n, base), ours / base);
}

/** What one hook pays: open the ledger, append its row, close; against opening and closing SQLite alone. */
function openAppendClose(n: number): void {
  const db = dbIn("hook");
  openLedger({ db }).close();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const ledger = openLedger({ db });
    ledger.append(benchRow(i, new Date().toISOString()));
    ledger.close();
  }
  const ours = (performance.now() - t0) / n;
  const t1 = performance.now();
  for (let i = 0; i < n; i++) new Database(db).close();
  const base = (performance.now() - t1) / n;
  line(
    "open + append + close (one hook)",
    `${(ours * 1000).toFixed(0)} µs`,
    `${(base * 1000).toFixed(0)} µs`,
    ours / base,
  );
}

async function manyProcesses(procs: number, each: number): Promise<void> {
  const run = async (mode: "ledger" | "raw", db: string) => {
    if (mode === "ledger") openLedger({ db }).close();
    const kids = Array.from({ length: procs }, () =>
      Bun.spawn([process.execPath, WORKER, mode, db, String(each)], { stdout: "pipe", stderr: "inherit" }),
    );
    const spans = (await Promise.all(kids.map((k) => new Response(k.stdout).text()))).map((t) =>
      t.trim().split(" ").map(Number),
    );
    return Math.max(...spans.map((s) => s[1] ?? 0)) - Math.min(...spans.map((s) => s[0] ?? 0));
  };
  const ours = await run("ledger", dbIn("many"));
  const base = await run("raw", dbIn("many-raw"));
  const ledger = openLedger({ db: dbIn("many") });
  const v = verifyLedger(ledger);
  ledger.close();
  if (v.chain !== "intact" || v.rows !== procs * each)
    throw new Error(`chain after ${procs} writers: ${v.chain}, ${v.rows} rows`);
  line(
    `append, ${procs} processes (${procs}x${each})`,
    rate(procs * each, ours),
    rate(procs * each, base),
    ours / base,
  );
}

/** 1M rows over 30 days, in 10k-row transactions: a decision each, an outcome for every second one. */
function bulkLoad(ledger: Ledger, n: number, endMs: number): void {
  const insert = insertStatement(ledger.db);
  let tip: Tip | undefined = ledger.tip();
  const step = (30 * DAY) / n;
  let lastDecision = "";
  const tx = ledger.db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const when = new Date(endMs - 30 * DAY + i * step).toISOString();
      const input =
        i % 3 === 2
          ? {
              kind: "outcome" as const,
              occurredAt: when,
              surface: "shell" as const,
              operation: "npm.test",
              exitCode: i % 11 ? 0 : 1,
              durationMs: 812,
              parent: lastDecision,
            }
          : benchRow(i, when);
      const row = chained(draftFrom(input), tip);
      if (input.kind === "decision") lastDecision = row.id;
      insert.run(...rowToDb(row), null);
      tip = { seq: row.seq, hash: row.hash };
    }
  });
  for (let i = 0; i < n; i += 10_000) tx.immediate(i, Math.min(n, i + 10_000));
}

async function big(n: number): Promise<void> {
  const home = join(ROOT, "big");
  const memnoxHome = join(home, ".memnox");
  mkdirSync(memnoxHome, { recursive: true });
  const db = join(memnoxHome, "memnox.db");
  const ledger = openLedger({ db });
  const now = Date.now();
  const t0 = performance.now();
  bulkLoad(ledger, n, now);
  console.log(`(loaded ${n.toLocaleString("en-US")} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

  const t1 = performance.now();
  let scanned = 0;
  for (const _ of ledger.iterate()) scanned += 1;
  const scan = performance.now() - t1;
  const t2 = performance.now();
  const v = verifyLedger(ledger);
  const verify = performance.now() - t2;
  if (v.chain !== "intact" || v.rows !== scanned) throw new Error(`verify: ${v.chain} ${v.rows}`);
  line(`verify (${n} rows)`, rate(n, verify), rate(scanned, scan), verify / scan);
  console.log("  (baseline: reading and parsing the same rows, `ledger.iterate()`)");
  const perSecond = (n / verify) * 1000;
  console.log(
    `  verify against its goal of ${GOAL.toLocaleString("en-US")} rows/s: ${Math.round(perSecond).toLocaleString("en-US")} rows/s, ${(perSecond / GOAL).toFixed(2)} of the goal (${perSecond >= GOAL ? "met" : "not met"}; load ${loadAverage()})`,
  );

  const since = new Date(now - DAY).toISOString();
  const t3 = performance.now();
  const raw = ledger.db.query("SELECT * FROM events WHERE occurred_at >= ?").all(since);
  const base = performance.now() - t3;
  const t4 = performance.now();
  const t = buildTimeline(ledger, { window: windowFrom(now, "1d") });
  const human = renderTimeline(t).join("\n");
  const json = JSON.stringify(timelineJson(t));
  const ours = performance.now() - t4;
  line(
    `timeline --since 1d (${t.entries.length} entries)`,
    `${ours.toFixed(0)} ms`,
    `${base.toFixed(0)} ms`,
    ours / base,
  );
  if (raw.length === 0 || human.length === 0 || json.length === 0) throw new Error("empty timeline");
  ledger.close();

  const bin = await compiledBinary();
  const env = { HOME: home, MEMNOX_HOME: memnoxHome, PATH: process.env.PATH ?? "", TZ: "Etc/UTC" };
  const version = Bun.spawnSync([bin, "--version"], { env });
  const t5 = performance.now();
  Bun.spawnSync([bin, "--version"], { env, stdout: "ignore" });
  const start = performance.now() - t5;
  const t6 = performance.now();
  const r = Bun.spawnSync([bin, "timeline", "--since", "1d"], { env, stdout: "ignore", stderr: "pipe" });
  const cli = performance.now() - t6;
  if (r.exitCode !== 0 || version.exitCode !== 0) throw new Error(`binary: ${r.stderr.toString()}`);
  line("memnox timeline --since 1d (binary)", `${cli.toFixed(0)} ms`, `${start.toFixed(0)} ms`, cli / start);
  console.log("  (binary baseline: `memnox --version`, the same process start with nothing read)");
}

try {
  oneProcess(20_000);
  openAppendClose(500);
  await manyProcesses(8, 2_500);
  await big(BIG);
} finally {
  rmSync(ROOT, { recursive: true, force: true });
}

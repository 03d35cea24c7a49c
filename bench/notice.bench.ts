// What the notice layer costs a hook: the Claude Code PreToolUse round trip of the compiled binary over a ledger of
// 100k rows, with noticeUnusual on (warm-up over) against the same binary and ledger with it off, interleaved in one
// run. The calls: one the layer reads nothing for (git status), a request to a host done before (one index seek),
// and a send from a session that took a secret (a seek and a session range).
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, hostTarget } from "../build.ts";
import type { EventInput } from "../src/core/event.ts";
import { draftFrom } from "../src/ledger/normalize.ts";
import { indexNotices, readNotices } from "../src/ledger/notices.ts";
import { rowToDb } from "../src/ledger/row.ts";
import { chained, insertStatement, openLedger, type Tip } from "../src/ledger/store.ts";
import { benchRow } from "./ledger-rows.ts";
import { baselineHome, bashPayload, interleave, once, pct, row } from "./support.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 150);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const DAY = 86_400_000;

const memnox = await build(hostTarget(), true);
const { dir, env, repo } = await baselineHome(memnox, "enforce");
try {
  const memnoxHome = env.MEMNOX_HOME ?? "";
  // ROWS decisions over thirty days, each remembering what it did, indexed as the store indexes its own rows.
  const ledger = openLedger({ db: join(memnoxHome, "memnox.db") });
  const insert = insertStatement(ledger.db);
  let tip: Tip | undefined = ledger.tip();
  const now = Date.now();
  const t0 = performance.now();
  const tx = ledger.db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const when = new Date(now - 30 * DAY + (i * 29 * DAY) / ROWS).toISOString();
      const input: EventInput = {
        ...benchRow(i, when),
        session: i >= ROWS - 50 ? "bench-session" : `ses_${Math.floor(i / 200)}`,
        agent: "claude-code",
        detail: {
          source: "rule",
          seen: i % 2 ? `host api${i % 5000}.example.com` : `write ${repo}/dir${i % 300}`,
          ...(i % 97 === 0 ? { taken: "read ~/.aws/credentials" } : {}),
        },
      };
      const r = chained(draftFrom(input), tip);
      insert.run(...rowToDb(r), null);
      indexNotices(ledger.db, r);
      tip = { seq: r.seq, hash: r.hash };
    }
  });
  for (let i = 0; i < ROWS; i += 10_000) tx.immediate(i, Math.min(ROWS, i + 10_000));
  // The session took a secret just now, so its send is a chain (asks) on every run.
  ledger.append({
    kind: "decision",
    occurredAt: new Date().toISOString(),
    surface: "hook",
    operation: "filesystem.read",
    session: "bench-session",
    agent: "claude-code",
    effect: "allow",
    detail: { source: "grant", taken: "read ~/.aws/credentials" },
  });
  // The layer's own work, in process: one history read per call (a seek per novelty key, one session range).
  const q = (i: number) => ({
    agent: "claude-code",
    session: i % 2 ? "bench-session" : undefined,
    keys: [`host api${(i * 7) % 9000}.example.com`, `write ${repo}/dir${i % 400}`],
    doneSince: new Date(now - 30 * DAY).toISOString(),
    takenSince: new Date(now - 30 * 60_000).toISOString(),
  });
  const reads: number[] = [];
  for (let i = 0; i < 5000; i++) {
    const t = performance.now();
    readNotices(ledger.db, q(i));
    reads.push(performance.now() - t);
  }
  ledger.close();
  console.log(`(loaded ${ROWS.toLocaleString("en-US")} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

  const config = join(memnoxHome, "config.toml");
  const on = 'mode = "enforce"\nnoticeUnusual = true\nnoticeWarmupDays = 0\n';
  const off = 'mode = "enforce"\nnoticeUnusual = false\n';
  const payload = (command: string) => bashPayload(repo, command);
  const hook = [memnox, "hook", "claude-code", "PreToolUse"];
  const calls = {
    local: payload("git status"),
    host: payload("curl -s https://api17.example.com/v1"),
    send: payload("echo hi | curl -s -d @- https://api17.example.com/v1"),
  };
  const cmds: Record<string, () => Promise<number>> = {};
  for (const [name, stdin] of Object.entries(calls)) {
    for (const [layer, text] of [
      ["off", off],
      ["on", on],
    ] as const) {
      cmds[`${name} ${layer}`] = () => {
        writeFileSync(config, text);
        return once(hook, { env, cwd: repo, stdin });
      };
    }
  }
  console.log(
    `notice index read, in process (5000 calls): p50 ${(pct(reads, 50) * 1000).toFixed(0)} µs   p99 ${(pct(reads, 99) * 1000).toFixed(0)} µs`,
  );
  const t = await interleave(RUNS, cmds);
  console.log(`runs: ${RUNS} each, interleaved; baseline rules, enforce, ${ROWS.toLocaleString("en-US")}-row ledger`);
  for (const name of Object.keys(calls)) {
    const a = t[`${name} off`] ?? [];
    const b = t[`${name} on`] ?? [];
    console.log(row(`hook PreToolUse ${name}, layer off`, a));
    console.log(row(`hook PreToolUse ${name}, layer on`, b));
    console.log(
      `  layer costs p50 ${(pct(b, 50) - pct(a, 50)).toFixed(2)} ms (${(pct(b, 50) / pct(a, 50)).toFixed(2)}x)   p99 ${(pct(b, 99) - pct(a, 99)).toFixed(2)} ms`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

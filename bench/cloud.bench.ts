// The control plane under load, on loopback: 1,000 simulated machines enrol by device code, then heartbeat and send a
// signed batch for a fixed number of rounds against two `memnox cloud serve` processes on one PostgreSQL. Reported:
// requests/s and p50/p99 per kind of request, the same against GET /v1/health measured in the same run (the floor of a
// request that touches no database), and that every event arrived exactly once, by the database's own count.
// Bounded: BENCH_MACHINES (1000), BENCH_ROUNDS (3), BENCH_EVENTS per batch (20), BENCH_CONCURRENCY (48), and a time
// budget BENCH_MAX_S (300) after which it stops and fails.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, hostTarget } from "../build.ts";
import { bunProc } from "../src/adapters/proc.ts";
import { privateCluster } from "../src/cloud/cluster.ts";
import { type SentEvent, SIGNATURE_HEADER } from "../src/cloud/protocol/sync.ts";
import { newKeyPair, signWith } from "../src/ledger/sign.ts";

const MACHINES = Number(process.env.BENCH_MACHINES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 48);
const MAX_S = Number(process.env.BENCH_MAX_S ?? 300);
const started = performance.now();

function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
}

function withinBudget(phase: string): void {
  const s = (performance.now() - started) / 1000;
  if (s > MAX_S) throw new Error(`over the ${MAX_S}s budget before ${phase} (${s.toFixed(0)}s)`);
}

interface Phase {
  readonly name: string;
  readonly latencies: number[];
  wallMs: number;
  /** HTTP requests each job makes (an enrolment is three). */
  readonly per: number;
}

/** Runs `jobs` with at most CONCURRENCY in flight, timing each. */
async function phase(name: string, jobs: readonly (() => Promise<void>)[], per = 1): Promise<Phase> {
  withinBudget(name);
  const p: Phase = { name, latencies: [], wallMs: 0, per };
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      const job = jobs[i];
      if (!job) return;
      const t = performance.now();
      await job();
      p.latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, worker));
  p.wallMs = performance.now() - t0;
  return p;
}

function report(p: Phase, floor?: Phase): string {
  const rps = ((p.latencies.length * p.per) / p.wallMs) * 1000;
  const ratio = floor ? `   p50 ${(pct(p.latencies, 50) / pct(floor.latencies, 50)).toFixed(1)}x health` : "";
  return `${p.name.padEnd(28)} ${String(p.latencies.length * p.per).padStart(6)} req  ${rps.toFixed(0).padStart(6)} req/s   p50 ${pct(p.latencies, 50).toFixed(1).padStart(6)} ms   p99 ${pct(p.latencies, 99).toFixed(1).padStart(7)} ms${ratio}`;
}

async function post(url: string, path: string, body: string, headers: Record<string, string> = {}) {
  const r = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${path}: HTTP ${r.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

async function serve(bin: string, db: string, home: string) {
  const child = Bun.spawn([bin, "cloud", "serve", "--db", db, "--port", "0", "--pool", "8"], {
    env: { HOME: home, MEMNOX_HOME: join(home, ".memnox"), PATH: process.env.PATH ?? "" },
    stdout: "ignore",
    stderr: "pipe",
  });
  let said = "";
  for await (const chunk of child.stderr) {
    said += new TextDecoder().decode(chunk);
    const m = /serving (http:\/\/\S+)/.exec(said);
    if (m?.[1]) return { child, url: m[1] };
  }
  throw new Error(`cloud serve did not start: ${said}`);
}

interface Sim {
  readonly url: string;
  readonly id: string;
  readonly token: string;
  readonly secret: Uint8Array;
}

function batch(m: Sim, round: number): string {
  const events: SentEvent[] = Array.from({ length: EVENTS }, (_, i) => ({
    dedupKey: `evt_r${round}_${i}_${m.id.slice(4, 14)}`,
    subjectId: `evt_r${round}_${i}_${m.id.slice(4, 14)}`,
    occurredAt: new Date(Date.UTC(2026, 10, 30, 12, round, i % 60)).toISOString(),
    agentSessionId: `s-${round}`,
    surface: "shell",
    operation: i % 5 === 0 ? "git.push-force" : "filesystem.read",
    classes: [i % 5 === 0 ? "destructive" : "read"],
    effect: i % 5 === 0 ? "deny" : "allow",
    resourceRef: `/src/file-${i}.ts`,
    argsDigest: `hmac:${i}`,
    policyHash: "p",
  }));
  return JSON.stringify({ machineId: m.id, sentAt: new Date().toISOString(), events });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "memnox-bench-cloud-"));
  chmodSync(dir, 0o711);
  const cluster = await privateCluster({ dir, env: process.env, proc: bunProc() });
  const servers: Awaited<ReturnType<typeof serve>>[] = [];
  try {
    const bin = await build(hostTarget(), true);
    const init = Bun.spawnSync(
      [bin, "cloud", "init", "--org", "bench", "--admin", "a@bench.dev", "--db", cluster.url, "--json"],
      {
        env: { HOME: dir, MEMNOX_HOME: join(dir, ".memnox"), PATH: process.env.PATH ?? "" },
      },
    );
    const admin = JSON.parse(init.stdout.toString()).token as string;
    servers.push(await serve(bin, cluster.url, dir), await serve(bin, cluster.url, dir));
    const urls = servers.map((s) => s.url);
    const at = (i: number) => urls[i % urls.length] ?? "";
    console.log(
      `${MACHINES} machines, ${ROUNDS} rounds, ${EVENTS} events a batch, ${CONCURRENCY} in flight, 2 servers`,
    );

    const floor = await phase(
      "GET /v1/health (floor)",
      Array.from({ length: 2000 }, (_, i) => async () => void (await (await fetch(`${at(i)}/v1/health`)).text())),
    );
    console.log(report(floor));

    const sims: Sim[] = [];
    const enrol = await phase(
      "enrolment (p50 of 3 calls)",
      Array.from({ length: MACHINES }, (_, i) => async () => {
        const url = at(i);
        const keys = newKeyPair();
        const code = await post(
          url,
          "/v1/devices",
          JSON.stringify({ publicKey: keys.publicKey, hostname: `bench-${i}` }),
        );
        await post(at(i + 1), `/v1/devices/${code.user_code}/approve`, "{}", { authorization: `Bearer ${admin}` });
        const t = await post(url, "/v1/devices/token", JSON.stringify({ device_code: code.device_code }));
        sims.push({ url, id: t.machine_id, token: t.access_token, secret: keys.secret });
      }),
      3,
    );
    console.log(report(enrol, floor));

    const beats: Phase[] = [];
    const sends: Phase[] = [];
    let accepted = 0;
    let duplicates = 0;
    const heartbeat = JSON.stringify({
      bundleHash: null,
      modeRunning: "observe",
      holds: [],
      answersApplied: [],
      version: "bench",
    });
    for (let round = 0; round < ROUNDS; round++) {
      beats.push(
        await phase(
          `heartbeat, round ${round + 1}`,
          sims.map(
            (m) => async () =>
              void (await post(m.url, "/v1/heartbeat", heartbeat, { authorization: `Bearer ${m.token}` })),
          ),
        ),
      );
      sends.push(
        await phase(
          `signed batch, round ${round + 1}`,
          sims.map((m, i) => async () => {
            const body = batch(m, round);
            const bytes = new TextEncoder().encode(body);
            // Half the machines send to the other server this round: nothing is held per process.
            const r = await post(round % 2 && i % 2 ? at(i + 1) : m.url, "/v1/events", body, {
              authorization: `Bearer ${m.token}`,
              [SIGNATURE_HEADER]: signWith(m.secret, bytes),
            });
            accepted += r.accepted;
            duplicates += r.duplicates;
          }),
        ),
      );
    }
    // A tenth of the machines resend their first batch, as after a lost acknowledgement: none may arrive twice.
    const resend = await phase(
      "resend of round 1",
      sims.slice(0, Math.ceil(MACHINES / 10)).map((m, i) => async () => {
        const body = batch(m, 0);
        const r = await post(at(i + 1), "/v1/events", body, {
          authorization: `Bearer ${m.token}`,
          [SIGNATURE_HEADER]: signWith(m.secret, new TextEncoder().encode(body)),
        });
        accepted += r.accepted;
        duplicates += r.duplicates;
      }),
    );
    for (const p of [...beats, ...sends, resend]) console.log(report(p, floor));
    const all = (ps: Phase[]) => ({
      name: "",
      per: 1,
      latencies: ps.flatMap((p) => p.latencies),
      wallMs: ps.reduce((n, p) => n + p.wallMs, 0),
    });
    console.log(report({ ...all(beats), name: "heartbeat, all rounds" }, floor));
    console.log(report({ ...all(sends), name: "signed batch, all rounds" }, floor));

    const sql = new Bun.SQL(cluster.url, { max: 1 });
    const [c] = await sql`SELECT count(*)::int AS n, count(DISTINCT (machine_id, dedup_key))::int AS d FROM events`;
    const [mc] = await sql`SELECT count(*)::int AS n FROM machines`;
    await sql.close();
    const expected = MACHINES * ROUNDS * EVENTS;
    const resent = Math.ceil(MACHINES / 10) * EVENTS;
    console.log(
      `machines enrolled: ${mc.n}; events expected ${expected}, accepted ${accepted}, duplicates ${duplicates} (resent ${resent})`,
    );
    console.log(`the database's own count: ${c.n} rows, ${c.d} distinct (machine, dedupKey)`);
    const exact = c.n === expected && c.d === expected && accepted === expected && duplicates === resent;
    console.log(exact ? "every event arrived exactly once" : "EVENTS DID NOT ARRIVE EXACTLY ONCE");
    console.log(`total ${((performance.now() - started) / 1000).toFixed(1)}s`);
    if (!exact) process.exitCode = 1;
  } finally {
    for (const s of servers) {
      s.child.kill("SIGTERM");
      await s.child.exited;
    }
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

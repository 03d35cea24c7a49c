// The control plane under load, on loopback: 1,000 simulated machines enrol by device code, then heartbeat and send a
// signed batch for a fixed number of rounds against two `memnox cloud serve` processes on one PostgreSQL (their limits
// scaled up, since the whole fleet comes from one address). Reported: requests/s and p50/p99 per kind of request, the
// same against GET /v1/health measured in the same run (the floor of a request that touches only the database's
// `SELECT 1`), and that every event arrived exactly once, by the database's own count.
// Then the noisy neighbour, against two more servers at the default limits: a quiet tenant's p99 (a person reading
// pages, its machines beating) alone, and again while a loud tenant's machines flood denies; the ratio of the two p99s
// is held to NOISY_BOUND (and the p50 ratio to NOISY_P50_BOUND), and the run fails above either.
// Bounded: BENCH_MACHINES (1000), BENCH_ROUNDS (3), BENCH_EVENTS per batch (20), BENCH_CONCURRENCY (48), BENCH_QUIET
// (800 requests, in four windows each way), and a time budget BENCH_MAX_S (300) after which it stops and fails.
import { appendFileSync, chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, hostTarget } from "../build.ts";
import { bunProc } from "../src/adapters/proc.ts";
import { privateCluster } from "../src/cloud/cluster.ts";
import { type SentEvent, SIGNATURE_HEADER } from "../src/cloud/protocol/sync.ts";
import { mintToken } from "../src/cloud/store/people.ts";
import { newKeyPair, signWith } from "../src/ledger/sign.ts";

const MACHINES = Number(process.env.BENCH_MACHINES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 48);
const MAX_S = Number(process.env.BENCH_MAX_S ?? 300);
const QUIET = Number(process.env.BENCH_QUIET ?? 800);
/**
 * The most a loud tenant may move a quiet one's p99, as a ratio to the same run's p99 without it, and its p50. Measured
 * on a 2-core machine shared with other engineers' test runs (load average 6 to 12): the p50 moved 1.3 to 8 times,
 * the p99 6 to 46 times, its tail made by the first second of each loud window. The bounds are those, with room.
 */
const NOISY_BOUND = 50;
const NOISY_P50_BOUND = 10;
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

async function serve(bin: string, db: string, home: string, scale = 1000) {
  const child = Bun.spawn(
    [bin, "cloud", "serve", "--db", db, "--port", "0", "--pool", "8", "--rate-scale", String(scale)],
    {
      env: {
        HOME: home,
        MEMNOX_HOME: join(home, ".memnox"),
        PATH: process.env.PATH ?? "",
        ...(process.env.TRACE ? { TRACE: "1" } : {}),
      },
      stdout: "ignore",
      stderr: "pipe",
    },
  );
  // Read to the end whatever it says, so a full pipe never stops a server in the middle of the bench.
  let said = "";
  const ready = new Promise<string | undefined>((resolve) => {
    void (async () => {
      for await (const chunk of child.stderr) {
        const text = new TextDecoder().decode(chunk);
        if (said.length < 100_000) said += text;
        if (process.env.TRACE) appendFileSync(`/tmp/trace-${child.pid}.log`, text);
        const m = /serving (http:\/\/\S+)/.exec(said);
        if (m?.[1]) resolve(m[1]);
      }
      resolve(undefined);
    })();
  });
  const url = await ready;
  if (url) return { child, url };
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

interface Tenant {
  readonly viewers: string[];
  readonly machines: Sim[];
}

/** An organization with four viewers' tokens and `n` machines, enrolled through `url` by its admin. */
async function tenant(bin: string, db: string, dir: string, name: string, url: string, n: number): Promise<Tenant> {
  const init = Bun.spawnSync([bin, "cloud", "init", "--org", name, "--admin", `a@${name}.dev`, "--db", db, "--json"], {
    env: { HOME: dir, MEMNOX_HOME: join(dir, ".memnox"), PATH: process.env.PATH ?? "" },
  });
  const made = JSON.parse(init.stdout.toString()) as { token: string; org: { id: string } };
  const admin = made.token;
  // People reading: members with tokens of their own, written as a sign-in and their own mint would make them.
  const sql = new Bun.SQL(db, { max: 1 });
  const viewers: string[] = [];
  for (let i = 0; i < 4; i++) {
    const id = `mem_bench_${name}_${i}`;
    await sql`INSERT INTO members (id, org_id, email, role, created_by)
              VALUES (${id}, ${made.org.id}, ${`v${i}@${name}.dev`}, 'viewer', 'bench')`;
    viewers.push(
      (await mintToken(sql, { orgId: made.org.id, kind: "person", memberId: id, name: "bench", createdBy: "bench" }))
        .token,
    );
  }
  await sql.close();
  const machines: Sim[] = [];
  for (let i = 0; i < n; i++) {
    const keys = newKeyPair();
    const code = await post(
      url,
      "/v1/devices",
      JSON.stringify({ publicKey: keys.publicKey, hostname: `${name}-${i}` }),
    );
    await post(url, `/v1/devices/${code.user_code}/approve`, "{}", { authorization: `Bearer ${admin}` });
    const t = await post(url, "/v1/devices/token", JSON.stringify({ device_code: code.device_code }));
    machines.push({ url, id: t.machine_id, token: t.access_token, secret: keys.secret });
  }
  return { viewers, machines };
}

/** Each kind of quiet request's latencies beside the loud tenant: the pages, the events, the beats. */
const byKind: number[][] = [[], [], []];
let besideKinds = false;

/** What the quiet tenant was answered other than 200 (it should be nothing). */
const refusedQuiet: number[] = [];

/** One quiet request, timed: the pages a person reads and a machine's beat, in turn. */
async function quietRequest(t: Tenant, urls: readonly string[], i: number): Promise<number> {
  const url = urls[i % urls.length] ?? "";
  const t0 = performance.now();
  const kind = i % 3;
  const viewer = `Bearer ${t.viewers[i % t.viewers.length]}`;
  const send = () =>
    kind === 0
      ? fetch(`${url}/v1/summary`, { headers: { authorization: viewer } })
      : kind === 1
        ? fetch(`${url}/v1/events?order=desc&limit=50`, { headers: { authorization: viewer } })
        : fetch(`${url}/v1/heartbeat`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${t.machines[i % t.machines.length]?.token}`,
              "content-type": "application/json",
            },
            body: JSON.stringify({
              bundleHash: null,
              modeRunning: "observe",
              holds: [],
              answersApplied: [],
              version: "q",
            }),
          });
  // A kept-alive connection the server closed is retried once on a fresh one, as any HTTP client does.
  const r = await send().catch(() => send());
  await r.text();
  if (r.status !== 200) refusedQuiet.push(r.status);
  const ms = performance.now() - t0;
  if (besideKinds) byKind[kind]?.push(ms);
  return ms;
}

/** Paced, not closed-loop: a request every 20 ms whatever the last one did, so a slow answer is counted, not hidden. */
async function quietRun(t: Tenant, urls: readonly string[], count: number): Promise<number[]> {
  const t0 = performance.now();
  const pending: Promise<number>[] = [];
  for (let i = 0; i < count; i++) {
    const wait = t0 + i * 20 - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    pending.push(quietRequest(t, urls, i));
  }
  return Promise.all(pending);
}

/** The loud tenant, in a process of its own (bench/cloud-loud.ts): started flooding, and stopped with its tally. */
function loudFlood(t: Tenant, urls: readonly string[]) {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "cloud-loud.ts")], {
    stdin: new Blob([
      JSON.stringify({
        urls,
        machines: t.machines.map((m) => ({
          id: m.id,
          token: m.token,
          secret: Buffer.from(m.secret).toString("base64"),
        })),
      }),
    ]),
    stdout: "pipe",
    stderr: "inherit",
  });
  return {
    /** Holds the loud process still (SIGSTOP) or lets it go on (SIGCONT): the windows alone and beside alternate. */
    pause(): void {
      child.kill("SIGSTOP");
    },
    resume(): void {
      child.kill("SIGCONT");
    },
    async stop(): Promise<{ accepted: number; limited: number; other: number }> {
      child.kill("SIGCONT");
      child.kill("SIGTERM");
      const out = await new Response(child.stdout).text();
      await child.exited;
      return JSON.parse(out.trim().split("\n").pop() ?? "{}");
    },
  };
}

/** The quiet tenant's p99 alone and beside the loud one, on two servers at the default limits; the ratio is bounded. */
async function noisyNeighbour(bin: string, db: string, dir: string, enrolAt: string): Promise<boolean> {
  withinBudget("the noisy neighbour");
  const quiet = await tenant(bin, db, dir, "quiet", enrolAt, 20);
  const loud = await tenant(bin, db, dir, "loud", enrolAt, 8);
  const servers = [await serve(bin, db, dir, 1), await serve(bin, db, dir, 1)];
  let flood: ReturnType<typeof loudFlood> | undefined;
  try {
    const urls = servers.map((s) => s.url);
    await quietRun(quiet, urls, QUIET / 4);
    // Windows alone and beside the loud tenant alternate, so whatever else this machine is doing falls on both alike.
    flood = loudFlood(loud, urls);
    const alone: number[] = [];
    const beside: number[] = [];
    for (const k of byKind) k.length = 0;
    for (let w = 0; w < 4; w++) {
      flood.pause();
      // What the loud tenant had in flight finishes before the quiet one is measured alone.
      await Bun.sleep(1500);
      alone.push(...(await quietRun(quiet, urls, QUIET / 4)));
      flood.resume();
      await Bun.sleep(500);
      besideKinds = true;
      beside.push(...(await quietRun(quiet, urls, QUIET / 4)));
      besideKinds = false;
    }
    console.log(
      `beside: summary p50 ${pct(byKind[0] ?? [], 50).toFixed(1)}, events p50 ${pct(byKind[1] ?? [], 50).toFixed(1)}, heartbeat p50 ${pct(byKind[2] ?? [], 50).toFixed(1)} ms`,
    );
    const tally = await flood.stop();
    flood = undefined;
    const ratio = pct(beside, 99) / pct(alone, 99);
    const median = pct(beside, 50) / pct(alone, 50);
    console.log(
      `noisy neighbour: quiet p99 ${pct(alone, 99).toFixed(1)} ms alone, ${pct(beside, 99).toFixed(1)} ms beside the loud tenant` +
        ` (p50 ${pct(alone, 50).toFixed(1)} -> ${pct(beside, 50).toFixed(1)} ms, ${median.toFixed(2)}x, bound ${NOISY_P50_BOUND}x);` +
        ` p99 ratio ${ratio.toFixed(2)}x, bound ${NOISY_BOUND}x`,
    );
    console.log(
      `the loud tenant meanwhile: ${tally.accepted} refusals stored, ${tally.limited} batches answered 429, ${tally.other} other`,
    );
    console.log(
      `the quiet tenant was refused ${refusedQuiet.length} time(s) ${JSON.stringify(refusedQuiet.slice(0, 5))}`,
    );
    return ratio <= NOISY_BOUND && median <= NOISY_P50_BOUND && tally.other === 0;
  } finally {
    await flood?.stop().catch(() => undefined);
    for (const s of servers) {
      s.child.kill("SIGTERM");
      await s.child.exited;
    }
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "memnox-bench-cloud-"));
  chmodSync(dir, 0o711);
  const cluster = await privateCluster({ dir, env: process.env, proc: bunProc(), fast: true });
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
    const fair = await noisyNeighbour(bin, cluster.url, dir, at(0));
    console.log(
      fair ? "the loud tenant stayed within the bound" : "THE LOUD TENANT MOVED THE QUIET ONE PAST THE BOUND",
    );
    console.log(`total ${((performance.now() - started) / 1000).toFixed(1)}s`);
    if (!exact || !fair) process.exitCode = 1;
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

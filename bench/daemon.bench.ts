// The daemon's budgets, measured against same-run baselines:
// 1. `evaluate` over the socket, p50/p99 (target p99 < 1 ms), beside the same decision made in process, warm;
// 2. the compiled Claude Code PreToolUse hook round trip with a daemon answering and without one (target: with no
//    slower than without), on two homes holding the same rules, runs interleaved.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, hostTarget, version } from "../build.ts";
import { memnoxPaths } from "../src/ports/paths.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const CALLS = Number(process.env.BENCH_CALLS ?? 3000);

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
}

const row = (name: string, xs: number[], unit = "ms", digits = 3) =>
  `${name.padEnd(44)} p50 ${pct(xs, 50).toFixed(digits).padStart(8)} ${unit}   p99 ${pct(xs, 99).toFixed(digits).padStart(8)} ${unit}`;

function envOf(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { HOME: home, MEMNOX_HOME: join(home, ".memnox"), PATH: process.env.PATH ?? "", TZ: "Etc/UTC", ...extra };
}

async function startDaemon(bin: string, env: Record<string, string>) {
  const child = Bun.spawn([bin, "daemon"], {
    env: { ...env, MEMNOX_EGRESS_PORT: "0" },
    stdout: "ignore",
    stderr: "pipe",
  });
  let said = "";
  for await (const chunk of child.stderr) {
    said += new TextDecoder().decode(chunk);
    if (said.includes("daemon ready")) break;
  }
  return child;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "memnox-bench-daemon-"));
  try {
    const bin = await build(hostTarget(), true);
    const repo = join(dir, "project");
    mkdirSync(repo, { recursive: true });
    Bun.spawnSync(["git", "init", "-q", "-b", "main", repo]);
    const withHome = join(dir, "with");
    const withoutHome = join(dir, "without");
    mkdirSync(join(withHome, ".memnox"), { recursive: true });
    Bun.spawnSync([bin, "protect", "--yes"], { env: envOf(withHome), cwd: repo });
    writeFileSync(join(withHome, ".memnox", "config.toml"), 'mode = "enforce"\n');
    cpSync(join(withHome, ".memnox"), join(withoutHome, ".memnox"), { recursive: true });
    const daemon = await startDaemon(bin, envOf(withHome));
    try {
      await socketEvaluate(withHome, withoutHome, repo);
      await hookRoundTrip(bin, withHome, withoutHome, repo);
    } finally {
      daemon.kill("SIGTERM");
      await daemon.exited;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The socket's hot path from a client that is already connected, against decide() in process on the same rules. */
async function socketEvaluate(withHome: string, withoutHome: string, repo: string): Promise<void> {
  const { daemonClient } = await import("../src/gate/remote/client.ts");
  const { evaluateRequest } = await import("../src/gate/remote/evaluate.ts");
  const { callerFacts } = await import("../src/gate/caller.ts");
  const { createGate } = await import("../src/gate/index.ts");
  const { resolveCommand } = await import("../src/resolve/index.ts");
  const { processStdio, bunProc, bunGit, ownGit } = await import("../src/adapters/index.ts");
  const ctxOf = (home: string) => {
    const env = envOf(home);
    return {
      argv0: "memnox",
      args: [],
      env,
      cwd: repo,
      startedAt: Date.now(),
      clock: { now: () => Date.now() },
      paths: memnoxPaths(env),
      io: processStdio(),
      proc: bunProc(),
      git: bunGit(env, ownGit(memnoxPaths(env), process.execPath)),
      notify: { notice: async () => {} },
      version: version(),
      execPath: process.execPath,
      selfArgv: [process.execPath],
    };
  };
  const commands = ["git status", "git push --force origin main", "rm -rf build", "curl https://example.com/x"];
  const withCtx = ctxOf(withHome);
  const client = daemonClient(withCtx.paths.sock);
  const caller = callerFacts(withCtx);
  const requests = commands.map((command) => {
    const req = { surface: "hook" as const, command, cwd: repo, canAsk: false, agent: "claude-code" };
    const resolution = resolveCommand(command, { cwd: repo, home: withHome });
    const at = { epochMs: Date.now(), utcOffsetMinutes: 0 };
    return evaluateRequest(req, { version: version(), caller, resolution, digest: () => "0".repeat(64), at });
  });
  // Paced as hooks arrive (each its own process, milliseconds apart) or back to back; at every pace the floor is a
  // `ping` made the same way, interleaved, so what the machine charges to wake two processes is in both.
  const timed = async (paceMs: number, calls: number) => {
    const ev: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < calls; i++) {
      const req = requests[i % requests.length];
      if (!req) break;
      for (const which of i % 2 ? ["ping", "evaluate"] : ["evaluate", "ping"]) {
        if (paceMs > 0) await Bun.sleep(paceMs);
        const t0 = performance.now();
        const reply = await client.call(which === "ping" ? { method: "ping" } : req, { timeoutMs: 2000 });
        const dt = performance.now() - t0;
        if (!reply) throw new Error("the daemon did not answer");
        if (i >= calls / 10) (which === "ping" ? floor : ev).push(dt);
      }
    }
    return { ev, floor };
  };
  const paces = [
    { name: "back to back", ...(await timed(0, CALLS)) },
    { name: "1 ms apart", ...(await timed(1, CALLS)) },
    { name: "20 ms apart", ...(await timed(20, Math.min(CALLS, 600))) },
  ];
  client.close();
  const local = createGate(ctxOf(withoutHome));
  const inProcess: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const command = commands[i % commands.length] ?? "git status";
    const t0 = performance.now();
    await local.decide({ surface: "hook", command, cwd: repo, canAsk: false, agent: "claude-code" });
    const dt = performance.now() - t0;
    if (i >= 200) inProcess.push(dt);
  }
  console.log(`socket evaluate: ${commands.length} commands in turn, each beside a ping made the same way`);
  for (const p of paces) {
    console.log(row(`ping (floor), ${p.name}`, p.floor));
    console.log(row(`evaluate, ${p.name}`, p.ev));
    const over = (q: number) => (pct(p.ev, q) - pct(p.floor, q)).toFixed(3);
    console.log(`${"".padEnd(44)} over the floor: p50 ${over(50)} ms, p99 ${over(99)} ms`);
  }
  console.log(row("decide() in process, warm (decision + row)", inProcess));
  const said = paces.map((p) => `${p.name} ${pct(p.ev, 99) < 1 ? "met" : "NOT met"}`);
  console.log(`target p99 < 1 ms: ${said.join(", ")}`);
}

/** A whole hook call of the compiled binary: process start, payload in, answer out. */
async function hookRoundTrip(bin: string, withHome: string, withoutHome: string, repo: string): Promise<void> {
  const payload = JSON.stringify({
    session_id: "a74a5322-299b-49db-85d4-7aa27d7807b7",
    cwd: repo,
    hook_event_name: "PreToolUse",
    permission_mode: "default",
    tool_name: "Bash",
    tool_input: { command: "git push --force origin main" },
    tool_use_id: "toolu_2",
  });
  const once = async (home: string) => {
    const t0 = performance.now();
    const p = Bun.spawn([bin, "hook", "claude-code", "PreToolUse"], {
      env: envOf(home),
      cwd: repo,
      stdin: new Blob([payload]),
      stdout: "pipe",
      stderr: "ignore",
    });
    const out = await new Response(p.stdout).text();
    await p.exited;
    if (!out.includes('"deny"')) throw new Error(`unexpected hook answer: ${out}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 10; i++) await Promise.all([once(withHome), once(withoutHome)]);
  const withD: number[] = [];
  const withoutD: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (i % 2) withoutD.push(await once(withoutHome));
    withD.push(await once(withHome));
    if (!(i % 2)) withoutD.push(await once(withoutHome));
  }
  console.log(`hook round trip: ${RUNS} runs each, interleaved, baseline rules (protect --yes), enforce`);
  console.log(row("hook without a daemon (in process)", withoutD, "ms", 1));
  console.log(row("hook with the daemon answering", withD, "ms", 1));
  const r50 = pct(withD, 50) / pct(withoutD, 50);
  const r99 = pct(withD, 99) / pct(withoutD, 99);
  console.log(`with / without: p50 ${r50.toFixed(2)}x   p99 ${r99.toFixed(2)}x (target: no slower, <= 1.00x)`);
}

await main();

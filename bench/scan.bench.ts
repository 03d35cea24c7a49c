// The scan of a whole fake machine (every agent, every credential kind, no probe), against reading the very files it
// read in the same run; and the compiled binary's `scan --json --no-probe` against its own `--version`.
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, hostTarget } from "../build.ts";
import { bunGit, bunProc, ownGit } from "../src/adapters/proc.ts";
import { bufferStdio } from "../src/adapters/stdio.ts";
import type { Context } from "../src/ports/context.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { scanMachine } from "../src/scan/inventory.ts";

const ROOT = join(import.meta.dir, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const FIX = join(ROOT, "fixtures", "homes", "scan");

const home = mkdtempSync(join(tmpdir(), "memnox-scan-bench-"));
for (const part of ["claude-code", "cursor", "codex", "gemini-cli", "hermes", "openclaw", "credentials", "tool-cache"])
  cpSync(join(FIX, part), home, { recursive: true });
const repo = join(home, "repo");
cpSync(join(FIX, "ruflo-repo"), repo, { recursive: true });
for (const f of ["_env", "_env.example", "services/api/_env.local"])
  renameSync(join(repo, f), join(repo, f.replace("_env", ".env")));
const env = { HOME: home, MEMNOX_HOME: join(home, ".memnox"), PATH: process.env.PATH ?? "", DOCKER_HOST: "tcp://x:1" };

const ctx: Context = {
  argv0: "memnox",
  args: [],
  env,
  cwd: repo,
  startedAt: Date.now(),
  clock: { now: () => Date.now() },
  paths: memnoxPaths(env),
  io: bufferStdio("", false),
  proc: bunProc(),
  git: bunGit(env, ownGit(memnoxPaths(env), process.execPath)),
  notify: { notice: async () => {} },
  version: "bench",
  execPath: process.execPath,
  selfArgv: [process.execPath, join(ROOT, "bin", "memnox.ts")],
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function timed(fn: () => unknown | Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const inv = await scanMachine(ctx, { probe: false, keep: false });
const scanMs: number[] = [];
const readMs: number[] = [];
for (let i = 0; i < RUNS; i++) {
  scanMs.push(await timed(() => scanMachine(ctx, { probe: false, keep: false })));
  readMs.push(await timed(() => inv.read.map((f) => readFileSync(f, "utf8").length)));
}
console.log(
  `files read per scan: ${inv.read.length}; agents ${inv.agents.length}, credentials ${inv.credentials.length}`,
);
console.log(`in-process scan (no probe): median ${median(scanMs).toFixed(2)} ms`);
console.log(`reading the same files:     median ${median(readMs).toFixed(3)} ms`);
console.log(`ratio scan / raw reads:     ${(median(scanMs) / Math.max(median(readMs), 0.001)).toFixed(1)}x`);

const bin = await build(hostTarget(), true);
async function run(args: string[]): Promise<number> {
  return timed(async () => {
    const p = Bun.spawn([bin, ...args], { env, cwd: repo, stdout: "pipe", stderr: "ignore" });
    await new Response(p.stdout).text();
    await p.exited;
  });
}
const binScan: number[] = [];
const binVersion: number[] = [];
for (let i = 0; i < Math.min(RUNS, 20); i++) {
  binScan.push(await run(["scan", "--json", "--no-probe"]));
  binVersion.push(await run(["--version"]));
}
console.log(`binary scan --json --no-probe: median ${median(binScan).toFixed(1)} ms`);
console.log(`binary --version (floor):      median ${median(binVersion).toFixed(1)} ms`);
console.log(`ratio scan / floor:            ${(median(binScan) / median(binVersion)).toFixed(1)}x`);
rmSync(home, { recursive: true, force: true });

// memnox setup on a machine with the five agents (first run, then the idempotent second run), uninstall, and
// doctor --prove through every installed seam, each as a ratio of `memnox --version` measured in the same run.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, hostTarget } from "../build.ts";
import { bunGit, bunProc, ownGit } from "../src/adapters/proc.ts";
import { bufferStdio } from "../src/adapters/stdio.ts";
import type { Context } from "../src/ports/context.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { proveSeams } from "../src/wire/wiring.ts";

const ROOT = join(import.meta.dir, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const AGENTS = ["claude-code", "codex", "gemini-cli", "cursor", "windsurf"];

async function timed(argv: string[], env: Record<string, string>, cwd: string): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn(argv, { env, cwd, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  if ((await p.exited) !== 0) throw new Error(`${argv.join(" ")} failed`);
  return performance.now() - t0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

function machine(dir: string, i: number): { home: string; env: Record<string, string> } {
  const home = join(dir, `home-${i}`);
  for (const a of AGENTS) cpSync(join(ROOT, "fixtures", "homes", a), home, { recursive: true });
  mkdirSync(join(home, ".memnox"), { recursive: true });
  return { home, env: { HOME: home, MEMNOX_HOME: join(home, ".memnox"), PATH: process.env.PATH ?? "/usr/bin:/bin" } };
}

function context(home: string, env: Record<string, string>): Context {
  const e = { ...env, PATH: `${join(home, ".memnox", "bin")}:${env.PATH}` };
  return {
    argv0: "memnox",
    args: [],
    env: e,
    cwd: home,
    startedAt: Date.now(),
    clock: { now: () => Date.now() },
    paths: memnoxPaths(e),
    io: bufferStdio(),
    proc: bunProc(),
    git: bunGit(e, ownGit(memnoxPaths(e), process.execPath)),
    notify: { notice: async () => {} },
    version: "bench",
    execPath: process.execPath,
    selfArgv: [process.execPath, join(ROOT, "bin", "memnox.ts")],
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "memnox-bench-setup-"));
  try {
    const memnox = await build(hostTarget(), true);
    const rows: Record<string, number[]> = { version: [], first: [], second: [], uninstall: [], prove: [] };
    for (let i = 0; i < RUNS; i++) {
      const { home, env } = machine(dir, i);
      rows.version?.push(await timed([memnox, "--version"], env, home));
      rows.first?.push(await timed([memnox, "setup", "--yes"], env, home));
      rows.second?.push(await timed([memnox, "setup", "--yes"], env, home));
      const t0 = performance.now();
      await proveSeams(context(home, env));
      rows.prove?.push(performance.now() - t0);
      rows.uninstall?.push(await timed([memnox, "uninstall"], env, home));
    }
    const floor = median(rows.version ?? []);
    console.log(`runs: ${RUNS}, a fresh fake machine with ${AGENTS.length} agents each (${ROOT})`);
    for (const [name, xs] of Object.entries(rows)) {
      const m = median(xs);
      console.log(
        `${name.padEnd(10)} median ${m.toFixed(1).padStart(8)} ms   ${(m / floor).toFixed(1).padStart(6)}x memnox --version`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

// Shared by the start-up benches: a floor binary built the same way in the same run, timing, a home with the baseline.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hostTarget } from "../build.ts";

/** The least a hook can do, shaped like bin/memnox.ts: read stdin, parse it, answer, set the exit code. */
const FLOOR = `async function main() {
  const text = await Bun.stdin.text();
  const payload = text ? JSON.parse(text) : {};
  process.stdout.write(payload.hook_event_name ? "{}\\n" : "ok\\n");
  return 0;
}
main().then((code) => { process.exitCode = code; });
`;

export async function floorBinary(dir: string): Promise<string> {
  const entry = join(dir, "floor.ts");
  writeFileSync(entry, FLOOR);
  const outfile = join(dir, "floor");
  const r = await Bun.build({
    entrypoints: [entry],
    compile: {
      target: hostTarget().bunTarget,
      outfile,
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
    },
    bytecode: true,
    format: "esm",
    minify: true,
  });
  if (!r.success) throw new Error("floor build failed");
  return outfile;
}

export async function once(
  argv: readonly string[],
  opts: { env: Record<string, string>; cwd: string; stdin?: string },
): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn([...argv], {
    env: opts.env,
    cwd: opts.cwd,
    stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
    stdout: "pipe",
    stderr: "ignore",
  });
  await new Response(p.stdout).text();
  await p.exited;
  return performance.now() - t0;
}

export function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
}

/** Interleaved runs of several commands, so none always runs on a cache another warmed. */
export async function interleave(
  runs: number,
  cmds: Record<string, () => Promise<number>>,
): Promise<Record<string, number[]>> {
  const names = Object.keys(cmds);
  const out: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < 5; i++) for (const n of names) await cmds[n]?.();
  for (let i = 0; i < runs; i++) {
    const order = i % 2 ? [...names].reverse() : names;
    for (const n of order) out[n]?.push((await cmds[n]?.()) ?? Number.NaN);
  }
  return out;
}

export function row(name: string, xs: readonly number[]): string {
  return `${name.padEnd(40)} p50 ${pct(xs, 50).toFixed(1).padStart(6)} ms   p99 ${pct(xs, 99).toFixed(1).padStart(6)} ms`;
}

/** A fake home and a git repository with the baseline protect --yes writes, in `mode`. */
export async function baselineHome(
  memnox: string,
  mode: "enforce" | "observe",
): Promise<{ dir: string; env: Record<string, string>; repo: string }> {
  const dir = mkdtempSync(join(tmpdir(), "memnox-bench-"));
  const home = join(dir, "home");
  const repo = join(dir, "repo");
  mkdirSync(join(home, ".memnox"), { recursive: true });
  mkdirSync(repo);
  Bun.spawnSync(["git", "init", "-q", repo]);
  const env = { HOME: home, MEMNOX_HOME: join(home, ".memnox"), PATH: process.env.PATH ?? "", TZ: "Etc/UTC" };
  Bun.spawnSync([memnox, "protect", "--yes"], { env, cwd: repo });
  Bun.spawnSync([memnox, "config", "set", "mode", mode], { env, cwd: repo });
  return { dir, env, repo };
}

/** Claude Code's PreToolUse for one Bash command in `repo`, as the hook benches send it. */
export function bashPayload(repo: string, command: string): string {
  return JSON.stringify({
    session_id: "bench-session",
    cwd: repo,
    hook_event_name: "PreToolUse",
    permission_mode: "default",
    tool_name: "Bash",
    tool_input: { command, description: "bench" },
    tool_use_id: "toolu_bench",
  });
}

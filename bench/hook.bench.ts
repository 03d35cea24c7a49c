// The Claude Code PreToolUse round trip of the compiled binary (payload on stdin -> answer on stdout), p50 and p99,
// against a floor binary built the same way in the same run that only reads stdin and prints JSON.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, hostTarget } from "../build.ts";

const ROOT = join(import.meta.dir, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 150);
const PAYLOAD = JSON.stringify({
  session_id: "a74a5322-299b-49db-85d4-7aa27d7807b7",
  transcript_path: "/home/dev/.claude/projects/-home-dev-project/a74a5322.jsonl",
  cwd: "/home/dev/project",
  prompt_id: "efa2eeb8-ec40-46a2-8338-8ae3a147b743",
  permission_mode: "default",
  effort: { level: "high" },
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "git push --force origin main", description: "push" },
  tool_use_id: "toolu_2",
});

/** The least a hook can do, shaped like bin/memnox.ts: read the payload, parse it, answer, set the exit code. */
const FLOOR = `async function main() {
  const payload = JSON.parse(await Bun.stdin.text());
  process.stdout.write(payload.hook_event_name ? "{}\\n" : "");
  return 0;
}
main().then((code) => { process.exitCode = code; });
`;

async function floorBinary(dir: string): Promise<string> {
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

async function once(argv: string[], env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn(argv, { env, stdin: new Blob([PAYLOAD]), stdout: "pipe", stderr: "ignore" });
  await new Response(p.stdout).text();
  await p.exited;
  return performance.now() - t0;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "memnox-bench-"));
  try {
    const memnox = await build(hostTarget(), true);
    const floor = await floorBinary(dir);
    const home = join(dir, "home");
    mkdirSync(join(home, ".memnox"), { recursive: true });
    writeFileSync(join(home, ".memnox", "config.toml"), 'mode = "enforce"\n');
    const env = { HOME: home, MEMNOX_HOME: join(home, ".memnox"), PATH: process.env.PATH ?? "" };
    const hook = [memnox, "hook", "claude-code", "PreToolUse"];
    for (let i = 0; i < 10; i++) await Promise.all([once(hook, env), once([floor], env)]);
    const a: number[] = [];
    const b: number[] = [];
    // Alternate which goes first, so neither always runs on a cache the other warmed.
    for (let i = 0; i < RUNS; i++) {
      if (i % 2) b.push(await once([floor], env));
      a.push(await once(hook, env));
      if (!(i % 2)) b.push(await once([floor], env));
    }
    const row = (name: string, xs: number[]) =>
      `${name.padEnd(34)} p50 ${pct(xs, 50).toFixed(1).padStart(6)} ms   p99 ${pct(xs, 99).toFixed(1).padStart(6)} ms`;
    console.log(`runs: ${RUNS} each, interleaved (${ROOT})`);
    console.log(row("floor (stdin -> {})", b));
    console.log(row("memnox hook claude-code PreToolUse", a));
    console.log(`ratio p50 ${(pct(a, 50) / pct(b, 50)).toFixed(2)}x   p99 ${(pct(a, 99) / pct(b, 99)).toFixed(2)}x`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

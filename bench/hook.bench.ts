// The Claude Code PreToolUse round trip of the compiled binary under the baseline rules (payload on stdin -> answer
// on stdout), p50 and p99, as a ratio to a floor binary built the same way in the same run.
import { rmSync } from "node:fs";
import { build, hostTarget } from "../build.ts";
import { baselineHome, floorBinary, interleave, once, pct, row } from "./support.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 150);

const memnox = await build(hostTarget(), true);
const { dir, env, repo } = await baselineHome(memnox, "enforce");
try {
  const floor = await floorBinary(dir);
  const payload = (command: string) =>
    JSON.stringify({
      session_id: "bench-session",
      cwd: repo,
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: "Bash",
      tool_input: { command, description: "bench" },
      tool_use_id: "toolu_bench",
    });
  const hook = [memnox, "hook", "claude-code", "PreToolUse"];
  const t = await interleave(RUNS, {
    floor: () => once([floor], { env, cwd: repo, stdin: payload("git status") }),
    allow: () => once(hook, { env, cwd: repo, stdin: payload("git status") }),
    deny: () => once(hook, { env, cwd: repo, stdin: payload("git push --force origin main") }),
  });
  const floorT = t.floor ?? [];
  console.log(`runs: ${RUNS} each, interleaved; baseline rules, enforce`);
  console.log(row("floor (stdin -> {})", floorT));
  for (const k of ["allow", "deny"] as const) {
    const xs = t[k] ?? [];
    console.log(row(`hook PreToolUse (${k})`, xs));
    console.log(
      `  ratio p50 ${(pct(xs, 50) / pct(floorT, 50)).toFixed(2)}x   p99 ${(pct(xs, 99) / pct(floorT, 99)).toFixed(2)}x`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

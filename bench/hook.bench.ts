// The Claude Code PreToolUse round trip of the compiled binary under the baseline rules (payload on stdin -> answer
// on stdout), p50 and p99, as a ratio to a floor binary built the same way in the same run.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, hostTarget } from "../build.ts";
import { DECISIONS_FILE, decisionTerms, renderDecisions } from "../src/core/decisions.ts";
import { projectIdAt } from "../src/io/project-id.ts";
import { baselineHome, bashPayload, floorBinary, interleave, once, pct, row } from "./support.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 150);

const memnox = await build(hostTarget(), true);
const { dir, env, repo } = await baselineHome(memnox, "enforce");
try {
  const floor = await floorBinary(dir);
  const payload = (command: string) => bashPayload(repo, command);
  // A Write is where a file lease is checked and taken (the same session each run, so the lease is its own).
  const write = JSON.stringify({
    session_id: "bench-session",
    cwd: repo,
    hook_event_name: "PreToolUse",
    permission_mode: "default",
    tool_name: "Write",
    tool_input: { file_path: `${repo}/src/bench.ts`, content: "export {};\n" },
    tool_use_id: "toolu_bench_write",
  });
  const hook = [memnox, "hook", "claude-code", "PreToolUse"];
  // Twenty recorded decisions binding this repository: what the gate reads (one small file) when memory has some.
  const memory = join(dir, "memory-with-decisions");
  mkdirSync(memory, { recursive: true });
  const project = projectIdAt(repo);
  const statements = Array.from({ length: 20 }, (_, i) => `We never touch subsystem${i} without a review`);
  const decisions = statements.map((statement, i) => ({
    slug: `decision-${i}`,
    statement,
    file: join(memory, `decision-${i}.md`),
    project_id: project,
    valid_from: null,
    valid_until: null,
    terms: decisionTerms(statement),
  }));
  writeFileSync(join(memory, DECISIONS_FILE), renderDecisions(decisions, "2026-01-01T00:00:00Z"));
  const withDecisions = { ...env, MEMNOX_MEMORY_DIR: memory };
  const t = await interleave(RUNS, {
    floor: () => once([floor], { env, cwd: repo, stdin: payload("git status") }),
    allow: () => once(hook, { env, cwd: repo, stdin: payload("git status") }),
    deny: () => once(hook, { env, cwd: repo, stdin: payload("git push --force origin main") }),
    decisions: () => once(hook, { env: withDecisions, cwd: repo, stdin: payload("git commit -m wip") }),
    write: () => once(hook, { env, cwd: repo, stdin: write }),
  });
  const floorT = t.floor ?? [];
  console.log(`runs: ${RUNS} each, interleaved; baseline rules, enforce`);
  console.log(row("floor (stdin -> {})", floorT));
  for (const k of ["allow", "deny", "decisions", "write"] as const) {
    const xs = t[k] ?? [];
    console.log(row(`hook PreToolUse (${k})`, xs));
    console.log(
      `  ratio p50 ${(pct(xs, 50) / pct(floorT, 50)).toFixed(2)}x   p99 ${(pct(xs, 99) / pct(floorT, 99)).toFixed(2)}x`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The Claude Code PreToolUse round trip of the compiled binary under the baseline rules (payload on stdin -> answer
// on stdout), p50 and p99, as a ratio to a floor binary built the same way in the same run. Each hook run is paired
// with a floor run next to it (the order alternating), so load that comes and goes falls on both halves of a pair:
// the ratio of the percentiles and the median of the pairs' own ratios are both printed, with the load around them.
// Measured twice: decided in the hook's own process, and with the daemon running (what setup leaves) answering.
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { build, hostTarget } from "../build.ts";
import { DECISIONS_FILE, decisionTerms, renderDecisions } from "../src/core/decisions.ts";
import { projectIdAt } from "../src/io/project-id.ts";
import { baselineHome, bashPayload, floorBinary, once, pct, row } from "./support.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 150);
const GOAL = 1.15;

const memnox = await build(hostTarget(), true);
const { dir, env, repo } = await baselineHome(memnox, "enforce");
let daemon: ReturnType<typeof Bun.spawn> | undefined;
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
  const floorRun = () => once([floor], { env, cwd: repo, stdin: payload("git status") });
  const kinds = {
    allow: () => once(hook, { env, cwd: repo, stdin: payload("git status") }),
    deny: () => once(hook, { env, cwd: repo, stdin: payload("git push --force origin main") }),
    decisions: () => once(hook, { env: withDecisions, cwd: repo, stdin: payload("git commit -m wip") }),
    write: () => once(hook, { env, cwd: repo, stdin: write }),
  };
  console.log(`runs: ${RUNS} pairs each; baseline rules, enforce; ${cpus().length} cores; goal <= ${GOAL}x`);
  await report("decided in the hook's process", floorRun, kinds);
  // What setup leaves running: the daemon answers, the hook resolves the call and sends the facts.
  daemon = Bun.spawn([memnox, "daemon"], { env, cwd: dir, stdio: ["ignore", "ignore", "ignore"] });
  await socketAt(join(env.MEMNOX_HOME ?? "", "memnox.sock"));
  // The outcome of an allowed call: its PreToolUse run first (not timed), then the PostToolUse the agent sends after.
  let call = 0;
  const post = async () => {
    const id = `toolu_bench_post_${call++}`;
    const pre = { ...JSON.parse(payload("git status")), tool_use_id: id };
    await once(hook, { env, cwd: repo, stdin: JSON.stringify(pre) });
    const done = { ...pre, hook_event_name: "PostToolUse", tool_response: { stdout: "clean", stderr: "" } };
    return once([memnox, "hook", "claude-code", "PostToolUse"], { env, cwd: repo, stdin: JSON.stringify(done) });
  };
  await report("answered by the running daemon", floorRun, { allow: kinds.allow, deny: kinds.deny, "post-tool": post });
} finally {
  daemon?.kill();
  await daemon?.exited;
  rmSync(dir, { recursive: true, force: true });
}

async function report(title: string, floorRun: () => Promise<number>, kinds: Record<string, () => Promise<number>>) {
  const before = loadavg();
  const t = await pairs(RUNS, floorRun, kinds);
  const after = loadavg();
  console.log(`\n${title} (load average ${fmt(before)} before, ${fmt(after)} after)`);
  for (const [k, p] of Object.entries(t)) {
    console.log(row(`floor, paired with ${k}`, p.floor));
    console.log(row(`hook ${k === "post-tool" ? "PostToolUse" : `PreToolUse (${k})`}`, p.hook));
    const r50 = pct(p.hook, 50) / pct(p.floor, 50);
    const r99 = pct(p.hook, 99) / pct(p.floor, 99);
    const mark = (r: number) => (r <= GOAL ? "" : " (over the goal)");
    console.log(
      `  ratio p50 ${r50.toFixed(2)}x${mark(r50)}   p99 ${r99.toFixed(2)}x${mark(r99)}   pairs' own ratio p50 ${pct(p.ratios, 50).toFixed(2)}x p99 ${pct(p.ratios, 99).toFixed(2)}x`,
    );
  }
}

/** Each run of each kind beside a floor run, alternating which goes first; a few of each first to warm caches. */
async function pairs(
  runs: number,
  floorRun: () => Promise<number>,
  kinds: Record<string, () => Promise<number>>,
): Promise<Record<string, { floor: number[]; hook: number[]; ratios: number[] }>> {
  const out: Record<string, { floor: number[]; hook: number[]; ratios: number[] }> = {};
  for (const [name, run] of Object.entries(kinds)) {
    out[name] = { floor: [], hook: [], ratios: [] };
    for (let i = 0; i < 5; i++) {
      await run();
      await floorRun();
    }
  }
  for (let i = 0; i < runs; i++) {
    for (const [name, run] of Object.entries(kinds)) {
      const p = out[name];
      if (!p) continue;
      let h: number;
      let f: number;
      if (i % 2) {
        h = await run();
        f = await floorRun();
      } else {
        f = await floorRun();
        h = await run();
      }
      p.hook.push(h);
      p.floor.push(f);
      p.ratios.push(h / f);
    }
  }
  return out;
}

function fmt(l: readonly number[]): string {
  return l.map((x) => x.toFixed(2)).join(" ");
}

async function socketAt(path: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (statSync(path, { throwIfNoEntry: false })) return;
    await Bun.sleep(25);
  }
  throw new Error(`the daemon did not open ${path}`);
}

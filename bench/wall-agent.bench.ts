// What the agent wall costs each shell command, as ratios to the same command unwrapped in the same run: the line
// Claude Code hands its shell (snapshot sourced, the command evaluated, the directory written back) run plainly, through
// the perl applier (the fresh plan raised), and through the binary's own applier (planned again, then raised).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build, hostTarget } from "../build.ts";
import { landlockAbi } from "../src/wall/ffi.ts";
import { interleave, once, pct, row } from "./support.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
if (landlockAbi() < 1) {
  console.log("this kernel has no Landlock: nothing to measure");
  process.exit(0);
}
const memnox = await build(hostTarget(), true);
// A home outside temp: the wall writes temp, and a home inside it could not be held apart from it.
const base = resolve(import.meta.dir, "..", ".cache");
mkdirSync(base, { recursive: true });
const dir = mkdtempSync(join(base, "bench-wall-"));
try {
  const home = join(dir, "home");
  const repo = join(dir, "repo");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_ed25519"), "bench key\n");
  writeFileSync(join(home, ".bashrc"), "# bench\n");
  mkdirSync(repo);
  Bun.spawnSync(["git", "init", "-q", repo]);
  // A checkout with an untracked .env: its commands each get a mount namespace covering it.
  const covered = join(dir, "covered");
  mkdirSync(covered);
  Bun.spawnSync(["git", "init", "-q", covered]);
  writeFileSync(join(covered, ".env"), "TOKEN=bench\n");
  const env = {
    HOME: home,
    MEMNOX_HOME: join(home, ".memnox"),
    MEMNOX_CLAUDE_MANAGED_DIR: join(dir, "managed"),
    PATH: process.env.PATH ?? "",
    TZ: "Etc/UTC",
  };
  for (const step of [
    ["setup", "--yes"],
    ["config", "set", "mode", "enforce"],
  ])
    Bun.spawnSync([memnox, ...step], { env, cwd: repo });
  Bun.spawnSync([memnox, "protect", "--wall"], { env, cwd: covered });
  const applier = join(home, ".memnox", "app", "memnox-wall");
  const snapshot = join(dir, "snapshot.sh");
  writeFileSync(snapshot, "alias ll='ls -l'\n");
  // The string Claude Code 2.1.197 hands its shell for one Bash call (observed), with `git status` as the command.
  const line = `source ${snapshot} 2>/dev/null || true && eval 'git status --short' < /dev/null && pwd -P >| ${join(dir, "cwd")}`;
  const t = await interleave(RUNS, {
    plain: () => once(["/bin/bash", "-c", line], { env, cwd: repo }),
    perl: () => once([applier, line], { env, cwd: repo }),
    "perl+ns": () => once([applier, line], { env, cwd: covered }),
    binary: () => once([memnox, "wall", "agent", line], { env, cwd: repo }),
  });
  const r = (a: string, b: string, p: number) => (pct(t[a] ?? [], p) / pct(t[b] ?? [], p)).toFixed(2);
  console.log(
    `runs: ${RUNS} each, interleaved; Landlock ABI ${landlockAbi()}; the command: git status in a repository`,
  );
  for (const [k, xs] of Object.entries(t)) console.log(row(k, xs));
  console.log(
    `walled by the perl applier / unwalled     p50 ${r("perl", "plain", 50)}x   p99 ${r("perl", "plain", 99)}x`,
  );
  console.log(
    `walled, own namespace (.env covered)       p50 ${r("perl+ns", "plain", 50)}x   p99 ${r("perl+ns", "plain", 99)}x`,
  );
  console.log(
    `walled by the binary's applier / unwalled p50 ${r("binary", "plain", 50)}x   p99 ${r("binary", "plain", 99)}x`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// What the kernel wall costs at start, as ratios to a same-run baseline: the agent started through `memnox wall`
// (restrict this thread, then exec) against the same program spawned plainly; and the governed shell running a
// line with the machine's guard raised in its own thread before the spawn, against the same shell without it.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, hostTarget } from "../build.ts";
import { untrustedWall } from "../src/wall/description.ts";
import { realDisk } from "../src/wall/disk.ts";
import { landlockAbi } from "../src/wall/ffi.ts";
import { claims } from "../src/wall/held.ts";
import { landlockPlan } from "../src/wall/landlock.ts";
import { baselineHome, floorBinary, interleave, once, pct, row } from "./support.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 100);

const abi = landlockAbi();
if (abi < 1) {
  console.log("this kernel has no Landlock: nothing to measure");
  process.exit(0);
}
const memnox = await build(hostTarget(), true);
const { dir, env, repo } = await baselineHome(memnox, "observe");
try {
  const home = env.HOME ?? "";
  const wall = untrustedWall({
    home,
    memnoxRoot: env.MEMNOX_HOME ?? "",
    memnoxKeys: [],
    repo,
    gitDirs: [],
    temps: ["/tmp", "/var/tmp"],
    agentState: [],
    secrets: [".ssh", ".aws", ".bashrc", ".config/gh"].map((p) => ({ path: join(home, p), why: "bench" })),
    kept: [],
    socket: join(env.MEMNOX_HOME ?? "", "memnox.sock"),
    proxy: { url: "http://127.0.0.1:9", port: 9, through: [] },
  });
  const kernel = { kind: "landlock" as const, abi };
  const plan = landlockPlan(wall, abi, realDisk);
  const file = join(dir, "wall.json");
  const record = { version: 1, session: "bench", agent: "bench", startedAt: "", kernel, wall, plan, costs: [] };
  writeFileSync(file, JSON.stringify({ ...record, claims: claims(wall, kernel) }));
  const guardFile = join(env.MEMNOX_HOME ?? "", "guard", "os-guard.json");
  Bun.spawnSync([memnox, "protect", "--os-guard"], { env, cwd: repo });
  const written = readFileSync(guardFile, "utf8");
  const shell = (on: boolean) => (on ? writeFileSync(guardFile, written) : rmSync(guardFile, { force: true }));
  const floor = await floorBinary(dir);
  const t = await interleave(RUNS, {
    plain: () => once(["/bin/true"], { env, cwd: repo }),
    floor: () => once([floor], { env, cwd: repo }),
    walled: () => once([memnox, "wall", file, "--", "/bin/true"], { env, cwd: repo }),
    shell: async () => {
      shell(false);
      return once([memnox, "shell", "-c", "true"], { env, cwd: repo });
    },
    shellGuarded: async () => {
      shell(true);
      return once([memnox, "shell", "-c", "true"], { env, cwd: repo });
    },
  });
  const r = (a: string, b: string, p: number) => (pct(t[a] ?? [], p) / pct(t[b] ?? [], p)).toFixed(2);
  console.log(`runs: ${RUNS} each, interleaved; Landlock ABI ${abi}, ${plan.paths.length} path rules`);
  for (const [k, xs] of Object.entries(t)) console.log(row(k, xs));
  console.log(
    `memnox wall / a floor Bun binary          p50 ${r("walled", "floor", 50)}x   p99 ${r("walled", "floor", 99)}x`,
  );
  console.log(
    `agent through memnox wall / plain spawn  p50 ${r("walled", "plain", 50)}x   p99 ${r("walled", "plain", 99)}x`,
  );
  console.log(
    `governed shell with guard / without      p50 ${r("shellGuarded", "shell", 50)}x   p99 ${r("shellGuarded", "shell", 99)}x`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

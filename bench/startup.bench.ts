// `memnox policy test 'git status'` end to end, and the overhead a PATH wrapper adds to `git --version`, each as a
// ratio to a same-run baseline: a compiled floor binary, and git called directly.
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { build, hostTarget } from "../build.ts";
import { baselineHome, floorBinary, interleave, once, pct, row } from "./support.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 100);

const memnox = await build(hostTarget(), true);
const { dir, env, repo } = await baselineHome(memnox, "enforce");
try {
  const floor = await floorBinary(dir);
  const bin = join(env.MEMNOX_HOME ?? "", "bin");
  mkdirSync(bin, { recursive: true });
  symlinkSync(memnox, join(bin, "git"));
  const realGit = Bun.which("git") ?? "git";
  const wrapped = { ...env, PATH: `${bin}:${env.PATH}` };
  const t = await interleave(RUNS, {
    floor: () => once([floor], { env, cwd: repo }),
    policyTest: () => once([memnox, "policy", "test", "git status"], { env, cwd: repo }),
    gitDirect: () => once([realGit, "--version"], { env, cwd: repo }),
    gitWrapped: () => once([join(bin, "git"), "--version"], { env: wrapped, cwd: repo }),
    // On a terminal of its own (script) with no agent above: a person's own command, against git on the same terminal.
    gitDirectTty: () => once(["script", "-qec", `${realGit} --version`, "/dev/null"], { env, cwd: repo }),
    gitPersonTty: () =>
      once(["script", "-qec", `${join(bin, "git")} --version`, "/dev/null"], { env: wrapped, cwd: repo }),
  });
  const r = (a: string, b: string, p: number) => (pct(t[a] ?? [], p) / pct(t[b] ?? [], p)).toFixed(2);
  console.log(`runs: ${RUNS} each, interleaved; baseline rules, enforce`);
  for (const [k, xs] of Object.entries(t)) console.log(row(k, xs));
  console.log(`policy test / floor      p50 ${r("policyTest", "floor", 50)}x   p99 ${r("policyTest", "floor", 99)}x`);
  console.log(
    `git via wrapper / direct p50 ${r("gitWrapped", "gitDirect", 50)}x   p99 ${r("gitWrapped", "gitDirect", 99)}x`,
  );
  console.log(
    `a person's git / direct   p50 ${r("gitPersonTty", "gitDirectTty", 50)}x   p99 ${r("gitPersonTty", "gitDirectTty", 99)}x (both on a terminal)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

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
  });
  // With the daemon setup leaves running, on a terminal of its own (script): a person's own git (no agent above),
  // the same git from an agent's seat (CLAUDECODE set), and git alone on the same kind of terminal.
  const daemon = Bun.spawn([memnox, "daemon"], { env: { ...env, MEMNOX_EGRESS_PORT: "0" }, stderr: "pipe" });
  for await (const chunk of daemon.stderr) if (new TextDecoder().decode(chunk).includes("daemon ready")) break;
  const onTerminal = (line: string, e: Record<string, string>) =>
    once(["script", "-qec", line, "/dev/null"], { env: e, cwd: repo });
  const tty = await interleave(RUNS, {
    gitDirectTty: () => onTerminal(`${realGit} --version`, env),
    gitPersonTty: () => onTerminal(`${join(bin, "git")} --version`, wrapped),
    gitAgentTty: () => onTerminal(`${join(bin, "git")} --version`, { ...wrapped, CLAUDECODE: "1" }),
  });
  daemon.kill();
  await daemon.exited;
  Object.assign(t, tty);
  const r = (a: string, b: string, p: number) => (pct(t[a] ?? [], p) / pct(t[b] ?? [], p)).toFixed(2);
  console.log(`runs: ${RUNS} each, interleaved; baseline rules, enforce`);
  for (const [k, xs] of Object.entries(t)) console.log(row(k, xs));
  console.log(`policy test / floor      p50 ${r("policyTest", "floor", 50)}x   p99 ${r("policyTest", "floor", 99)}x`);
  console.log(
    `git via wrapper / direct p50 ${r("gitWrapped", "gitDirect", 50)}x   p99 ${r("gitWrapped", "gitDirect", 99)}x`,
  );
  console.log(
    `a person's git / direct  p50 ${r("gitPersonTty", "gitDirectTty", 50)}x   p99 ${r("gitPersonTty", "gitDirectTty", 99)}x (on a terminal, daemon up)`,
  );
  console.log(
    `an agent's git / direct  p50 ${r("gitAgentTty", "gitDirectTty", 50)}x   p99 ${r("gitAgentTty", "gitDirectTty", 99)}x (on a terminal, daemon up)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// A machine governed the way setup leaves it, with the compiled binary: the whole baseline in the machine file,
// enforce sealed; a repository with a real bare origin that only a force push could rewrite; and an agent's seat.
import { chmodSync, copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../src/ports/index.ts";
import { compiledBinary, type RunResult, runBinary, runProcess } from "./binary.ts";
import { type TempDir, tempDir } from "./fs.ts";
import { type GitRepo, gitRepo } from "./git.ts";
import { type FakeHome, fakeHome } from "./home.ts";

export interface Governed extends Disposable {
  readonly home: FakeHome;
  readonly bin: string;
  /** The hermetic environment, memnox's interceptors first on PATH when `intercepted`. */
  env(extra?: Env, intercepted?: boolean): Record<string, string>;
  memnox(args: readonly string[], opts?: { cwd?: string; env?: Env; stdin?: string }): ReturnType<typeof runBinary>;
}

/** `protect --yes` then `config set mode enforce`: the baseline machine-wide and enforce sealed, as after setup. */
export async function governedMachine(): Promise<Governed> {
  const home = fakeHome();
  const bin = await compiledBinary();
  const binDir = join(home.memnoxHome, "bin");
  mkdirSync(binDir, { recursive: true });
  for (const name of ["git", "rm", "memnox-shell", "memnox-bash"]) symlinkSync(bin, join(binDir, name));
  const env = (extra: Env = {}, intercepted = false) =>
    home.env({ ...(intercepted ? { PATH: `${binDir}:${process.env.PATH ?? ""}` } : {}), ...extra });
  const memnox: Governed["memnox"] = (args, opts = {}) =>
    runBinary("memnox", args, {
      env: { ...env(), ...opts.env },
      cwd: opts.cwd ?? home.home,
      ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}),
    });
  for (const args of [
    ["protect", "--yes"],
    ["config", "set", "mode", "enforce"],
  ]) {
    const r = await memnox(args);
    if (r.code !== 0) throw new Error(`memnox ${args.join(" ")} failed: ${r.stderr}`);
  }
  return { home, bin, env, memnox, [Symbol.dispose]: () => home[Symbol.dispose]() };
}

export interface Pushable extends Disposable {
  readonly repo: GitRepo;
  readonly remote: TempDir;
  /** The origin's main, as a real `git rev-parse` reads it. */
  remoteHead(): string;
  /** Rewrites local history so the next push to origin needs --force. */
  diverge(): void;
}

/** A repository whose main is pushed to a real bare origin. */
export function pushable(tree: Record<string, string> = { "README.md": "one\n" }): Pushable {
  const remote = tempDir("memnox-origin");
  Bun.spawnSync(["git", "init", "-q", "--bare", "-b", "main", remote.path]);
  const repo = gitRepo(tree);
  repo.git("remote", "add", "origin", remote.path);
  repo.git("push", "-q", "origin", "main");
  const remoteHead = () => Bun.spawnSync(["git", "-C", remote.path, "rev-parse", "main"]).stdout.toString().trim();
  return {
    repo,
    remote,
    remoteHead,
    diverge: () => repo.git("commit", "-q", "--amend", "--allow-empty", "-m", `amended ${Math.random()}`),
    [Symbol.dispose]: () => {
      repo[Symbol.dispose]();
      remote[Symbol.dispose]();
    },
  };
}

/**
 * A stand-in for an agent's process: bash, run under the name `claude`, so every process it starts has an agent
 * among its parents exactly as under the real CLI. `script` runs with no variable an agent would set. `bin` is that
 * bash of its own, for `memnox run -- <bin> -c …`, which starts it as an agent (a command it is handed otherwise is
 * judged first).
 */
export function agentSeat(): TempDir & { bin: string; run(script: string, env: Env, cwd?: string): Promise<AgentRun> } {
  const dir = tempDir("memnox-agent");
  const claude = join(dir.path, "claude");
  symlinkSync("/bin/bash", claude);
  // A link to bash is bash to `memnox run` (it follows the name to the program): a program of its own is an agent.
  const own = join(dir.path, "own", "claude");
  mkdirSync(join(dir.path, "own"));
  copyFileSync("/bin/bash", own);
  chmodSync(own, 0o755);
  return {
    ...dir,
    bin: own,
    async run(script, env, cwd) {
      // The agent stays alive above what it runs, as the real CLI does (a last command would otherwise replace it).
      return runProcess([claude, "-c", `${script}\nstatus=$?\nexit $status`], {
        env,
        cwd: cwd ?? env.HOME ?? dir.path,
      });
    },
  };
}

export type AgentRun = RunResult;

/** A FIFO at `path`, made with the real mkfifo. */
export function fifo(path: string): void {
  const r = Bun.spawnSync(["mkfifo", path]);
  if (r.exitCode !== 0) throw new Error(`mkfifo ${path} failed`);
}

/** Ledger rows as `timeline --json` lists them. */
export async function rows(
  g: Governed,
  cwd?: string,
): Promise<{ operation: string; effect?: string; surface: string; reason?: string }[]> {
  const r = await g.memnox(["timeline", "--json", "--since", "all"], cwd ? { cwd } : {});
  return (
    JSON.parse(r.stdout) as { events: { operation: string; effect?: string; surface: string; reason?: string }[] }
  ).events;
}

// A fake HOME with its own MEMNOX_HOME, and the hermetic environment a child process gets.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bunGit, bunProc, ownGit } from "../../src/adapters/proc.ts";
import { bufferStdio } from "../../src/adapters/stdio.ts";
import type { Context } from "../../src/ports/context.ts";
import type { Clock, Env } from "../../src/ports/index.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import { type TempDir, type Tree, tempDir } from "./fs.ts";

export interface FakeHome extends TempDir {
  readonly home: string;
  readonly memnoxHome: string;
  /** A hermetic environment pointing at this home. */
  env(extra?: Env): Record<string, string>;
}

export function fakeHome(tree: Tree = {}, base?: string): FakeHome {
  const dir = tempDir("memnox-home", tree, base);
  const memnoxHome = join(dir.path, ".memnox");
  mkdirSync(memnoxHome, { recursive: true });
  // Setup and the first hook start a daemon where no service manager runs: it goes with the home.
  const dispose = () => {
    stopDaemonOf(memnoxHome);
    dir[Symbol.dispose]();
  };
  return {
    ...dir,
    [Symbol.dispose]: dispose,
    [Symbol.asyncDispose]: async () => dispose(),
    home: dir.path,
    memnoxHome,
    env: (extra = {}) => hermeticEnv({ HOME: dir.path, MEMNOX_HOME: memnoxHome, ...extra }),
  };
}

/** Ends a daemon a test started in this home (its pid file), so none outlives the test. */
export function stopDaemonOf(memnoxHome: string): void {
  let pid: number;
  try {
    pid = Number(readFileSync(join(memnoxHome, "daemon.pid"), "utf8").trim());
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    Bun.sleepSync(10);
  }
}

/** Only what a child needs, so nothing from the developer's environment leaks into a test. */
export function hermeticEnv(env: Env): Record<string, string> {
  const base: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    TZ: "Etc/UTC",
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    GIT_CONFIG_NOSYSTEM: "1",
    MEMNOX_CLAUDE_MANAGED_DIR: process.env.MEMNOX_CLAUDE_MANAGED_DIR,
    GIT_AUTHOR_NAME: "Test",
    GIT_AUTHOR_EMAIL: "test@example.invalid",
    GIT_COMMITTER_NAME: "Test",
    GIT_COMMITTER_EMAIL: "test@example.invalid",
    ...env,
  };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) out[k] = v;
  return out;
}

export interface TestContextOptions {
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly stdin?: string;
  readonly tty?: boolean;
  readonly now?: number;
  readonly env?: Env;
  readonly argv0?: string;
}

/** An in-process Context on a fake home, with captured stdout/stderr. */
export function testContext(home: FakeHome, opts: TestContextOptions = {}) {
  const env = home.env(opts.env);
  const io = bufferStdio(opts.stdin ?? "", opts.tty ?? false);
  let now = opts.now ?? Date.parse("2026-11-30T12:00:00.000Z");
  const clock: Clock & { advance(ms: number): void } = {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
  const ctx: Context = {
    argv0: opts.argv0 ?? "memnox",
    args: opts.args ?? [],
    env,
    cwd: opts.cwd ?? home.home,
    startedAt: now,
    clock,
    paths: memnoxPaths(env),
    io,
    proc: bunProc(),
    git: bunGit(env, ownGit(memnoxPaths(env), process.execPath)),
    notify: { notice: async () => {} },
    version: "0.0.0-test",
    execPath: process.execPath,
    selfArgv: [process.execPath, join(import.meta.dir, "..", "..", "bin", "memnox.ts")],
  };
  return { ctx, io, clock };
}

// Children run to completion with captured output.
import { realOr } from "../io/real.ts";
import { ownProgram, pathWithout } from "../io/real-binary.ts";
import type { Git, Proc, RunOptions, RunResult } from "../ports/index.ts";

export function bunProc(): Proc {
  return { run: runCaptured };
}

async function runCaptured(argv: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const input = opts.input === undefined ? "ignore" : new Blob([opts.input]);
  const child = Bun.spawn([...argv], {
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    ...(opts.env ? { env: definedOnly(opts.env) } : {}),
    stdin: input,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).bytes(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

interface OwnGit {
  /** `~/.memnox/bin`, where memnox's own interceptors are: never run, and off the PATH git's children see. */
  readonly interceptors: string;
  /** `paths.gitExec`, the copy of git's exec path whose `git` is the interceptor: never run, never inherited. */
  readonly gitExec: string;
  /** `paths.realBinaries`: the git found when the interceptors were installed. */
  readonly recorded: string;
  /** This executable, which is never git. */
  readonly self: string;
}

/** Where memnox's own git comes from, for a home's paths. */
export function ownGit(
  paths: { readonly bin: string; readonly gitExec: string; readonly realBinaries: string },
  self: string,
): OwnGit {
  return { interceptors: paths.bin, gitExec: paths.gitExec, recorded: paths.realBinaries, self };
}

/**
 * memnox's own git (milestones, rewind, branch and hook probes): the real git resolved at install, never one
 * through `~/.memnox/bin`, so memnox's plumbing never meets its own interceptor or rules, and is never an agent's
 * action. `core.fsmonitor` is off: a hook an agent configured must not run inside memnox's own calls. Called from
 * under an intercepted git (a hook), the exec-path copy is dropped too, or git's own children would meet the gate.
 * `baseEnv` is the environment git runs in unless a call passes its own.
 */
export function bunGit(baseEnv: Readonly<Record<string, string | undefined>>, own: OwnGit): Git {
  let program: string | undefined;
  return {
    run: (args, opts) => {
      const env = opts.env ?? baseEnv;
      const skip = [own.interceptors, own.gitExec];
      program ??= ownProgram("git", { ...own, skip, pathVar: env.PATH });
      if (!program) throw new Error(`no git on this machine outside ${own.interceptors}`);
      const { GIT_EXEC_PATH, ...rest } = env;
      const execPath = GIT_EXEC_PATH && realOr(GIT_EXEC_PATH) !== realOr(own.gitExec) ? { GIT_EXEC_PATH } : {};
      return runCaptured([program, "-c", "core.fsmonitor=false", ...args], {
        ...opts,
        env: { ...rest, ...execPath, PATH: pathWithout(env.PATH, skip), GIT_TERMINAL_PROMPT: "0" },
      });
    },
  };
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

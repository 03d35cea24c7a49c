// Children run to completion with captured output.
import { ownProgram, pathWithout } from "../io/real-binary.ts";
import type { Git, Proc, RunOptions, RunResult } from "../ports/index.ts";

export function bunProc(): Proc {
  return { run: runCaptured };
}

export async function runCaptured(argv: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
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

export interface OwnGit {
  /** `~/.memnox/bin`, where memnox's own interceptors are: never run, and off the PATH git's children see. */
  readonly interceptors: string;
  /** `paths.realBinaries`: the git found when the interceptors were installed. */
  readonly recorded: string;
  /** This executable, which is never git. */
  readonly self: string;
}

/** Where memnox's own git comes from, for a home's paths. */
export function ownGit(paths: { readonly bin: string; readonly realBinaries: string }, self: string): OwnGit {
  return { interceptors: paths.bin, recorded: paths.realBinaries, self };
}

/**
 * memnox's own git (milestones, rewind, branch and hook probes): the real git resolved at install, never one
 * through `~/.memnox/bin`, so memnox's plumbing never meets its own interceptor or rules, and is never an agent's
 * action. `core.fsmonitor` is off: a hook an agent configured must not run inside memnox's own calls.
 * `baseEnv` is the environment git runs in unless a call passes its own.
 */
export function bunGit(baseEnv: Readonly<Record<string, string | undefined>>, own: OwnGit): Git {
  let program: string | undefined;
  return {
    run: (args, opts) => {
      const env = opts.env ?? baseEnv;
      program ??= ownProgram("git", { ...own, pathVar: env.PATH });
      if (!program) throw new Error(`no git on this machine outside ${own.interceptors}`);
      return runCaptured([program, "-c", "core.fsmonitor=false", ...args], {
        ...opts,
        env: { ...env, PATH: pathWithout(env.PATH, [own.interceptors]), GIT_TERMINAL_PROMPT: "0" },
      });
    },
  };
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

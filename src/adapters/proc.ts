// Children run to completion with captured output.
import { findRealBinary } from "../io/real-binary.ts";
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

/**
 * `baseEnv` is the environment git runs in unless a call passes its own. memnox's own git never starts from
 * `skipDirs` (~/.memnox/bin, where the git interceptor stands): the real one, found once, on first use.
 */
export function bunGit(baseEnv: Readonly<Record<string, string | undefined>>, skipDirs: readonly string[] = []): Git {
  let git: string | undefined;
  const real = () => {
    git ??= skipDirs.length > 0 ? (findRealBinary("git", baseEnv.PATH, skipDirs, process.execPath) ?? "git") : "git";
    return git;
  };
  return {
    run: (args, opts) =>
      runCaptured([real(), ...args], { ...opts, env: { ...(opts.env ?? baseEnv), GIT_TERMINAL_PROMPT: "0" } }),
  };
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

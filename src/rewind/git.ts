// Every git call rewind makes, through the Git port, with no optional locks so the real index is never rewritten.
import { MemnoxError } from "../core/errors.ts";
import type { RunResult } from "../ports/index.ts";
import type { RewindDeps } from "./types.ts";

export type GitDeps = Pick<RewindDeps, "git" | "env">;

interface GitCall {
  /** A scratch index file; without it git uses whatever index the environment names. */
  readonly index?: string;
  readonly input?: string | Uint8Array;
}

export async function gitRaw(
  deps: GitDeps,
  cwd: string,
  args: readonly string[],
  call: GitCall = {},
): Promise<RunResult> {
  const env = { ...deps.env, GIT_OPTIONAL_LOCKS: "0", ...(call.index ? { GIT_INDEX_FILE: call.index } : {}) };
  try {
    return await deps.git.run(args, { cwd, env, ...(call.input !== undefined ? { input: call.input } : {}) });
  } catch (e) {
    throw new MemnoxError("io", `could not run git in \`${cwd}\`: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** stdout as text; a non-zero exit is an error naming the git command and its first complaint. */
export async function gitText(
  deps: GitDeps,
  cwd: string,
  args: readonly string[],
  call: GitCall = {},
): Promise<string> {
  const r = await gitRaw(deps, cwd, args, call);
  if (r.code !== 0) throw gitFailed(cwd, args, r.stderr);
  return new TextDecoder().decode(r.stdout);
}

function gitFailed(cwd: string, args: readonly string[], stderr: string): MemnoxError {
  const verb = args.find((a) => !a.startsWith("-") && !a.includes("=")) ?? "";
  const said = stderr
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return new MemnoxError("io", `git ${verb} failed in \`${cwd}\`${said ? `: ${said}` : ""}`);
}

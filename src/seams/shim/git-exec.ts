// git puts its exec path (/usr/lib/git-core) first on PATH for every child it starts: a hook, a `!` alias, the
// fsmonitor, an editor or a pager calling `git` reaches the real git there, never the interceptor. So the real git
// is started with GIT_EXEC_PATH at a copy of that directory (links to every entry) whose `git` is the interceptor.
// git's own plumbing (pack-objects under a push, gc under a commit) is then started by git itself and passed through.
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { Context } from "../../ports/context.ts";

const MARKER = ".memnox-source";

function identity(path: string): string | undefined {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process that started this one is git itself (its own plumbing, not a hook's command): the real
 * binary, or the copy of it in its exec path that `git-receive-pack` and the other dashed forms run as.
 */
export function startedByGit(gits: readonly string[], ppid: number): boolean {
  if (process.platform !== "linux") return false;
  try {
    const parent = statSync(`/proc/${ppid}/exe`);
    return gits.some((g) => {
      try {
        const st = statSync(g);
        return st.dev === parent.dev && st.ino === parent.ino;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

interface GitExec {
  /** What GIT_EXEC_PATH is set to for the real git. */
  readonly dir: string;
  /** The real exec path it copies. */
  readonly real: string;
}

/** The interceptor as it is installed in ~/.memnox/bin, to copy: a link to the binary, or the source launcher. */
function copyInterceptor(from: string, to: string): boolean {
  try {
    const st = lstatSync(from);
    if (st.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else copyFileSync(from, to);
    return true;
  } catch {
    return false;
  }
}

function realExecPath(realGit: string, env: Context["env"]): string | undefined {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && k !== "GIT_EXEC_PATH") clean[k] = v;
  const r = Bun.spawnSync([realGit, "--exec-path"], { env: clean, stdout: "pipe", stderr: "ignore" });
  const out = r.stdout.toString().trim();
  return r.exitCode === 0 && out.startsWith("/") ? out : undefined;
}

/**
 * The directory to hand the real git as GIT_EXEC_PATH, built (or rebuilt after git changed) on first use; undefined
 * where it cannot be (not Linux, no installed interceptor to copy, an exec path git will not tell).
 */
export function gitExecDir(ctx: Context, realGit: string): GitExec | undefined {
  if (process.platform !== "linux") return undefined;
  const farm = ctx.paths.gitExec;
  const interceptor = join(ctx.paths.bin, "git");
  const want = `${realGit}\n${identity(realGit) ?? ""}\n${identity(interceptor) ?? ""}\n`;
  try {
    const marker = readFileSync(join(farm, MARKER), "utf8");
    if (marker.startsWith(want) && existsSync(join(farm, "git"))) return { dir: farm, real: marker.slice(want.length) };
  } catch {
    // not built yet, or built for another git
  }
  const exec = realExecPath(realGit, ctx.env);
  if (!exec) return undefined;
  const tmp = `${farm}.${process.pid}`;
  try {
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(exec)) if (name !== "git") symlinkSync(join(exec, name), join(tmp, name));
    if (!copyInterceptor(interceptor, join(tmp, "git"))) {
      rmSync(tmp, { recursive: true, force: true });
      return undefined;
    }
    writeFileSync(join(tmp, MARKER), `${want}${exec}`, { mode: 0o600 });
    const old = `${farm}.old.${process.pid}`;
    if (existsSync(farm)) renameSync(farm, old);
    renameSync(tmp, farm);
    rmSync(old, { recursive: true, force: true });
    return { dir: farm, real: exec };
  } catch {
    // Another interceptor built it at the same moment: use theirs.
    rmSync(tmp, { recursive: true, force: true });
    return existsSync(join(farm, "git")) ? { dir: farm, real: exec } : undefined;
  }
}

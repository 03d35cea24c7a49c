// Where a checkout starts and which branch it is on, read from .git directly so a hook starts no git process
// (and only from regular files: a FIFO put in place of .git/HEAD must not hang a hook).
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readRegularFile } from "./files.ts";

/**
 * The nearest directory at or above `cwd` holding `.git` (a directory, or a file for worktrees), never climbing into
 * a directory GIT_CEILING_DIRECTORIES names, as git itself does not.
 */
export function repoRoot(cwd: string, env: Readonly<Record<string, string | undefined>> = {}): string | undefined {
  const ceilings = (env.GIT_CEILING_DIRECTORIES ?? "").split(":").filter((c) => c.startsWith("/"));
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const up = dirname(dir);
    if (up === dir || ceilings.some((c) => resolve(c) === up)) return undefined;
    dir = up;
  }
}

/** The git directory of a checkout, following a worktree's `.git` file. */
export function gitDir(root: string): string | undefined {
  const dotGit = join(root, ".git");
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+)\s*$/m.exec(readRegularFile(dotGit, 65536).toString("utf8"));
    return m?.[1] ? resolve(root, m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The checked-out branch at `cwd`, or undefined when detached or not in a checkout. */
export function currentBranch(cwd: string): string | undefined {
  const root = repoRoot(cwd);
  const dir = root ? gitDir(root) : undefined;
  if (!dir) return undefined;
  try {
    const m = /^ref: refs\/heads\/(.+)$/m.exec(readRegularFile(join(dir, "HEAD"), 65536).toString("utf8"));
    return m?.[1]?.trim();
  } catch {
    return undefined;
  }
}

// The working tree as a git tree, built in a scratch index beside the real one; the real index is only read.
import { closeSync, copyFileSync, existsSync, openSync, readSync, rmSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { type GitDeps, gitText } from "./git.ts";
import type { Repo } from "./repo.ts";

// A split index would leave the entry count in another file; the scratch copy is always whole.
const WHOLE = ["-c", "core.splitIndex=false", "-c", "advice.addEmbeddedRepo=false"];

/** Runs `fn` with a scratch index path under the git directory, removed afterwards whatever happens. */
export async function withScratchIndex<T>(repo: Repo, name: string, fn: (index: string) => Promise<T>): Promise<T> {
  const index = join(repo.gitDir, `memnox-${name}.index`);
  try {
    return await fn(index);
  } finally {
    rmSync(index, { force: true });
    rmSync(`${index}.lock`, { force: true });
  }
}

/**
 * Tracked files (with their uncommitted edits) and untracked non-ignored files into `index`. Starting from a copy of
 * the real index, with its timestamps, lets git trust the stat cache instead of rehashing every unchanged file.
 */
export async function captureWorktree(deps: GitDeps, repo: Repo, index: string): Promise<void> {
  if (existsSync(repo.indexFile)) {
    copyFileSync(repo.indexFile, index);
    const st = statSync(repo.indexFile);
    utimesSync(index, st.atime, st.mtime);
  }
  await gitText(deps, repo.root, [...WHOLE, "add", "--all"], { index });
}

/** Adds paths the ignore rules would skip, so a restore never overwrites a file that has no other copy. */
export async function forceAdd(deps: GitDeps, repo: Repo, index: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const input = paths.map((p) => `${p}\0`).join("");
  await gitText(
    deps,
    repo.root,
    [...WHOLE, "--literal-pathspecs", "add", "--force", "--pathspec-from-file=-", "--pathspec-file-nul"],
    {
      index,
      input,
    },
  );
}

export async function writeTree(deps: GitDeps, repo: Repo, index: string): Promise<string> {
  return (await gitText(deps, repo.root, ["write-tree"], { index })).trim();
}

/** Entries in an index file, from its header (`DIRC`, version, count): no process needed. */
export function indexEntryCount(index: string): number {
  if (!existsSync(index)) return 0;
  const fd = openSync(index, "r");
  try {
    const head = Buffer.alloc(12);
    if (readSync(fd, head, 0, 12, 0) < 12 || head.toString("latin1", 0, 4) !== "DIRC") return 0;
    return head.readUInt32BE(8);
  } finally {
    closeSync(fd);
  }
}

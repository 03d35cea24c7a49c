// Which working tree a directory belongs to, and whether git is in the middle of something there.
import { existsSync, realpathSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import { type GitDeps, gitRaw } from "./git.ts";

export interface Repo {
  /** The working tree's top level. */
  readonly root: string;
  /** This worktree's own git directory (where MERGE_HEAD and scratch indexes live). */
  readonly gitDir: string;
  /** The repository's own index: read for its stat cache, never written. */
  readonly indexFile: string;
  /** `.` for the main working tree, `worktrees/<name>` for a linked one: survives moving the repository. */
  readonly worktreeId: string;
}

export async function openRepo(deps: GitDeps, dir: string): Promise<Repo> {
  const args = ["rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir", "--git-path", "index"];
  const r = await gitRaw(deps, dir, args);
  const [root, gitDir, common, index] = new TextDecoder().decode(r.stdout).split("\n");
  if (r.code !== 0 || !root || !gitDir || !common || !index) {
    throw new MemnoxError(
      "not_found",
      `\`${dir}\` is not inside a git working tree`,
      "milestones are kept per git repository; run this from inside one",
    );
  }
  const worktreeId = relative(realpathSync(resolve(dir, common)), realpathSync(gitDir)) || ".";
  return { root, gitDir, indexFile: resolve(dir, index), worktreeId };
}

const STATES: ReadonlyArray<readonly [string, string, string]> = [
  ["rebase-merge", "mid-rebase", "git rebase --continue or git rebase --abort"],
  ["rebase-apply/applying", "mid-am", "git am --continue or git am --abort"],
  ["rebase-apply", "mid-rebase", "git rebase --continue or git rebase --abort"],
  ["MERGE_HEAD", "mid-merge", "git merge --continue or git merge --abort"],
  ["CHERRY_PICK_HEAD", "mid-cherry-pick", "git cherry-pick --continue or git cherry-pick --abort"],
  ["REVERT_HEAD", "mid-revert", "git revert --continue or git revert --abort"],
  ["BISECT_LOG", "mid-bisect", "git bisect reset"],
];

/** The operation git is in the middle of, with how to finish it; a restore there would overwrite that state. */
export function operationInProgress(repo: Repo): { readonly state: string; readonly finish: string } | undefined {
  for (const [file, state, finish] of STATES) {
    if (existsSync(join(repo.gitDir, file))) return { state, finish };
  }
  return undefined;
}

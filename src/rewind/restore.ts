// Moving the working tree from one tree to another: only the paths that differ are touched.
import { lstatSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import { type GitDeps, gitText } from "./git.ts";
import type { Repo } from "./repo.ts";

const GITLINK = "160000";

interface RestorePlan {
  /** Paths to write from the target tree (new, changed content, changed mode or type). */
  readonly write: readonly string[];
  /** Paths in the current tree and not in the target: added since. */
  readonly remove: readonly string[];
  /** Paths the target has that the current tree does not (candidates for hidden ignored files). */
  readonly added: readonly string[];
}

/** `git diff-tree` between the current tree and the target; submodules are their own repositories and are skipped. */
export async function planRestore(deps: GitDeps, repo: Repo, current: string, target: string): Promise<RestorePlan> {
  const out = await gitText(deps, repo.root, ["diff-tree", "-r", "-z", "--no-renames", current, target]);
  const parts = out.split("\0");
  const write: string[] = [];
  const remove: string[] = [];
  const added: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [meta = "", path = ""] = [parts[i], parts[i + 1]];
    const [srcMode = "", dstMode = ""] = meta.replace(/^:/, "").split(" ");
    const status = meta.slice(-1);
    if (srcMode === GITLINK || dstMode === GITLINK) continue;
    if (status === "D") remove.push(path);
    else write.push(path);
    if (status === "A") added.push(path);
  }
  return { write, remove, added };
}

/** Paths the target would write over that exist on disk yet are in no tree: ignored files, to be kept first. */
export function hiddenFiles(repo: Repo, paths: readonly string[]): string[] {
  const real = realDirectories(repo.root);
  return paths.filter((p) => {
    if (!real(dirname(p))) return false;
    const st = lstatOrUndefined(join(repo.root, p));
    return st !== undefined && !st.isDirectory();
  });
}

/** A directory where the target has a file must hold only what the restore removes; git would delete the rest. */
export function assertNoDirectoryInTheWay(repo: Repo, plan: RestorePlan): void {
  const removing = new Set(plan.remove);
  const real = realDirectories(repo.root);
  for (const p of plan.write) {
    if (!real(dirname(p))) continue;
    const st = lstatOrUndefined(join(repo.root, p));
    if (!st?.isDirectory()) continue;
    const kept = filesUnder(repo.root, p).find((f) => !removing.has(f));
    if (kept !== undefined) {
      throw new MemnoxError(
        "conflict",
        `the milestone has a file at \`${p}\` where a directory now holds \`${kept}\`, which no milestone keeps`,
        `move \`${p}\` aside, then run the rewind again`,
      );
    }
  }
}

/** Removes what was added since, then lets git write the target's version of every changed path. */
export async function applyRestore(
  deps: GitDeps,
  repo: Repo,
  index: string,
  target: string,
  plan: RestorePlan,
): Promise<{ removedDirectories: number }> {
  const parents = new Set<string>();
  for (const p of plan.remove) {
    const abs = join(repo.root, p);
    const st = lstatOrUndefined(abs);
    if (st && !st.isDirectory()) unlinkSync(abs);
    parents.add(dirname(p));
  }
  const removedDirectories = pruneEmptyDirectories(repo.root, parents);
  if (plan.write.length > 0) {
    await gitText(deps, repo.root, ["read-tree", target], { index });
    const input = plan.write.map((p) => `${p}\0`).join("");
    await gitText(deps, repo.root, ["checkout-index", "--force", "-z", "--stdin"], { index, input });
  }
  return { removedDirectories };
}

/** Directories the removals left empty, deepest first, never the top level itself. */
function pruneEmptyDirectories(root: string, dirs: ReadonlySet<string>): number {
  const all = new Set<string>();
  for (let d of dirs) {
    while (d !== "." && d !== "" && d !== "/") {
      all.add(d);
      d = dirname(d);
    }
  }
  let removed = 0;
  for (const d of [...all].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(join(root, d));
      removed++;
    } catch {
      // not empty (ignored files live there) or already gone: it stays
    }
  }
  return removed;
}

/** Whether every component of a relative directory is a real directory, not a symlink out of the tree. */
function realDirectories(root: string): (rel: string) => boolean {
  const known = new Map<string, boolean>();
  const check = (rel: string): boolean => {
    if (rel === "." || rel === "") return true;
    const hit = known.get(rel);
    if (hit !== undefined) return hit;
    const ok = check(dirname(rel)) && lstatOrUndefined(join(root, rel))?.isDirectory() === true;
    known.set(rel, ok);
    return ok;
  };
  return check;
}

function filesUnder(root: string, rel: string): string[] {
  const entries = readdirSync(join(root, rel), { recursive: true, withFileTypes: true });
  return entries.filter((e) => !e.isDirectory()).map((e) => join(e.parentPath, e.name).slice(root.length + 1));
}

function lstatOrUndefined(p: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

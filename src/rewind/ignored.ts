// The ignored files a destroying command targets, which a milestone keeps so `memnox rewind` brings them back: within
// the bound, never build output or caches, never a file named like a credential (src/core/kept.ts).
import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { Action } from "../core/action.ts";
import { KEEP_IGNORED_BYTES, rebuiltByName, secretByName } from "../core/kept.ts";
import { type GitDeps, gitText } from "./git.ts";

/** Paths relative to `root` that the deletes among `actions` name inside it (a recursive one's folder whole). */
function deleted(root: string, actions: readonly Action[]): string[] {
  const out = new Set<string>();
  for (const a of actions) {
    if (a.name !== "filesystem.delete") continue;
    for (const t of a.targets) {
      const base = t.endsWith("/**") ? t.slice(0, -3) : t;
      if (base.startsWith(`${root}/`) && !/[$`]/.test(base)) out.add(base.slice(root.length + 1));
    }
  }
  return [...out].filter((r) => r !== "" && !r.split("/").includes(".git"));
}

/** What git ignores under what the command deletes, as far as the bound allows, smallest first. */
export async function ignoredToKeep(deps: GitDeps, root: string, actions: readonly Action[]): Promise<string[]> {
  const paths = deleted(root, actions);
  if (paths.length === 0) return [];
  const listed = await gitText(deps, root, [
    "ls-files",
    "-z",
    "--others",
    "--ignored",
    "--exclude-standard",
    "--",
    ...paths,
  ]);
  const sized = listed
    .split("\0")
    .filter((r) => r !== "" && !rebuiltByName(r) && !secretByName(r))
    .flatMap((r) => {
      try {
        const st = lstatSync(join(root, r));
        return st.isFile() || st.isSymbolicLink() ? [{ r, size: st.size }] : [];
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.size - b.size);
  const kept: string[] = [];
  let total = 0;
  for (const { r, size } of sized) {
    if (total + size > KEEP_IGNORED_BYTES) break;
    total += size;
    kept.push(r);
  }
  return kept;
}

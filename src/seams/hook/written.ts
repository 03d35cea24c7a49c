// What a shell command actually wrote: a stat snapshot of the files git sees as changed, untracked or ignored, taken
// before the call, compared after it. A file git showed clean that the command changed shows up after; one already
// changed shows a new size or mtime. Directories git shows whole (an ignored node_modules/) are not walked.
import { statSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../../io/repo.ts";
import type { Context } from "../../ports/context.ts";

export interface TreeSnapshot {
  readonly root: string;
  /** Path under root -> `size:mtimeMs`. */
  readonly files: Readonly<Record<string, string>>;
}

/** At most this many paths are kept: a tree with more is reported on up to here, never walked further. */
const MAX_FILES = 5000;

export async function snapshotTree(ctx: Context, cwd: string): Promise<TreeSnapshot | undefined> {
  const root = repoRoot(cwd);
  if (!root) return undefined;
  const r = await ctx.git.run(
    ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching", "--no-renames"],
    { cwd: root },
  );
  if (r.code !== 0) return undefined;
  const files: Record<string, string> = {};
  let n = 0;
  for (const entry of new TextDecoder().decode(r.stdout).split("\0")) {
    if (entry.length < 4 || n >= MAX_FILES) continue;
    const path = entry.slice(3);
    if (path.endsWith("/") || path === ".git" || path.startsWith(".git/")) continue;
    files[path] = stamp(join(root, path));
    n += 1;
  }
  return { root, files };
}

function stamp(path: string): string {
  try {
    const s = statSync(path);
    return s.isFile() ? `${s.size}:${s.mtimeMs}` : "";
  } catch {
    return "gone";
  }
}

/** Absolute paths of files the call wrote or removed since `before`, sorted. */
export async function writtenSince(ctx: Context, before: TreeSnapshot): Promise<string[]> {
  const after = await snapshotTree(ctx, before.root);
  if (!after) return [];
  const out = new Set<string>();
  for (const [path, s] of Object.entries(after.files)) if (before.files[path] !== s && s !== "") out.add(path);
  // A file changed before and deleted or restored during the call: still a write.
  for (const [path, s] of Object.entries(before.files))
    if (after.files[path] === undefined && s !== "gone") {
      if (stamp(join(before.root, path)) !== s) out.add(path);
    }
  return [...out].sort().map((p) => join(before.root, p));
}

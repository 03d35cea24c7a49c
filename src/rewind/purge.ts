// `uninstall --purge` in one repository: every ref under refs/memnox/ deleted, and the objects only those refs
// reached (copies of untracked files such as .env) deleted with them, so nothing memnox kept stays readable in .git.
import { existsSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type GitDeps, gitRaw, gitText } from "./git.ts";

export interface RepoPurge {
  readonly repo: string;
  /** Refs taken out. */
  readonly refs: number;
  /** Loose objects deleted that nothing but memnox's refs reached. */
  readonly objects: number;
  /** Objects of memnox's already packed by git: unreachable now, gone at git's next gc. */
  readonly packed: number;
  readonly problem?: string;
}

const OURS = "refs/memnox/";

/** Takes memnox's refs and the objects only they reached out of the repository at `dir`; undefined when none. */
export async function purgeMilestoneRefs(deps: GitDeps, dir: string): Promise<RepoPurge | undefined> {
  if (!existsSync(dir)) return undefined;
  const common = await gitRaw(deps, dir, ["rev-parse", "--git-common-dir"]);
  if (common.code !== 0) return undefined;
  const gitDir = join(dir, new TextDecoder().decode(common.stdout).trim());
  const all = (await gitText(deps, dir, ["for-each-ref", "--format=%(refname)"])).split("\n").filter(Boolean);
  const ours = all.filter((r) => r.startsWith(OURS));
  if (ours.length === 0) return undefined;
  const others = all.filter((r) => !r.startsWith(OURS));
  const head = (await gitRaw(deps, dir, ["rev-parse", "--verify", "-q", "HEAD"])).code === 0 ? ["HEAD"] : [];
  const listed = await gitText(deps, dir, [
    "rev-list",
    "--objects",
    ...ours,
    "--not",
    ...others,
    ...head,
    "--reflog",
    "--indexed-objects",
  ]);
  const tags = await gitText(deps, dir, ["for-each-ref", "--format=%(objectname)", ...ours]);
  const ids = new Set(
    [listed, tags]
      .join("\n")
      .split("\n")
      .map((l) => l.split(" ")[0] ?? "")
      .filter(Boolean),
  );
  await gitText(deps, dir, ["update-ref", "--stdin"], { input: `${ours.map((r) => `delete ${r}`).join("\n")}\n` });
  let objects = 0;
  let packed = 0;
  for (const id of ids) {
    const file = join(gitDir, "objects", id.slice(0, 2), id.slice(2));
    if (!existsSync(file)) {
      packed++;
      continue;
    }
    rmSync(file, { force: true });
    objects++;
    const fan = join(gitDir, "objects", id.slice(0, 2));
    if (readdirSync(fan).length === 0) rmdirSync(fan);
  }
  removeEmpty(join(gitDir, "refs", "memnox"));
  return { repo: dir, refs: ours.length, objects, packed };
}

/** A folder of refs git left empty, deepest first. */
function removeEmpty(dir: string): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) removeEmpty(join(dir, e.name));
  try {
    rmdirSync(dir);
  } catch {
    // Not empty: something else is there.
  }
}

// Taking, listing and forgetting milestones: the working tree as a tree object under refs/memnox/.
import { MemnoxError } from "../core/errors.ts";
import { openRepo, type Repo } from "./repo.ts";
import { captureWorktree, forceAdd, indexEntryCount, withScratchIndex, writeTree } from "./scratch.ts";
import { overLimit } from "./select.ts";
import { dropMilestones, readMilestones, writeMilestone } from "./store.ts";
import { KEEP_NEWEST, type Milestone, type MilestoneKind, type RewindDeps } from "./types.ts";

interface TakeRequest {
  /** Any directory inside the working tree. */
  readonly dir: string;
  readonly kind: MilestoneKind;
  /** Why it was kept, in words; never a raw command line (it could carry a secret). */
  readonly reason: string;
  readonly agent?: string | undefined;
  readonly session?: string | undefined;
  /** Ignored files (relative) to keep beside the tree: what a destroying command is about to take. */
  readonly ignored?: readonly string[];
}

interface Taken {
  readonly repo: Repo;
  readonly milestone: Milestone;
  /** Older milestones dropped to stay at the newest twenty. */
  readonly dropped: readonly Milestone[];
}

export async function takeMilestone(deps: RewindDeps, req: TakeRequest): Promise<Taken> {
  const repo = await openRepo(deps, req.dir);
  return keepMilestone(deps, repo, req);
}

export async function keepMilestone(deps: RewindDeps, repo: Repo, req: Omit<TakeRequest, "dir">): Promise<Taken> {
  const takenAtMs = deps.clock.now();
  const id = deps.newId();
  return withScratchIndex(repo, id, async (index) => {
    const [existing] = await Promise.all([readMilestones(deps, repo), captureWorktree(deps, repo, index)]);
    const { ignored, ...facts } = req;
    if (ignored && ignored.length > 0) await forceAdd(deps, repo, index, ignored);
    const tree = await writeTree(deps, repo, index);
    const dropped = overLimit(existing, KEEP_NEWEST, 1);
    const rec = { id, tree, takenAtMs, files: indexEntryCount(index), ...facts };
    const milestone = await writeMilestone(deps, repo, rec, dropped);
    deps.noteRepo?.(repo.root);
    return { repo, milestone, dropped };
  });
}

interface Listed {
  readonly repo: Repo;
  /** Newest first. */
  readonly milestones: readonly Milestone[];
}

export async function listMilestones(deps: RewindDeps, dir: string): Promise<Listed> {
  const repo = await openRepo(deps, dir);
  return { repo, milestones: await readMilestones(deps, repo) };
}

interface Forgotten {
  readonly repo: Repo;
  readonly dropped: readonly Milestone[];
  readonly kept: readonly Milestone[];
}

/** Drops all but the newest `keep`; the newest is never dropped. */
export async function forgetMilestones(deps: RewindDeps, dir: string, keep: number): Promise<Forgotten> {
  if (!Number.isInteger(keep) || keep < 0) {
    throw new MemnoxError(
      "usage",
      `\`${keep}\` is not a number of milestones to keep`,
      "give a whole number, such as 5",
    );
  }
  const { repo, milestones } = await listMilestones(deps, dir);
  const n = Math.max(1, keep);
  const dropped = milestones.slice(n);
  await dropMilestones(deps, repo, dropped);
  return { repo, dropped, kept: milestones.slice(0, n) };
}

// The rewind itself: keep what is there, then move only the files that differ back to a milestone.
import { describeError, isMemnoxError, MemnoxError } from "../core/errors.ts";
import type { Surface } from "../core/event.ts";
import { openRepo, operationInProgress, type Repo } from "./repo.ts";
import { applyRestore, assertNoDirectoryInTheWay, hiddenFiles, planRestore } from "./restore.ts";
import { type RowFacts, rewindRow } from "./row.ts";
import { captureWorktree, forceAdd, indexEntryCount, withScratchIndex, writeTree } from "./scratch.ts";
import { overLimit, type RewindTarget, selectMilestone } from "./select.ts";
import { readMilestones, writeMilestone } from "./store.ts";
import { KEEP_NEWEST, type Logger, type Milestone, type Recorder, type RewindDeps } from "./types.ts";

export interface RewindRequest {
  readonly dir: string;
  readonly target: RewindTarget;
  /** Who asked: `cli` at the terminal, `mcp` from the session tool. */
  readonly surface: Surface;
  readonly agent?: string | undefined;
  readonly session?: string | undefined;
  readonly record: Recorder;
  /** Where a failing recorder is reported. */
  readonly log?: Logger;
}

export interface RewindResult {
  readonly repo: string;
  readonly target: Milestone;
  /** The milestone of what the rewind replaced; absent when nothing differed. */
  readonly undo?: Milestone;
  readonly written: number;
  readonly removed: number;
  readonly removedDirectories: number;
}

/** Restores `req.target`; refuses (and records the refusal) mid-merge, mid-rebase, mid-cherry-pick or bisect. */
export async function rewind(deps: RewindDeps, req: RewindRequest): Promise<RewindResult> {
  let facts: RowFacts = { dir: req.dir, surface: req.surface, agent: req.agent, session: req.session };
  try {
    const repo = await openRepo(deps, req.dir);
    facts = { ...facts, repo: repo.root };
    refuseMidOperation(repo);
    const target = selectMilestone(await readMilestones(deps, repo), req.target, repo.root);
    facts = { ...facts, target: target.id };
    const result = await restoreTo(deps, repo, target, req);
    await record(req, rewindRow(deps.clock.now(), { ...facts, outcome: "done", result }));
    return result;
  } catch (e) {
    await record(req, rewindRow(deps.clock.now(), { ...facts, outcome: "refused", reason: describeError(e) }));
    throw e;
  }
}

function refuseMidOperation(repo: Repo): void {
  const busy = operationInProgress(repo);
  if (!busy) return;
  throw new MemnoxError(
    "refused",
    `refusing to rewind \`${repo.root}\` ${busy.state}: a restore would write over the state that says how to finish it`,
    `finishing or aborting is yours to decide (${busy.finish}); then run memnox rewind again`,
  );
}

async function restoreTo(deps: RewindDeps, repo: Repo, target: Milestone, req: RewindRequest): Promise<RewindResult> {
  const takenAtMs = deps.clock.now();
  const id = deps.newId();
  return withScratchIndex(repo, id, async (index) => {
    const [existing] = await Promise.all([readMilestones(deps, repo), captureWorktree(deps, repo, index)]);
    let tree = await writeTree(deps, repo, index);
    let plan = await planRestore(deps, repo, tree, target.tree);
    const hidden = hiddenFiles(repo, plan.added);
    if (hidden.length > 0) {
      await forceAdd(deps, repo, index, hidden);
      tree = await writeTree(deps, repo, index);
      plan = await planRestore(deps, repo, tree, target.tree);
    }
    const base = { repo: repo.root, target, written: 0, removed: 0, removedDirectories: 0 };
    if (plan.write.length === 0 && plan.remove.length === 0) return base;
    assertNoDirectoryInTheWay(repo, plan);
    const rec = {
      id,
      tree,
      takenAtMs,
      files: indexEntryCount(index),
      kind: "rewind" as const,
      reason: `before rewind to ${target.id}`,
      agent: req.agent,
      session: req.session,
    };
    const undo = await writeMilestone(deps, repo, rec, overLimit(existing, KEEP_NEWEST, 1, target));
    try {
      const { removedDirectories } = await applyRestore(deps, repo, index, target.tree, plan);
      return { ...base, undo, written: plan.write.length, removed: plan.remove.length, removedDirectories };
    } catch (e) {
      throw new MemnoxError(
        "io",
        `the rewind to ${target.id} stopped partway: ${describeError(e)}`,
        `what was there is kept as ${undo.id}; memnox rewind --to ${undo.id} puts it back`,
      );
    }
  });
}

async function record(req: RewindRequest, row: Parameters<Recorder>[0]): Promise<void> {
  try {
    await req.record(row);
  } catch (e) {
    req.log?.(
      `memnox: the memnox.rewind row could not be recorded: ${isMemnoxError(e) ? e.message : describeError(e)}`,
    );
  }
}

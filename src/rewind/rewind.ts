// The rewind itself: keep what is there, then move only the files that differ back to a milestone.
import { describeError, isMemnoxError, MemnoxError } from "../core/errors.ts";
import type { Surface } from "../core/event.ts";
import { gitRaw, gitText } from "./git.ts";
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

interface RewindResult {
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
    const milestones = await readMilestones(deps, repo);
    const chosen = selectMilestone(milestones, req.target, repo.root);
    facts = { ...facts, target: chosen.id };
    const target =
      req.target.kind === "session" || req.target.kind === "last-session"
        ? await withKeptIgnored(deps, repo, chosen, milestones)
        : chosen;
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

/**
 * Back to before a session touched anything includes the ignored files it deleted: the milestones taken before its
 * destroying commands kept them (a local database, an uncommitted secret file memnox never keeps aside), and the
 * session's start milestone, which keeps no ignored file, is restored with the earliest kept copy of each.
 */
async function withKeptIgnored(
  deps: RewindDeps,
  repo: Repo,
  start: Milestone,
  milestones: readonly Milestone[],
): Promise<Milestone> {
  const later = milestones
    .filter((m) => m.session === start.session && m.kind === "destroy" && m.takenAtMs >= start.takenAtMs)
    .sort((a, b) => a.takenAtMs - b.takenAtMs);
  if (later.length === 0) return start;
  const inStart = new Set(await treeFiles(deps, repo, start.tree));
  const added = new Map<string, string>();
  for (const m of later) {
    const entries = await treeEntries(deps, repo, m.tree);
    const fresh = [...entries.keys()].filter((p) => !inStart.has(p) && !added.has(p));
    if (fresh.length === 0) continue;
    const ignored = await ignoredAmong(deps, repo, fresh);
    for (const p of ignored) added.set(p, entries.get(p) ?? "");
  }
  if (added.size === 0) return start;
  return withScratchIndex(repo, `${deps.newId()}-kept`, async (index) => {
    await gitText(deps, repo.root, ["read-tree", start.tree], { index });
    const info = [...added].map(([path, entry]) => `${entry}\t${path}`).join("\0");
    await gitText(deps, repo.root, ["update-index", "--add", "-z", "--index-info"], { index, input: `${info}\0` });
    return { ...start, tree: await writeTree(deps, repo, index) };
  });
}

/** `<mode> <type> <object>` of every file in `tree`, by path. */
async function treeEntries(deps: RewindDeps, repo: Repo, tree: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const line of (await gitText(deps, repo.root, ["ls-tree", "-r", "-z", tree])).split("\0")) {
    const tab = line.indexOf("\t");
    if (tab > 0) out.set(line.slice(tab + 1), line.slice(0, tab));
  }
  return out;
}

async function treeFiles(deps: RewindDeps, repo: Repo, tree: string): Promise<string[]> {
  return [...(await treeEntries(deps, repo, tree)).keys()];
}

/** Which of `paths` git's ignore rules cover, as this checkout has them now. */
async function ignoredAmong(deps: RewindDeps, repo: Repo, paths: readonly string[]): Promise<string[]> {
  const r = await gitRaw(deps, repo.root, ["check-ignore", "--no-index", "-z", "--stdin"], {
    input: paths.map((p) => `${p}\0`).join(""),
  });
  return new TextDecoder().decode(r.stdout).split("\0").filter(Boolean);
}

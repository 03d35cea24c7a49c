// The rewind vocabulary: what a milestone is, and what every rewind operation is handed.
import type { EventInput } from "../core/event.ts";
import type { Clock, Env, Git } from "../ports/index.ts";

/** Why a milestone was kept: by `memnox run`, before a session's first write, before a destructive command, by hand, or by a rewind. */
export const MILESTONE_KINDS = ["run", "first-write", "destroy", "manual", "rewind"] as const;
export type MilestoneKind = (typeof MILESTONE_KINDS)[number];

export interface Milestone {
  /** `mst_` + base-36 milliseconds + 4 hex digits. */
  readonly id: string;
  /** `refs/memnox/milestones/<id>`, pointing at a tag object whose target is the tree. */
  readonly ref: string;
  readonly tree: string;
  readonly takenAt: string;
  readonly takenAtMs: number;
  readonly files: number;
  readonly kind: MilestoneKind;
  readonly reason: string;
  readonly agent?: string;
  readonly session?: string;
  /** The working tree it was taken of; linked worktrees share refs, so lists are filtered on it. */
  readonly worktree: string;
}

/** Appends one ledger row; the ledger fails open, so a failing recorder never fails a rewind. */
export type Recorder = (event: EventInput) => void | Promise<void>;

/** Where a line goes when an automatic milestone could not be kept. */
export type Logger = (line: string) => void;

export interface RewindDeps {
  readonly git: Git;
  /** The environment git runs in (HOME, PATH, git's own config variables). */
  readonly env: Env;
  readonly clock: Clock;
  /** A fresh milestone id (see `milestoneId`). */
  readonly newId: () => string;
  /** Told each repository a milestone was kept in, so `uninstall --purge` finds its refs again. */
  readonly noteRepo?: (root: string) => void;
}

/** Newest kept per working tree. */
export const KEEP_NEWEST = 20;

// Milestones the seams keep on their own: at `memnox run`, before a session's first write, before a destructive command.
import type { Action } from "../core/action.ts";
import { describeError } from "../core/errors.ts";
import { repoRoot } from "../io/repo.ts";
import { changeSession, readCheckpoints, type SessionChange } from "./checkpoints.ts";
import { isWorkDestroying } from "./destroying.ts";
import { ignoredToKeep } from "./ignored.ts";
import { keepMilestone } from "./milestones.ts";
import { openRepo } from "./repo.ts";
import type { Logger, Milestone, MilestoneKind, RewindDeps } from "./types.ts";

export interface AutoDeps extends RewindDeps {
  /** `ctx.paths.checkpoints`. */
  readonly checkpoints: string;
  /** A milestone that cannot be kept is logged here and never thrown. */
  readonly log: Logger;
}

type AutoResult =
  | { readonly status: "taken"; readonly repo: string; readonly milestone: Milestone }
  /** This session already has one in this repository: nothing was started. */
  | { readonly status: "owed-nothing"; readonly repo: string }
  /** One was kept for this session less than 20 seconds ago. */
  | { readonly status: "throttled" }
  | { readonly status: "not-destroying" }
  | { readonly status: "not-a-repository" }
  | { readonly status: "failed"; readonly repo: string; readonly error: string };

export const DESTROY_THROTTLE_MS = 20_000;
/** Destructive commands outside any session share one throttle. */
const NO_SESSION = "-";

interface SessionWrite {
  readonly session: string;
  /** The file or directory about to be written (or the session's working directory). */
  readonly path: string;
  readonly agent?: string | undefined;
}

/** Once per session and repository; a session that already has one costs one small file read and no process. */
export function milestoneBeforeFirstWrite(deps: AutoDeps, w: SessionWrite): Promise<AutoResult> {
  return firstFor(deps, w, "first-write", "before the session's first write");
}

/** `memnox run` keeps one before the agent's first command; it also settles the session's first-write milestone. */
export function milestoneAtRunStart(deps: AutoDeps, w: SessionWrite): Promise<AutoResult> {
  return firstFor(deps, w, "run", "before memnox run started the agent");
}

interface DestroyingCommand {
  readonly session?: string | undefined;
  /** The command's working directory. */
  readonly cwd: string;
  readonly actions: readonly Action[];
  /** The exact argv, when the seam has it (see `isWorkDestroying`). */
  readonly argv?: readonly string[];
  readonly agent?: string | undefined;
  /** The repository a milestone was already kept in for this very call (the session's first write). */
  readonly keptIn?: string;
}

/** Before a command that destroys work, at most once every 20 seconds per session. */
export async function milestoneBeforeDestroy(deps: AutoDeps, c: DestroyingCommand): Promise<AutoResult> {
  try {
    if (!isWorkDestroying(c.actions, c.argv)) return { status: "not-destroying" };
    const root = repoRoot(c.cwd);
    if (!root) return { status: "not-a-repository" };
    const now = deps.clock.now();
    const session = c.session || NO_SESSION;
    // Ignored files it deletes are in no earlier milestone: this one keeps them, whatever was kept a moment ago.
    const ignored = await ignoredToKeep(deps, root, c.actions).catch((e: unknown) => {
      deps.log(`memnox: the ignored files it deletes could not be listed (${describeError(e)}); the milestone goes on`);
      return [] as string[];
    });
    // The same tree a moment ago: a second milestone would only use up one of the twenty kept.
    if (c.keptIn === root && ignored.length === 0) {
      changeSession(deps.checkpoints, session, now, () => ({ destroyAtMs: now }), deps.log);
      return { status: "owed-nothing", repo: root };
    }
    const last = readCheckpoints(deps.checkpoints, now, deps.log).sessions[session]?.destroyAtMs;
    const recent = last !== undefined && now >= last && now - last < DESTROY_THROTTLE_MS;
    if (recent && ignored.length === 0) return { status: "throttled" };
    const names = [...new Set(c.actions.map((a) => a.name).filter((n) => n !== "shell.execute"))];
    const kept = ignored.length > 0 ? `, keeping ${ignored.length} ignored file(s) it deletes` : "";
    const reason = `before a command that destroys work${names.length ? ` (${names.join(", ")})` : ""}${kept}`;
    const result = await keep(deps, root, "destroy", reason, c.session, c.agent, ignored);
    const mark = markRepo(root, result, now);
    changeSession(deps.checkpoints, session, now, (s) => ({ ...mark(s), destroyAtMs: now }), deps.log);
    return result;
  } catch (e) {
    return failed(deps, c.cwd, e);
  }
}

async function firstFor(deps: AutoDeps, w: SessionWrite, kind: MilestoneKind, reason: string): Promise<AutoResult> {
  try {
    const root = repoRoot(w.path);
    if (!root) return { status: "not-a-repository" };
    const now = deps.clock.now();
    if (readCheckpoints(deps.checkpoints, now, deps.log).sessions[w.session]?.repos[root]) {
      return { status: "owed-nothing", repo: root };
    }
    const result = await keep(deps, root, kind, reason, w.session, w.agent);
    changeSession(deps.checkpoints, w.session, now, markRepo(root, result, now), deps.log);
    return result;
  } catch (e) {
    return failed(deps, w.path, e);
  }
}

async function keep(
  deps: AutoDeps,
  root: string,
  kind: MilestoneKind,
  reason: string,
  session: string | undefined,
  agent: string | undefined,
  ignored: readonly string[] = [],
): Promise<AutoResult> {
  try {
    const repo = await openRepo(deps, root);
    const { milestone } = await keepMilestone(deps, repo, { kind, reason, session, agent, ignored });
    return { status: "taken", repo: repo.root, milestone };
  } catch (e) {
    return failed(deps, root, e);
  }
}

/** Any milestone kept for a session in a repository settles its first-write duty there; a failure is not retried per write. */
function markRepo(root: string, r: AutoResult, now: number): SessionChange {
  return (s) => {
    if (r.status !== "taken" && r.status !== "failed") return {};
    if (s.repos[root]?.milestone) return {};
    const milestone = r.status === "taken" ? r.milestone.id : null;
    return { repos: { ...s.repos, [root]: { milestone, at: new Date(now).toISOString() } } };
  };
}

function failed(deps: AutoDeps, where: string, e: unknown): AutoResult {
  const error = describeError(e);
  deps.log(`memnox: no milestone kept for \`${where}\`: ${error}`);
  return { status: "failed", repo: where, error };
}

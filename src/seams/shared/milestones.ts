// Automatic milestones at the seams: before a session's first write (hooks) and before a command that destroys work.
import type { Action } from "../../core/action.ts";
import type { EventInput, Surface } from "../../core/event.ts";
import type { Context } from "../../ports/context.ts";
import { isWorkDestroying } from "../../rewind/destroying.ts";

const WRITES = new Set(["write", "destructive"]);

interface MilestoneCall {
  /** The seam keeping it, for the finding row when it cannot be kept. */
  readonly surface: Surface;
  readonly session: string | undefined;
  readonly agent: string | undefined;
  readonly cwd: string;
  readonly actions: readonly Action[];
  readonly argv?: readonly string[];
  /** The hook seam also keeps one before the session's first write in a repository. */
  readonly firstWrite: boolean;
}

/**
 * Never throws, never asks and never stops the call: a milestone that cannot be kept is a recorded finding (a
 * `memnox.milestone` state row naming why), and the call goes on.
 */
export async function keepMilestones(ctx: Context, c: MilestoneCall): Promise<void> {
  const destroys = isWorkDestroying(c.actions, c.argv);
  const writes = c.firstWrite && c.session !== undefined && c.actions.some((a) => WRITES.has(a.class));
  if (!destroys && !writes) return;
  const unkept: { where: string; error: string }[] = [];
  try {
    const { milestoneBeforeDestroy, milestoneBeforeFirstWrite, rewindDeps } = await import("../../rewind/index.ts");
    const deps = rewindDeps(ctx);
    let keptIn: string | undefined;
    if (writes && c.session) {
      const target = c.actions.find((a) => WRITES.has(a.class))?.targets.find((t) => t.startsWith("/"));
      const r = await milestoneBeforeFirstWrite(deps, { session: c.session, path: target ?? c.cwd, agent: c.agent });
      if (r.status === "taken") keptIn = r.repo;
      if (r.status === "failed") unkept.push({ where: r.repo, error: r.error });
    }
    if (destroys) {
      const r = await milestoneBeforeDestroy(deps, {
        session: c.session,
        cwd: c.cwd,
        actions: c.actions,
        agent: c.agent,
        ...(c.argv ? { argv: c.argv } : {}),
        ...(keptIn ? { keptIn } : {}),
      });
      if (r.status === "failed") unkept.push({ where: r.repo, error: r.error });
    }
  } catch (e) {
    unkept.push({ where: c.cwd, error: (e as Error).message });
    ctx.io.err(`memnox: no milestone was kept (${(e as Error).message}); the call goes on\n`);
  }
  if (unkept.length > 0) await recordUnkept(ctx, c, unkept);
}

async function recordUnkept(ctx: Context, c: MilestoneCall, unkept: readonly { where: string; error: string }[]) {
  try {
    const { rewindRecorder } = await import("../../rewind/record.ts");
    const record = rewindRecorder(ctx);
    for (const u of unkept) await record(unkeptRow(ctx.clock.now(), c, u.where, u.error));
  } catch (e) {
    ctx.io.err(`memnox: the unkept milestone could not be recorded (${(e as Error).message})\n`);
  }
}

function unkeptRow(nowMs: number, c: MilestoneCall, where: string, error: string): EventInput {
  return {
    kind: "state",
    occurredAt: new Date(nowMs).toISOString(),
    surface: c.surface,
    operation: "memnox.milestone",
    ...(c.session ? { session: c.session } : {}),
    ...(c.agent ? { agent: c.agent } : {}),
    resourceRef: where,
    cwd: c.cwd,
    reason: `no milestone could be kept (${error}); the call went on, and memnox rewind has nothing newer to go back to`,
    detail: { outcome: "failed" },
  };
}

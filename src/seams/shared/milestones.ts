// Automatic milestones at the seams: before a session's first write (hooks) and before a command that destroys work.
import type { Action } from "../../core/action.ts";
import type { Context } from "../../ports/context.ts";
import { isWorkDestroying } from "../../rewind/destroying.ts";

const WRITES = new Set(["write", "destructive"]);

export interface MilestoneCall {
  readonly session: string | undefined;
  readonly agent: string | undefined;
  readonly cwd: string;
  readonly actions: readonly Action[];
  readonly argv?: readonly string[];
  /** The hook seam also keeps one before the session's first write in a repository. */
  readonly firstWrite: boolean;
}

/** Never throws and never stops the call: a milestone that cannot be kept is logged by rewind itself. */
export async function keepMilestones(ctx: Context, c: MilestoneCall): Promise<void> {
  const destroys = isWorkDestroying(c.actions, c.argv);
  const writes = c.firstWrite && c.session !== undefined && c.actions.some((a) => WRITES.has(a.class));
  if (!destroys && !writes) return;
  try {
    const { milestoneBeforeDestroy, milestoneBeforeFirstWrite, rewindDeps } = await import("../../rewind/index.ts");
    const deps = rewindDeps(ctx);
    let keptIn: string | undefined;
    if (writes && c.session) {
      const target = c.actions.find((a) => WRITES.has(a.class))?.targets.find((t) => t.startsWith("/"));
      const r = await milestoneBeforeFirstWrite(deps, { session: c.session, path: target ?? c.cwd, agent: c.agent });
      if (r.status === "taken") keptIn = r.repo;
    }
    if (destroys) {
      await milestoneBeforeDestroy(deps, {
        session: c.session,
        cwd: c.cwd,
        actions: c.actions,
        agent: c.agent,
        ...(c.argv ? { argv: c.argv } : {}),
        ...(keptIn ? { keptIn } : {}),
      });
    }
  } catch (e) {
    ctx.io.err(`memnox: no milestone was kept (${(e as Error).message}); the call goes on\n`);
  }
}

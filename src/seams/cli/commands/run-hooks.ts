// What happens around an agent started by `memnox run`: the session on the record, and (with their issues) the
// working-tree milestone and the egress proxy. One place, so each wires itself in here.
import type { Context } from "../../../ports/context.ts";
import { milestoneAtRunStart, rewindDeps } from "../../../rewind/index.ts";

export interface RunHookInput {
  readonly session: string;
  readonly agent: string;
  readonly root: string;
  readonly milestone: boolean;
}

export interface RunHooks {
  before(): Promise<void>;
  after(exitCode: number, durationMs: number): Promise<void>;
}

export function runHooks(ctx: Context, input: RunHookInput): RunHooks {
  return {
    async before() {
      if (!input.milestone) return;
      // Never stops the run: a milestone that cannot be kept is logged to stderr by rewindDeps.
      const kept = await milestoneAtRunStart(rewindDeps(ctx), {
        session: input.session,
        path: input.root,
        agent: input.agent,
      });
      if (kept.status === "taken") {
        ctx.io.err(`memnox: working tree kept as ${kept.milestone.id}; memnox rewind puts it back\n`);
      }
    },
    async after() {},
  };
}

// The real dependencies of rewind, from a face's Context: one line for each seam that keeps or restores milestones.
import type { Context } from "../ports/context.ts";
import type { AutoDeps } from "./auto.ts";
import { idGenerator } from "./id.ts";
import { noteMilestoneRepo } from "./repos.ts";

export function rewindDeps(ctx: Context): AutoDeps {
  return {
    git: ctx.git,
    env: ctx.env,
    clock: ctx.clock,
    newId: idGenerator(() => ctx.clock.now()),
    checkpoints: ctx.paths.checkpoints,
    noteRepo: (root) => noteMilestoneRepo(ctx.paths.milestoneRepos, root),
    log: (line) => ctx.io.err(`${line}\n`),
  };
}

export { milestoneAtRunStart, milestoneBeforeDestroy, milestoneBeforeFirstWrite } from "./auto.ts";
export { rewindDeps } from "./deps.ts";
export { isWorkDestroying } from "./destroying.ts";

export { forgetMilestones, listMilestones, takeMilestone } from "./milestones.ts";

export { rewind } from "./rewind.ts";
export { rewindRow } from "./row.ts";
export type { RewindTarget } from "./select.ts";
export { selectMilestone } from "./select.ts";
export type { Milestone, RewindDeps } from "./types.ts";

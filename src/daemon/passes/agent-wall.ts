// The agent wall follows the rules in force: when a rule file or the scan's credential list changes, the description
// and its plan are written again, so what the rules come to deny outright the kernel denies too. Local remotes sessions
// added are kept. Nothing happens on a machine where no agent wall was written.
import { readAgentWall } from "../../wall/agent.ts";
import { writeMachineAgentWall } from "../../wall/facts/agent.ts";
import type { DaemonPass } from "../passes.ts";

const paths = (w: { unreadable: readonly { path: string }[]; unwritable: readonly { path: string }[] }) =>
  JSON.stringify([w.unreadable.map((u) => u.path).sort(), w.unwritable.map((u) => u.path).sort()]);

export const agentWallPass: DaemonPass = {
  name: "agent-wall",
  watched: (ctx) => [ctx.paths.machinePolicies, ctx.paths.orgPolicies, ctx.paths.policiesRegistry, ctx.paths.lastScan],
  minIntervalMs: 10_000,
  async run(pc) {
    const { ctx } = pc;
    let before: ReturnType<typeof readAgentWall>;
    try {
      before = readAgentWall(ctx.paths);
    } catch {
      return;
    }
    if (!before || pc.trigger === "timer") return;
    const after = await writeMachineAgentWall(ctx, before);
    if (paths(after.wall) === paths(before.wall)) return;
    pc.recordChange({
      operation: "wall.refresh",
      file: ctx.paths.machinePolicies,
      before: `${before.wall.unreadable.length} unreadable, ${before.wall.unwritable.length} unwritable`,
      after: `${after.wall.unreadable.length} unreadable, ${after.wall.unwritable.length} unwritable`,
      reason: "the rules in force changed, so the agent wall was written again from them",
    });
  },
};

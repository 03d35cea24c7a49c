// What the hook face needs beyond its Context: the gate, and how to answer when memnox fails before the gate does.
import { statSync } from "node:fs";
import type { HookAdapter } from "../../../hooks/types.ts";
import { createGate } from "../../gate/index.ts";
import type { FailurePosture } from "../../gate/posture.ts";
import { agentProgram, hookByHand, selfBinary } from "../../gate/seat.ts";
import type { GateServices } from "../../gate/types.ts";
import type { Context } from "../../ports/context.ts";

export interface HookDeps {
  /** The gate, built on first use; it throws when it cannot be built, and the failure path answers instead. */
  gate(): GateServices;
  posture(): Promise<FailurePosture>;
  /** Why this hook face was started from inside an agent's tool call rather than by the agent: it records nothing. */
  readonly byHand?: string;
  /** Why a call's working directory cannot be ruled on (it was deleted), or undefined when it is there. */
  missingDirectory?(cwd: string): string | undefined;
  /** How long the hook may take for an event before it answers without the gate (tests shorten it). */
  deadlineMs?(event: string): number;
}

export function realDeps(ctx: Context): HookDeps {
  let gate: GateServices | undefined;
  // git's own pre-push runs under whatever git runs under (an interceptor, a person's shell): never "by hand".
  const processes = ctx.processes?.cheap && ctx.args[0] !== "git" ? ctx.processes : undefined;
  // Only the processes up to the nearest agent matter here, and a real hook's agent is one or two levels up.
  const byHand =
    ctx.args[0] === "git"
      ? undefined
      : hookByHand(
          ctx.env,
          processes?.ancestry((p) => agentProgram(p) !== undefined),
          selfBinary(ctx),
        );
  return {
    gate() {
      // A hook run by hand still answers what the gate says, so a wrong guess lets nothing through; it writes no row.
      gate ??= createGate(ctx, byHand ? { recording: false } : {});
      return gate;
    },
    // Read only when memnox failed: the config reader (and its schema) is no cost of a call that succeeds.
    posture: () => import("../../gate/posture-read.ts").then((m) => m.failurePosture(ctx)),
    ...(byHand ? { byHand } : {}),
    missingDirectory,
  };
}

/** A call from a directory that no longer exists: memnox cannot tell which rules apply where it would act. */
export function missingDirectory(cwd: string): string | undefined {
  try {
    return statSync(cwd).isDirectory() ? undefined : `the working directory ${cwd} is not a directory`;
  } catch {
    return `the working directory ${cwd} no longer exists, so memnox cannot tell which rules apply where the call would act`;
  }
}

/** One hook call: who is calling, with what, for which event. */
export interface Face {
  readonly ctx: Context;
  readonly deps: HookDeps;
  readonly adapter: HookAdapter;
  readonly event: string;
}

/** The session the gate records under: `memnox run`'s own when the agent was started by it, else the agent's. */
export function gateSession(ctx: Context, agentSession: string | undefined): string | undefined {
  return ctx.env.MEMNOX_SESSION || agentSession;
}

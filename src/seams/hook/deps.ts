// What the hook face needs beyond its Context: the gate, and how to answer when memnox fails before the gate does.
import type { HookAdapter } from "../../../hooks/types.ts";
import { createGate } from "../../gate/index.ts";
import { type FailurePosture, failurePosture } from "../../gate/posture.ts";
import type { GateServices } from "../../gate/types.ts";
import type { Context } from "../../ports/context.ts";

export interface HookDeps {
  /** The gate, built on first use; it throws when it cannot be built, and the failure path answers instead. */
  gate(): GateServices;
  posture(): Promise<FailurePosture>;
}

export function realDeps(ctx: Context): HookDeps {
  let gate: GateServices | undefined;
  return {
    gate() {
      gate ??= createGate(ctx);
      return gate;
    },
    posture: () => failurePosture(ctx),
  };
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

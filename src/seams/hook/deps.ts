// What the hook face needs beyond its Context: the gate, and how to answer when memnox fails before the gate does.
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

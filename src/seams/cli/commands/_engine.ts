// Asking the gate's own stages about one action, dry: nothing recorded, held, claimed or leased. What `next` uses to
// say what an agent would do on its own, and to check that a hand-over makes the asked call proceed.
import type { Action, ActionClass } from "../../../core/action.ts";
import { type Assessment, assess } from "../../../gate/assess.ts";
import { gateDeps, type LoadingGateDeps } from "../../../gate/wiring.ts";
import type { Context } from "../../../ports/context.ts";

export type DryDeps = LoadingGateDeps;

export function dryDeps(ctx: Context, role?: string): DryDeps {
  const deps = gateDeps(ctx, { dry: true, record: () => undefined, digest: () => "", keepRuleSet: () => {} });
  return role === undefined ? deps : { ...deps, caller: { ...deps.caller, role } };
}

export interface Asked {
  readonly action: string;
  readonly targets: readonly string[];
  readonly cwd: string;
  readonly class: ActionClass;
  readonly agent?: string;
  readonly environment?: string;
}

/** What the engine says, now, about this action from this agent (in its environment, when it declared one). */
export function askEngine(deps: DryDeps, a: Asked): Assessment {
  const action: Action = { name: a.action, class: a.class, targets: a.targets, arguments: {} };
  const d = a.environment === undefined ? deps : { ...deps, caller: { ...deps.caller, environments: [a.environment] } };
  return assess(
    { surface: "cli", action, cwd: a.cwd, canAsk: true, ...(a.agent ? { agent: a.agent } : {}) },
    d,
    deps.now(),
  );
}

// Whether any rule that can match an action name matches on raw arguments: those are decided where the arguments are.
import type { CompiledRuleSet } from "./compile.ts";

export function matchesOnArguments(set: CompiledRuleSet, actionName: string): boolean {
  const candidates = [...(set.byAction.get(actionName) ?? []), ...set.anyAction];
  return candidates.some((c) => (c.arguments?.length ?? 0) > 0 && (c.actions === undefined || c.actions(actionName)));
}

// An agent as a person names it on the command line: the id every row is keyed on, or the name given to it with
// `memnox agents name` (any case). Whatever matches neither is used as typed.
import type { Context } from "../../../ports/context.ts";
import { readAgentNames } from "../../../state/agent-names.ts";

export function agentWord(ctx: Pick<Context, "paths">, word: string): string {
  const lower = word.toLowerCase();
  for (const [id, name] of readAgentNames(ctx.paths.agentNames)) if (name.toLowerCase() === lower) return id;
  return word;
}

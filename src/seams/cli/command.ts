// What a command file declares itself with; the registry imports the command files, so this stays apart from it.
import type { ArgsDef, CommandDef } from "citty";
import type { Context } from "../../ports/context.ts";

export type CommandFactory = (ctx: Context) => CommandDef;

/** citty's CommandDef is invariant in its args, so the registry stores commands erased; define each with this. */
export function command<const T extends ArgsDef>(def: CommandDef<T>): CommandDef {
  return def as unknown as CommandDef;
}

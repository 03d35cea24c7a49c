// The CLI face: a citty command per entry in the registry, each loaded only when it runs.
import type { CommandDef } from "citty";
import { MemnoxError } from "../../core/errors.ts";
import type { Context } from "../../ports/context.ts";
import { setupRan } from "../../wire/kept.ts";
import { renderAll, renderCommandHelp, renderTerminalHelp } from "./help.ts";
import { findCommand } from "./registry.ts";

export async function run(ctx: Context): Promise<number> {
  const [first, ...rest] = ctx.args;
  if (first === undefined) return bare(ctx);
  if (first === "--help" || first === "-h") return say(ctx, renderTerminalHelp(ctx.version));
  if (first === "--version" || first === "-v" || first === "version") return say(ctx, `${ctx.version}\n`);
  if (first === "help") {
    if (rest[0] === undefined) return say(ctx, renderTerminalHelp(ctx.version));
    if (rest[0] === "--all") return say(ctx, renderAll());
    return say(ctx, await renderCommandHelp(ctx, rest));
  }
  const entry = findCommand(first);
  if (!entry) throw new MemnoxError("usage", `unknown command \`${first}\``, "memnox help --all lists every command");
  const def = (await entry.load())(ctx);
  if (rest.includes("--help") || rest.includes("-h")) return say(ctx, await renderCommandHelp(ctx, [first, ...rest]));
  return runDef(def, rest);
}

async function runDef(def: CommandDef, rawArgs: string[]): Promise<number> {
  const { runCommand } = await import("citty");
  try {
    const [leaf, args] = await descend(def, rawArgs);
    const { result } = await runCommand(leaf, { rawArgs: args });
    return typeof result === "number" ? result : 0;
  } catch (e) {
    if (e instanceof Error && e.name === "CLIError") throw new MemnoxError("usage", e.message.toLowerCase());
    throw e;
  }
}

type Lazy<T> = T | Promise<T> | (() => T | Promise<T>);
const value = async <T>(v: Lazy<T> | undefined): Promise<T | undefined> =>
  typeof v === "function" ? await (v as () => T | Promise<T>)() : await v;

/** The subcommand the words name, so its own exit code comes back (citty drops a subcommand's result). */
async function descend(def: CommandDef, rawArgs: string[]): Promise<[CommandDef, string[]]> {
  const subs = await value(def.subCommands);
  if (!subs || Object.keys(subs).length === 0) return [def, rawArgs];
  const i = rawArgs.findIndex((a) => !a.startsWith("-"));
  const named = i === -1 ? undefined : rawArgs[i];
  const fallback = await value(def.default);
  const name = named ?? fallback;
  const sub = name === undefined ? undefined : await value(subs[name]);
  if (!sub) return [def, rawArgs];
  return descend(sub, named === undefined ? rawArgs : rawArgs.slice(i + 1));
}

/** Bare `memnox`: the scan on a machine nobody set up (setup writes `kept.json`), where it stands after. */
async function bare(ctx: Context): Promise<number> {
  if (setupRan(ctx.paths.kept)) return (await import("./commands/status.ts")).runStatus(ctx, false);
  return (await import("./commands/scan.ts")).runScan(ctx, {});
}

function say(ctx: Context, text: string): number {
  ctx.io.out(text);
  return 0;
}

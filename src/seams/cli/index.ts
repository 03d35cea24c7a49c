// The CLI face: a citty command per entry in the registry, each loaded only when it runs.
import type { CommandDef } from "citty";
import { MemnoxError } from "../../core/errors.ts";
import type { Context } from "../../ports/context.ts";
import { mayLoosen } from "../../resolve/commands/memnox.ts";
import { setupRan } from "../../wire/kept.ts";
import {
  checkWords,
  contractStdio,
  errorObject,
  ReaderGone,
  type Segment,
  subcommandNames,
  unknownSubcommand,
  value,
  wantsJson,
} from "./contract.ts";
import { renderAll, renderCommandHelp, renderTerminalHelp } from "./help.ts";
import { maskedStdio } from "./output.ts";
import { COMMANDS, findCommand } from "./registry.ts";

/**
 * What the CLI prints is masked on the way out, but for memory (its pages are masked at memex's own write boundary,
 * with memex's markers) and cloud (`cloud init` prints, once, the admin token it was asked to make).
 */
const UNMASKED = new Set(["memory", "cloud"]);

export async function run(given: Context): Promise<number> {
  const first = given.args[0];
  const io = contractStdio(given.io, given.env, { wrap: !wantsJson(given.args) });
  const ctx: Context = { ...given, io: first && UNMASKED.has(first) ? io : maskedStdio(io, given.args) };
  try {
    return await dispatch(ctx);
  } catch (e) {
    if (e instanceof ReaderGone) return 0;
    if (!wantsJson(ctx.args)) throw e;
    const shown = errorObject(e);
    try {
      ctx.io.out(`${JSON.stringify(shown, null, 2)}\n`);
    } catch (gone) {
      if (!(gone instanceof ReaderGone)) throw gone;
    }
    return shown.error.exitCode;
  }
}

async function dispatch(ctx: Context): Promise<number> {
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
  if (!entry) {
    throw unknownSubcommand(
      first,
      ["memnox"],
      COMMANDS.map((c) => c.name),
    );
  }
  const def = (await entry.load())(ctx);
  // Words after `--` are the started program's own (`memnox run -- claude --help`): never memnox's help.
  const own = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  if (own.includes("--help") || own.includes("-h")) return say(ctx, await renderCommandHelp(ctx, [first, ...own]));
  const segments = await descend(def, rest, ["memnox", first]);
  for (const seg of segments) await checkWords(seg, entry.rest ? { rest: true } : {});
  // The guard reads the config and may write the ledger: it loads only for words that can loosen governance.
  if (mayLoosen(ctx.args)) (await import("./seat-guard.ts")).guardSeat(ctx, ctx.args);
  return runDef(segments);
}

async function runDef(segments: readonly Segment[]): Promise<number> {
  const { runCommand } = await import("citty");
  // The leaf runs on its own words, so its returned number is the exit code (citty drops a subcommand's result);
  // a parent given flags of its own before the subcommand runs whole, as citty would run it.
  const parentFlags = segments.slice(0, -1).some((s) => s.words.length > 0);
  const [head] = segments;
  const leaf = segments.at(-1);
  if (!head || !leaf) return 0;
  const [def, rawArgs] = parentFlags
    ? [head.def, segments.flatMap((s, i) => (i === 0 ? s.words : [s.trail.at(-1) ?? "", ...s.words]))]
    : [leaf.def, [...leaf.words]];
  try {
    const { result } = await runCommand(def, { rawArgs });
    return typeof result === "number" ? result : 0;
  } catch (e) {
    if (e instanceof Error && e.name === "CLIError") throw new MemnoxError("usage", e.message.toLowerCase());
    throw e;
  }
}

/** Each command the words name, down to the one that runs, with the words that belong to each. */
async function descend(def: CommandDef, words: readonly string[], trail: readonly string[]): Promise<Segment[]> {
  const subs = await value(def.subCommands);
  if (!subs || Object.keys(subs).length === 0) return [{ def, words, trail }];
  const i = await subcommandAt(def, words);
  const named = i === -1 ? undefined : words[i];
  if (named !== undefined) {
    const sub = await value(subs[named]);
    if (!sub) throw unknownSubcommand(named, trail, await subcommandNames(def));
    const own = { def, words: words.slice(0, i), trail };
    return [own, ...(await descend(sub, words.slice(i + 1), [...trail, named]))];
  }
  const fallback = await value(def.default);
  const sub = fallback === undefined ? undefined : await value(subs[fallback]);
  if (!sub || fallback === undefined) return [{ def, words, trail }];
  return [{ def, words: [], trail }, ...(await descend(sub, words, [...trail, fallback]))];
}

/** Where the subcommand's name is: the first word that is not a flag or a flag's value. */
async function subcommandAt(def: CommandDef, words: readonly string[]): Promise<number> {
  const args = (await value(def.args)) ?? {};
  const takesValue = new Set(
    Object.entries(args)
      .filter(([, a]) => a.type === "string" || a.type === "enum")
      .map(([n]) => `--${n}`),
  );
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? "";
    if (w === "--") return -1;
    if (!w.startsWith("-")) return i;
    if (takesValue.has(w)) i += 1;
  }
  return -1;
}

/** Bare `memnox`: the scan on a machine nobody set up (setup writes `kept.json`), where it stands after. */
async function bare(ctx: Context): Promise<number> {
  if (setupRan(ctx.paths.kept)) return (await import("./commands/status.ts")).runStatus(ctx, false);
  // Bare `memnox` starts nobody's MCP server: `memnox scan` does, when a person asks for it.
  return (await import("./commands/scan.ts")).runScan(ctx, { probe: false });
}

function say(ctx: Context, text: string): number {
  ctx.io.out(text);
  return 0;
}

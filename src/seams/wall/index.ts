// `memnox wall <session wall file> -- <program> [args…]`: the helper `memnox run` starts its agent through. It raises
// the session's Landlock ruleset on this, the main, thread and then execs the program from the same thread: the new
// image keeps the pid, the terminal and the domain, and Bun's other threads end with the old image, so nothing the
// agent runs, no thread and no child, is outside the wall.
// `memnox wall agent '<command>'` (also as `memnox-wall`): the machine's agent wall around one shell command, where
// the perl applier found no fresh plan or no perl: it plans again from the description, writes the plan, raises it.
import { existsSync, readFileSync } from "node:fs";
import { MemnoxError } from "../../core/errors.ts";
import type { Context } from "../../ports/context.ts";
import { agentWallFile, archOf, hidden, readAgentWall, writeAgentPlan } from "../../wall/agent.ts";
import { isPerlApplier, REPLANNED } from "../../wall/applier.ts";
import { realDisk } from "../../wall/disk.ts";
import { readSessionWall } from "../../wall/files.ts";
import { WALL_VAR } from "../../wall/inside.ts";
import { type LandlockPlan, landlockPlan } from "../../wall/landlock.ts";

function envOf(ctx: Context, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined) env[k] = v;
  return { ...env, ...extra };
}

/** The shell the agent asked for (bash or zsh, by absolute path), else bash. */
function shellFor(env: Readonly<Record<string, string | undefined>>, exists = existsSync): string {
  for (const c of [env.CLAUDE_CODE_SHELL, env.SHELL]) {
    if (c && /^\/\S*(?:bash|zsh)$/.test(c) && exists(c)) return c;
  }
  return "/bin/bash";
}

async function agent(ctx: Context, args: readonly string[]): Promise<number> {
  const file = readAgentWall(ctx.paths);
  if (!file)
    throw new MemnoxError(
      "refused",
      "no agent wall is written on this machine, so this command cannot run inside it",
      "memnox protect --wall writes it",
    );
  const { execProgram, leaveTerminal, raiseWall } = await import("../../wall/ffi.ts");
  const cmd = args.length === 1 ? args[0] : undefined;
  if (cmd !== undefined && file.exempt.includes(cmd)) return execProgram("/bin/sh", ["sh", "-c", cmd], envOf(ctx));
  // The wall bites in enforce only, as every verdict does; a seal that cannot be read is taken as enforce.
  if (sealedMode(ctx.paths) !== "enforce") return runShell(ctx, args, envOf(ctx), execProgram);
  if (file.kernel.kind !== "landlock")
    throw new MemnoxError("refused", "the agent wall was written for a kernel this applier cannot raise");
  const arch = archOf(process.arch);
  let plan: LandlockPlan | undefined;
  try {
    plan = arch ? writeAgentPlan(ctx.paths, file, arch) : undefined;
  } catch {
    // Inside another wall the plan cannot be written: the same plan, kept in memory, is raised.
  }
  // A fresh plan that hides servers is the perl applier's to raise: a process with threads (this one) cannot enter
  // a user namespace. It is handed over once; a plan stale again by then is refused there, never looped.
  const applier = ctx.paths.applier;
  if (plan && hidden(file) && !ctx.env[REPLANNED] && isPerlApplier(applier))
    return execProgram(applier, [applier, ...args], envOf(ctx, { [REPLANNED]: "1" }));
  raiseWall(plan ?? landlockPlan(file.wall, file.kernel.abi, realDisk));
  leaveTerminal();
  return runShell(ctx, args, envOf(ctx, { [WALL_VAR]: agentWallFile(ctx.paths) }), execProgram);
}

function sealedMode(paths: Context["paths"]): string {
  try {
    const raw: unknown = JSON.parse(readFileSync(paths.sealed, "utf8"));
    const mode = (raw as { mode?: unknown }).mode;
    return typeof mode === "string" ? mode : "enforce";
  } catch {
    return "enforce";
  }
}

type Exec = (path: string, argv: readonly string[], env: Readonly<Record<string, string>>) => never;

/** The one command string in the agent's shell, or an argv after `--`. */
function runShell(ctx: Context, args: readonly string[], env: Record<string, string>, execProgram: Exec): number {
  const cmd = args.length === 1 ? args[0] : undefined;
  if (cmd !== undefined) {
    const shell = shellFor(ctx.env);
    return execProgram(shell, [shell, "-c", cmd], env);
  }
  const argv = args[0] === "--" ? args.slice(1) : args;
  const program = argv[0];
  if (!program) throw new MemnoxError("usage", "memnox wall agent needs a command");
  const path = program.startsWith("/") ? program : Bun.which(program, { PATH: ctx.env.PATH ?? "" });
  if (!path) throw new MemnoxError("not_found", `\`${program}\` was not found on PATH`);
  return execProgram(path, argv, env);
}

export async function run(ctx: Context): Promise<number> {
  if (ctx.args[0] === "agent") return agent(ctx, ctx.args.slice(1));
  const [file, dash, program, ...rest] = ctx.args;
  if (!file || dash !== "--" || !program?.startsWith("/"))
    throw new MemnoxError("usage", "memnox wall needs a wall file, --, and a program by its absolute path");
  const wall = readSessionWall(file);
  if (!wall) throw new MemnoxError("not_found", `no wall at \`${file}\``);
  if (wall.kernel.kind !== "landlock" || !wall.plan)
    throw new MemnoxError("refused", `the wall at \`${file}\` is not one Landlock holds`);
  const { execProgram, raiseWall } = await import("../../wall/ffi.ts");
  raiseWall(wall.plan);
  return execProgram(program, [program, ...rest], envOf(ctx));
}

// `memnox run -- <cmd>`: a command that is not an agent starting is judged like any other line before it starts
// (surface `run`): refused, asked of the person at the terminal or held, or let through, through the seams' one path.
import { realpathSync } from "node:fs";
import { basename, resolve } from "node:path";
import { isAgentProgram } from "../../../core/agents.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { createGate } from "../../../gate/index.ts";
import { findRealBinary } from "../../../io/real-binary.ts";
import type { Context } from "../../../ports/context.ts";
import { renderArg } from "../../../resolve/shell/render.ts";
import { commandWords } from "../../../resolve/words.ts";
import { insideWall } from "../../../wall/inside.ts";
import { gateThenRun } from "../../shared/gated.ts";
import { openTerminal } from "../../shared/terminal.ts";

/** Shells and interpreters: under an agent's name (`ln -s /bin/bash claude`) they are still what they are. */
const NOT_AGENTS =
  /^(ba|da|z|k|mk|a|c|tc|fi|po|ya)?sh$|^(busybox|env|node|nodejs|bun|deno|python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|php[0-9.]*|lua[0-9.]*|tclsh[0-9.]*|expect|osascript|pwsh)$/;

/** The program a name really runs, links followed; undefined when it cannot be found. */
function realProgram(ctx: Context, name: string): string | undefined {
  const found = name.includes("/")
    ? resolve(ctx.cwd, name)
    : findRealBinary(name, ctx.env.PATH, [ctx.paths.bin], ctx.execPath);
  try {
    return found ? realpathSync(found) : undefined;
  } catch {
    return undefined;
  }
}

/** An agent's own program: its name says so, and what that name really runs is no shell or interpreter. */
function agentStarting(name: string, real: string | undefined): boolean {
  return isAgentProgram(name) && !(real && NOT_AGENTS.test(basename(real)));
}

/** Starts `cmd` with `start` (the run itself), once the gate let it through; an agent program starts unjudged. */
export async function runJudged(
  ctx: Context,
  cmd: readonly string[],
  start: (argv: readonly string[]) => Promise<number>,
): Promise<number> {
  const real = realProgram(ctx, cmd[0] ?? "");
  if (agentStarting(cmd[0] ?? "", real)) return start(cmd);
  // A shell or interpreter under another name (a link `claude` or `make` to bash) is judged as what it is.
  const disguised = real && NOT_AGENTS.test(basename(real)) && basename(real) !== basename(cmd[0] ?? "");
  const judged = disguised ? [real, ...cmd.slice(1)] : cmd;
  const text = cmd.map(renderArg).join(" ");
  // Inside a wall a held answer cannot be read back, so nothing asks: what would ask is refused with its reason.
  const walled = insideWall(ctx.env);
  const terminal = ctx.io.stdinIsTTY && !walled ? openTerminal() : undefined;
  const session = ctx.env.MEMNOX_SESSION;
  return gateThenRun(
    {
      text,
      request: (t) => ({
        surface: "run",
        cwd: ctx.cwd,
        canAsk: terminal !== undefined,
        ...(walled ? { walled: true as const } : {}),
        ...(t === text ? { argv: judged } : { command: t }),
        ...(session ? { session } : {}),
      }),
      exec: async (t) => {
        const argv = t === text ? cmd : commandWords(t);
        if (!argv || argv.length === 0) throw new MemnoxError("refused", "an edited command must be one plain command");
        const at = ctx.clock.now();
        const exitCode = await start(argv);
        return { exitCode, durationMs: ctx.clock.now() - at };
      },
    },
    { gate: createGate(ctx), io: ctx.io, terminal },
  );
}

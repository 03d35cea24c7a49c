// `memnox run -- <cmd>`: a command that is not an agent starting is judged like any other line before it starts
// (surface `run`): refused, asked of the person at the terminal or held, or let through, through the seams' one path.
import { isAgentProgram } from "../../../core/agents.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { createGate } from "../../../gate/index.ts";
import type { Context } from "../../../ports/context.ts";
import { renderArg } from "../../../resolve/shell/render.ts";
import { commandWords } from "../../../resolve/words.ts";
import { insideWall } from "../../../wall/inside.ts";
import { gateThenRun } from "../../shared/gated.ts";
import { openTerminal } from "../../shared/terminal.ts";

/** Starts `cmd` with `start` (the run itself), once the gate let it through; an agent program starts unjudged. */
export async function runJudged(
  ctx: Context,
  cmd: readonly string[],
  start: (argv: readonly string[]) => Promise<number>,
): Promise<number> {
  if (isAgentProgram(cmd[0] ?? "")) return start(cmd);
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
        ...(t === text ? { argv: cmd } : { command: t }),
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

// The PATH interceptor's gated path: the exact argv through the gate, then the real binary as a child.

import { MemnoxError } from "../../core/errors.ts";
import { shellWord } from "../../core/shell-quote.ts";
import { createGate } from "../../gate/index.ts";
import type { Context } from "../../ports/context.ts";
import { commandWords } from "../../resolve/words.ts";
import { underOsGuard } from "../../wall/guard.ts";
import { insideWall } from "../../wall/inside.ts";
import { runChild } from "../shared/child.ts";
import { gateThenRun } from "../shared/gated.ts";
import { keepMilestones } from "../shared/milestones.ts";
import { stampHold } from "../shared/requester.ts";
import { openTerminal } from "../shared/terminal.ts";
import { type GitPlan, gitPlan } from "./git.ts";

interface ShimCall {
  readonly name: string;
  readonly realBin: string;
  readonly argv: readonly string[];
  readonly childEnv: Record<string, string | undefined>;
  /** A person at their own terminal where a rule could name them: decided with the person's seat. */
  readonly person: boolean;
}

/** The interceptor's full path: the gate decides (asking at the terminal or holding), then the real program runs. */
export async function runGated(ctx: Context, call: ShimCall): Promise<number> {
  const { name, realBin, argv, childEnv, person } = call;
  const plan: GitPlan = name === "git" ? gitPlan(argv, realBin, ctx.cwd, childEnv) : { request: { argv } };
  const typed = argv.map(shellWord).join(" ");
  const shown = plan.note ? `${typed} (${plan.note})` : typed;
  // Inside a wall a held answer cannot be read back, so nothing asks: what would ask is refused with its reason.
  const walled = insideWall(ctx.env);
  const terminal = ctx.io.stdinIsTTY && !walled ? openTerminal() : undefined;
  return gateThenRun(
    {
      text: shown,
      request: (text) => ({
        surface: "interceptor",
        cwd: ctx.cwd,
        canAsk: terminal !== undefined,
        ...(walled ? { walled: true as const } : {}),
        ...(person ? { seat: "person" as const } : {}),
        ...(text === shown ? plan.request : { command: text }),
        ...(ctx.env.MEMNOX_SESSION ? { session: ctx.env.MEMNOX_SESSION } : {}),
        ...(ctx.env.MEMNOX_RULED ? { handedDown: ctx.env.MEMNOX_RULED } : {}),
      }),
      // A milestone is kept for what an agent does; a person's own command keeps none they did not ask for.
      beforeRun: async (answer) => {
        if (person) return;
        await keepMilestones(ctx, {
          surface: "interceptor",
          session: ctx.env.MEMNOX_SESSION,
          agent: ctx.env.MEMNOX_AGENT_NAME,
          cwd: ctx.cwd,
          actions: answer.actions,
          argv,
          firstWrite: false,
        });
      },
      exec: async (text, ruled) => {
        const args = text === shown ? ctx.args : editedArgs(name, text);
        // What this CLI reads itself (gh its login, git its keys) stays readable to it under the machine's guard.
        const guarded = await underOsGuard(ctx.paths, [realBin, ...args], name);
        const env = ruled ? { ...childEnv, MEMNOX_RULED: ruled } : childEnv;
        return runChild(guarded, { env, cwd: ctx.cwd, interactive: ctx.io.stdinIsTTY });
      },
    },
    { gate: createGate(ctx), io: ctx.io, terminal, waitingOn: (id) => stampHold(ctx, id, "self") },
  );
}

/** An edit at the terminal must stay one plain call of the same command; its words are read as a shell would. */
function editedArgs(name: string, text: string): string[] {
  const words = commandWords(text);
  if (!words || words[0] !== name) {
    throw new MemnoxError("refused", `an edited \`${name}\` call must be one plain \`${name}\` command`);
  }
  return words.slice(1);
}

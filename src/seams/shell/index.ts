// The governed shell: an agent's SHELL. Gates the whole -c line (every command in it) then hands it to the real shell.
import { realpathSync } from "node:fs";
import { MemnoxError } from "../../core/errors.ts";
import { createGate } from "../../gate/index.ts";
import { realOr } from "../../io/real.ts";
import type { Context } from "../../ports/context.ts";
import { underOsGuard } from "../../wall/guard.ts";
import { insideWall } from "../../wall/inside.ts";
import { runChild } from "../shared/child.ts";
import { gateThenRun } from "../shared/gated.ts";
import { keepMilestones } from "../shared/milestones.ts";
import { stampHold } from "../shared/requester.ts";
import { openTerminal } from "../shared/terminal.ts";
import { parseShellArgs } from "./args.ts";

export async function run(ctx: Context): Promise<number> {
  const shell = realShell(ctx);
  const parsed = parseShellArgs(ctx.args);
  const interactive = ctx.io.stdinIsTTY;
  if (parsed.command === undefined) {
    // No -c: an interactive or script shell; what it runs still meets the PATH interceptors.
    const argv = await underOsGuard(ctx.paths, [shell, ...ctx.args]);
    return (await runChild(argv, { env: ctx.env, cwd: ctx.cwd, interactive })).exitCode;
  }
  // Inside a wall a held answer cannot be read back, so nothing asks: what would ask is refused with its reason.
  const walled = insideWall(ctx.env);
  const terminal = interactive && !walled ? openTerminal() : undefined;
  return gateThenRun(
    {
      text: parsed.command,
      request: (text) => ({
        surface: "shell",
        command: text,
        cwd: ctx.cwd,
        canAsk: terminal !== undefined,
        ...(walled ? { walled: true as const } : {}),
        ...(ctx.env.MEMNOX_SESSION ? { session: ctx.env.MEMNOX_SESSION } : {}),
        ...(ctx.env.MEMNOX_RULED ? { handedDown: ctx.env.MEMNOX_RULED } : {}),
      }),
      beforeRun: (answer) =>
        keepMilestones(ctx, {
          surface: "shell",
          session: ctx.env.MEMNOX_SESSION,
          agent: ctx.env.MEMNOX_AGENT_NAME,
          cwd: ctx.cwd,
          actions: answer.actions,
          firstWrite: false,
        }),
      // What it runs knows it runs under a governed shell: a memnox command from there is an agent's.
      exec: async (text, ruled) =>
        runChild(await underOsGuard(ctx.paths, [shell, ...parsed.withCommand(text)]), {
          env: { ...ctx.env, MEMNOX_SEAT: "shell", ...(ruled ? { MEMNOX_RULED: ruled } : {}) },
          cwd: ctx.cwd,
          interactive,
        }),
    },
    { gate: createGate(ctx), io: ctx.io, terminal, waitingOn: (id) => stampHold(ctx, id, "self") },
  );
}

/** MEMNOX_REAL_SHELL, never ourselves: a governed shell that resolved to itself would loop forever. */
function realShell(ctx: Context): string {
  const candidate = ctx.env.MEMNOX_REAL_SHELL || "/bin/bash";
  let resolved: string;
  try {
    resolved = realpathSync(candidate);
  } catch {
    throw new MemnoxError(
      "usage",
      `MEMNOX_REAL_SHELL \`${candidate}\` does not exist`,
      "set it to a real shell such as /bin/bash",
    );
  }
  if (resolved === realOr(ctx.execPath)) {
    throw new MemnoxError(
      "refused",
      `MEMNOX_REAL_SHELL \`${candidate}\` is memnox itself`,
      "point it at the shell memnox displaced, e.g. /bin/bash",
    );
  }
  return candidate;
}

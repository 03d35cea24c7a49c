// The PATH interceptor: stands in for `git`, `gh`, `rm`…, gates the exact argv, then runs the real binary as a child.
import { join } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import { createGate } from "../../gate/index.ts";
import { findRealBinary } from "../../io/real-binary.ts";
import type { Context } from "../../ports/context.ts";
import type { Env } from "../../ports/index.ts";
import { commandWords } from "../../resolve/words.ts";
import { underOsGuard } from "../../wall/guard.ts";
import { insideWall } from "../../wall/inside.ts";
import { runChild } from "../shared/child.ts";
import { gateThenRun } from "../shared/gated.ts";
import { keepMilestones } from "../shared/milestones.ts";
import { DENY_EXIT } from "../shared/refusal.ts";
import { stampHold } from "../shared/requester.ts";
import { openTerminal } from "../shared/terminal.ts";
import { type GitPlan, gitPlan } from "./git.ts";
import { gitExecDir, startedByGit } from "./git-exec.ts";

const MAX_DEPTH = 8;

export async function run(ctx: Context): Promise<number> {
  const name = ctx.invokedName;
  if (!name) throw new MemnoxError("usage", "memnox shim needs the name of the command it stands in for");
  const depth = Number(ctx.env.MEMNOX_SHIM_DEPTH ?? "0");
  if (depth >= MAX_DEPTH) {
    ctx.io.err(`memnox: \`${name}\` interceptors call each other in a loop; refusing\n`);
    return DENY_EXIT;
  }
  const realBin = findRealBinary(name, ctx.env.PATH, [ctx.paths.bin, ctx.paths.gitExec], ctx.execPath);
  if (!realBin) {
    ctx.io.err(`memnox: no real \`${name}\` on PATH outside ${ctx.paths.bin}\n`);
    return 127;
  }
  const argv = [name, ...ctx.args];
  const childEnv: Record<string, string | undefined> = { ...ctx.env, MEMNOX_SHIM_DEPTH: String(depth + 1) };
  let plan: GitPlan = { request: { argv } };
  if (name === "git") {
    const exec = gitExecDir(ctx, realBin);
    if (exec) childEnv.GIT_EXEC_PATH = exec.dir;
    // git's own plumbing, started by git itself (pack-objects under a push): neither asked nor recorded.
    const gits = exec ? [realBin, join(exec.real, "git")] : [realBin];
    if (startedByGit(gits, process.ppid)) return passThrough(ctx, realBin, childEnv);
    plan = gitPlan(argv, realBin, ctx.cwd, childEnv);
  }
  const typed = argv.map(displayWord).join(" ");
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
        ...(text === shown ? plan.request : { command: text }),
        ...(ctx.env.MEMNOX_SESSION ? { session: ctx.env.MEMNOX_SESSION } : {}),
        ...(ctx.env.MEMNOX_RULED ? { handedDown: ctx.env.MEMNOX_RULED } : {}),
      }),
      beforeRun: (answer) =>
        keepMilestones(ctx, {
          surface: "interceptor",
          session: ctx.env.MEMNOX_SESSION,
          agent: ctx.env.MEMNOX_AGENT_NAME,
          cwd: ctx.cwd,
          actions: answer.actions,
          argv,
          firstWrite: false,
        }),
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

async function passThrough(ctx: Context, realBin: string, env: Env): Promise<number> {
  const ran = await runChild([realBin, ...ctx.args], { env, cwd: ctx.cwd, interactive: ctx.io.stdinIsTTY });
  return ran.exitCode;
}

function displayWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`;
}

/** An edit at the terminal must stay one plain call of the same command; its words are read as a shell would. */
function editedArgs(name: string, text: string): string[] {
  const words = commandWords(text);
  if (!words || words[0] !== name) {
    throw new MemnoxError("refused", `an edited \`${name}\` call must be one plain \`${name}\` command`);
  }
  return words.slice(1);
}

// The PATH interceptor: stands in for `git`, `gh`, `rm`…, gates the exact argv, then runs the real binary as a child.
// This entry stays small: a person's own command where no rule names them never loads the gate, and an agent's
// call loads it once it is known to need it (gated-call.ts).
import { join } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import { seatOf, selfBinary } from "../../gate/seat.ts";
import { findRealBinary } from "../../io/real-binary.ts";
import type { Context } from "../../ports/context.ts";
import type { Env } from "../../ports/index.ts";
import { runChild } from "../shared/child.ts";
import { gitExecDir, startedByGit } from "./git-exec.ts";

const MAX_DEPTH = 8;
/** What a refused call exits with (shared/refusal.ts holds the same number for the gated path). */
const LOOP_EXIT = 126;

export async function run(ctx: Context): Promise<number> {
  const name = ctx.invokedName;
  if (!name) throw new MemnoxError("usage", "memnox shim needs the name of the command it stands in for");
  const depth = Number(ctx.env.MEMNOX_SHIM_DEPTH ?? "0");
  if (depth >= MAX_DEPTH) {
    ctx.io.err(`memnox: \`${name}\` interceptors call each other in a loop; refusing\n`);
    return LOOP_EXIT;
  }
  const realBin = findRealBinary(name, ctx.env.PATH, [ctx.paths.bin, ctx.paths.gitExec], ctx.execPath);
  if (!realBin) {
    ctx.io.err(`memnox: no real \`${name}\` on PATH outside ${ctx.paths.bin}\n`);
    return 127;
  }
  const argv = [name, ...ctx.args];
  const childEnv: Record<string, string | undefined> = { ...ctx.env, MEMNOX_SHIM_DEPTH: String(depth + 1) };
  if (name === "git") {
    const exec = gitExecDir(ctx, realBin);
    if (exec) childEnv.GIT_EXEC_PATH = exec.dir;
    // git's own plumbing, started by git itself (pack-objects under a push): neither asked nor recorded.
    const gits = exec ? [realBin, join(exec.real, "git")] : [realBin];
    if (startedByGit(gits, process.ppid)) return passThrough(ctx, realBin, childEnv);
  }
  // A person at their own terminal is recorded as the person and meets only the rules they wrote for themselves.
  const person = personAtTerminal(ctx);
  if (person) {
    const { personRulesMayApply } = await import("../../gate/person-rules.ts");
    if (!personRulesMayApply(ctx.paths, ctx.env, ctx.cwd, argv)) return runAsPerson(ctx, realBin, argv, childEnv);
  }
  const { runGated } = await import("./gated-call.ts");
  return runGated(ctx, { name, realBin, argv, childEnv, person });
}

/**
 * Whether a person at their own terminal started this: it has a controlling terminal, no agent variable is set, and
 * no agent or seam is among its parents. A script with no terminal (CI, cron) is not a person at a terminal.
 */
function personAtTerminal(ctx: Context): boolean {
  const ancestry = ctx.processes?.ancestry();
  if (!ancestry?.chain[0]?.tty) return false;
  return seatOf(ctx.env, ancestry, selfBinary(ctx)).kind === "person";
}

/** The person's command runs as typed; one row records it as theirs once it ends. */
async function runAsPerson(ctx: Context, realBin: string, argv: readonly string[], env: Env): Promise<number> {
  const startedAtMs = ctx.clock.now();
  const ran = await runChild([realBin, ...argv.slice(1)], { env, cwd: ctx.cwd, interactive: ctx.io.stdinIsTTY });
  const { recordPersonCall } = await import("../../gate/person.ts");
  await recordPersonCall(ctx, { argv, cwd: ctx.cwd, exitCode: ran.exitCode, durationMs: ran.durationMs, startedAtMs });
  return ran.exitCode;
}

async function passThrough(ctx: Context, realBin: string, env: Env): Promise<number> {
  const ran = await runChild([realBin, ...ctx.args], { env, cwd: ctx.cwd, interactive: ctx.io.stdinIsTTY });
  return ran.exitCode;
}

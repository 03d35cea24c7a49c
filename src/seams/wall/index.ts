// `memnox wall <session wall file> -- <program> [args…]`: the helper `memnox run` starts its agent through. It raises
// the session's Landlock ruleset on this, the main, thread and then execs the program from the same thread: the new
// image keeps the pid, the terminal and the domain, and Bun's other threads end with the old image, so nothing the
// agent runs, no thread and no child, is outside the wall.
import { MemnoxError } from "../../core/errors.ts";
import type { Context } from "../../ports/context.ts";
import { readSessionWall } from "../../wall/files.ts";

export async function run(ctx: Context): Promise<number> {
  const [file, dash, program, ...rest] = ctx.args;
  if (!file || dash !== "--" || !program?.startsWith("/"))
    throw new MemnoxError("usage", "memnox wall needs a wall file, --, and a program by its absolute path");
  const wall = readSessionWall(file);
  if (!wall) throw new MemnoxError("not_found", `no wall at \`${file}\``);
  if (wall.kernel.kind !== "landlock" || !wall.plan)
    throw new MemnoxError("refused", `the wall at \`${file}\` is not one Landlock holds`);
  const { execProgram, raiseWall } = await import("../../wall/ffi.ts");
  raiseWall(wall.plan);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined) env[k] = v;
  return execProgram(program, [program, ...rest], env);
}

// The machine's kernel guard (`protect --os-guard`) around one program a seam starts: raised on this thread just
// before the spawn (Landlock: the child inherits it, and nothing the seam does afterwards reads a credential), or
// as sandbox-exec in front of the program (seatbelt). What the CLI reads itself stays readable to its interceptor.
import { MemnoxError } from "../core/errors.ts";
import type { Paths } from "../ports/paths.ts";
import { exceptFor, type Wall } from "./description.ts";
import { realDisk } from "./disk.ts";
import { readOsGuard } from "./files.ts";
import { landlockPlan } from "./landlock.ts";
import { SANDBOX_EXEC } from "./probe.ts";
import { seatbeltProfile } from "./seatbelt.ts";

/** The argv to spawn under the machine's guard; argv itself when no guard was written. Fails closed. */
export async function underOsGuard(
  paths: Pick<Paths, "guard">,
  argv: readonly string[],
  cli?: string,
): Promise<readonly string[]> {
  const guard = readOsGuard(paths);
  if (!guard) return argv;
  const wall: Wall = cli ? exceptFor(guard.wall, cli) : guard.wall;
  if (process.platform === "darwin") return [SANDBOX_EXEC, "-p", seatbeltProfile(wall), ...argv];
  const { landlockAbi, raiseWall } = await import("./ffi.ts");
  const abi = landlockAbi();
  if (abi < 1) {
    throw new MemnoxError(
      "refused",
      "the kernel guard (memnox protect --os-guard) cannot be raised: this kernel has no Landlock",
      "memnox protect --revert-os-guard takes the guard off",
    );
  }
  raiseWall(landlockPlan(wall, abi, realDisk));
  return argv;
}

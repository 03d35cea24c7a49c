// `memnox protect --os-guard`: the machine's kernel guard written from the credential places and the rules that
// deny reading (gathered by the command), and how doctor reads it back. The interceptors and the governed shell
// raise it (guard.ts).
import type { Context } from "../ports/context.ts";
import { type OsGuardInput, osGuardWall, shown, type Wall } from "./description.ts";
import { osGuardFile, readOsGuard, removeOsGuard, writeOsGuard } from "./files.ts";
import { canHold, type Kernel, kernelName } from "./held.ts";
import { abiCap, probeKernel } from "./probe.ts";
import { seatbeltProfile } from "./seatbelt.ts";

interface GuardWritten {
  readonly file: string;
  readonly kernel: Kernel;
  readonly held: boolean;
  readonly wall: Wall;
}

export async function writeMachineGuard(ctx: Context, input: OsGuardInput): Promise<GuardWritten> {
  const kernel = await probeKernel(process.platform, abiCap(ctx.env.MEMNOX_WALL_ABI));
  const wall = osGuardWall(input);
  const held = canHold(kernel);
  if (held)
    writeOsGuard(
      ctx.paths,
      { version: 1, writtenAt: new Date(ctx.clock.now()).toISOString(), wall },
      seatbeltProfile(wall),
    );
  return { file: osGuardFile(ctx.paths), kernel, held, wall };
}

export function removeMachineGuard(ctx: Pick<Context, "paths">): boolean {
  return removeOsGuard(ctx.paths);
}

interface GuardState {
  readonly status: "ok" | "fail" | "idle";
  readonly words: string;
  readonly fix?: string;
}

/** doctor --wiring's line: whether a guard is written, and whether this kernel holds it. */
export async function machineGuardState(ctx: Context): Promise<GuardState> {
  let wall: Wall | undefined;
  try {
    wall = readOsGuard(ctx.paths)?.wall;
  } catch (e) {
    return {
      status: "fail",
      words: `${(e as Error).message}: every seam refuses to start a program`,
      fix: "memnox protect --os-guard",
    };
  }
  if (!wall) {
    return {
      status: "idle",
      words:
        "no kernel guard: a program a seam starts can read what no rule names (memnox run --untrusted walls one run)",
      fix: "memnox protect --os-guard",
    };
  }
  const kernel = await probeKernel(process.platform, abiCap(ctx.env.MEMNOX_WALL_ABI));
  if (!canHold(kernel)) {
    return {
      status: "fail",
      words: `a kernel guard is written but ${kernelName(kernel)}: the interceptors and the governed shell refuse to start programs`,
      fix: "memnox protect --revert-os-guard",
    };
  }
  const named = wall.unreadable.slice(0, 3).map((u) => shown(wall, u.path));
  const not = wall.unexpressed.length > 0 ? `; not held (no path stands for them): ${wall.unexpressed.join(", ")}` : "";
  return {
    status: "ok",
    words: `kernel guard held by ${kernelName(kernel)}: ${wall.unreadable.length} paths (${named.join(", ")}, ...) unreadable to every program the interceptors and the governed shell start${not}`,
  };
}

// Homes for kernel-wall tests: outside every temp directory (the wall writes temp, never a home), under the
// checkout's ignored .cache/, removed at scope end.
import { join } from "node:path";
import { type TempDir, type Tree, tempDir } from "./fs.ts";
import { type FakeHome, fakeHome } from "./home.ts";

const BASE = join(import.meta.dir, "..", "..", ".cache", "wall-homes");

export function wallDir(prefix: string, tree: Tree = {}): TempDir {
  return tempDir(prefix, tree, BASE);
}

/** A fake home outside temp, with its own MEMNOX_HOME. */
export function wallHome(tree: Tree = {}): FakeHome {
  return fakeHome(tree, BASE);
}

/** The Landlock ABI of this kernel, 0 where it has none: a test skips only the parts it cannot hold. */
export async function kernelAbi(): Promise<number> {
  const { landlockAbi } = await import("../../src/wall/ffi.ts");
  return landlockAbi();
}

// Homes for kernel-wall tests: outside every temp directory (the wall writes temp, never a home), under the
// checkout's ignored .cache/, removed at scope end. A checkout that is itself in temp (a CI clone in /tmp) puts
// them in the user's cache directory instead, since Landlock cannot carve a home out of a writable /tmp.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { TEMPS } from "../../src/wall/description.ts";
import { type TempDir, type Tree, tempDir } from "./fs.ts";
import { type FakeHome, fakeHome } from "./home.ts";

const CHECKOUT = resolve(import.meta.dir, "..", "..");
const inTemp = [...TEMPS, process.env.TMPDIR ?? "/tmp"].some((t) => CHECKOUT === t || CHECKOUT.startsWith(`${t}/`));
const BASE =
  process.env.MEMNOX_TEST_WALL_DIR ||
  (inTemp
    ? join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "memnox-wall-homes")
    : join(CHECKOUT, ".cache", "wall-homes"));

export function wallDir(prefix: string, tree: Tree = {}): TempDir {
  return tempDir(prefix, tree, BASE);
}

/** A fake home outside temp, with its own MEMNOX_HOME. */
export function wallHome(tree: Tree = {}): FakeHome {
  const home = fakeHome(tree, BASE);
  // The homes sit inside this checkout: neither git nor memnox may take the checkout for the home's repository.
  return { ...home, env: (extra = {}) => home.env({ GIT_CEILING_DIRECTORIES: BASE, ...extra }) };
}

/** The Landlock ABI of this kernel, 0 where it has none: a test skips only the parts it cannot hold. */
export async function kernelAbi(): Promise<number> {
  const { landlockAbi } = await import("../../src/wall/ffi.ts");
  return landlockAbi();
}

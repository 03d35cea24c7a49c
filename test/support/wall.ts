// Homes for kernel-wall tests: outside every temp directory (the wall writes temp, never a home), under the
// checkout's ignored .cache/, removed at scope end.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../src/ports/index.ts";
import { type TempDir, type Tree, writeTree } from "./fs.ts";
import { type FakeHome, hermeticEnv } from "./home.ts";

const BASE = join(import.meta.dir, "..", "..", ".cache", "wall-homes");

export function wallDir(prefix: string, tree: Tree = {}): TempDir {
  mkdirSync(BASE, { recursive: true });
  const path = realpathSync(mkdtempSync(join(BASE, `${prefix}-`)));
  writeTree(path, tree);
  const dispose = () => rmSync(path, { recursive: true, force: true });
  return {
    path,
    join: (...parts) => join(path, ...parts),
    [Symbol.dispose]: dispose,
    [Symbol.asyncDispose]: async () => dispose(),
  };
}

/** A fake home outside temp, with its own MEMNOX_HOME. */
export function wallHome(tree: Tree = {}): FakeHome {
  const dir = wallDir("home", tree);
  const memnoxHome = join(dir.path, ".memnox");
  mkdirSync(memnoxHome, { recursive: true });
  return {
    ...dir,
    home: dir.path,
    memnoxHome,
    env: (extra: Env = {}) => hermeticEnv({ HOME: dir.path, MEMNOX_HOME: memnoxHome, ...extra }),
  };
}

/** The Landlock ABI of this kernel, 0 where it has none: a test skips only the parts it cannot hold. */
export async function kernelAbi(): Promise<number> {
  const { landlockAbi } = await import("../../src/wall/ffi.ts");
  return landlockAbi();
}

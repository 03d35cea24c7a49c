// Where this copy of memnox was installed, read from the executable's own path: `<root>/app/memnox` is the stable
// copy setup makes inside MEMNOX_HOME, and every hook, interceptor and governed shell link starts it. A caller's
// MEMNOX_HOME or HOME cannot point those faces at another home (`MEMNOX_HOME=/tmp/empty git push -f`).
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export interface Installed {
  /** MEMNOX_HOME as setup made it. */
  readonly root: string;
  /** The home it sits in, when it is the default `<home>/.memnox`. */
  readonly home?: string;
}

export function installedAt(execPath: string): Installed | undefined {
  let real: string;
  try {
    real = realpathSync(execPath);
  } catch {
    return undefined;
  }
  if (basename(real) !== "memnox" || basename(dirname(real)) !== "app") return undefined;
  const root = dirname(dirname(real));
  if (!existsSync(join(root, "bin")) && !existsSync(join(root, "kept.json"))) return undefined;
  return { root, ...(basename(root) === ".memnox" ? { home: dirname(root) } : {}) };
}

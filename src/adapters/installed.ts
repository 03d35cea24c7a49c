// Where this copy of memnox was installed, read from the executable's own path: `<root>/app/memnox` is the stable
// copy setup makes inside MEMNOX_HOME, and every hook, interceptor and governed shell link starts it. A caller's
// MEMNOX_HOME or HOME cannot point those faces at another home (`MEMNOX_HOME=/tmp/empty git push -f`).
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";

interface Installed {
  /** MEMNOX_HOME as setup made it. */
  readonly root: string;
  /** The home it sits in, when it is the default `<home>/.memnox`. */
  readonly home?: string;
}

/**
 * `memnox doctor --prove` runs each installed seam against a scratch home it makes under the installed one
 * (`<root>/prove/`, where no agent can write), marked with `proving.json` naming the proof's process: while that
 * process runs, that MEMNOX_HOME is honoured; any other is not. The scratch carries the machine's rules, so pointing
 * at it escapes nothing, and one a crash left behind is honoured no more.
 */
export function provingHome(memnoxHome: string, root: string): boolean {
  try {
    const real = realpathSync(memnoxHome);
    if (!real.startsWith(`${realpathSync(join(root, "prove"))}/`)) return false;
    const marker = JSON.parse(readFileSync(join(real, "proving.json"), "utf8")) as { pid?: unknown };
    if (typeof marker.pid !== "number") return false;
    process.kill(marker.pid, 0);
    return true;
  } catch {
    return false;
  }
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

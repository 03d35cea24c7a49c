// Which store a command uses: `--dir`, else MEMNOX_MEMORY_DIR, else memex's MEMEX_DATA_DIR, else ~/.memnox/memory.
import { isAbsolute, resolve } from "node:path";
import type { Env } from "../../ports/index.ts";
import type { Paths } from "../../ports/paths.ts";

export function memoryDir(env: Env, paths: Paths, cwd: string, flag?: string): string {
  const chosen = flag || env.MEMNOX_MEMORY_DIR || env.MEMEX_DATA_DIR || paths.memory;
  const expanded = chosen === "~" || chosen.startsWith("~/") ? `${paths.home}${chosen.slice(1)}` : chosen;
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

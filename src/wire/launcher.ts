// The one choice of how wrapped entries, hooks and wrappers start memnox: the stable copy setup installs at
// ~/.memnox/app/memnox when it exists (an npx cache can vanish, and a missing binary fails open), else this program.
import { existsSync } from "node:fs";
import type { Context } from "../ports/context.ts";

/** argv prefix that starts memnox: `[~/.memnox/app/memnox]`, else `[this binary]` (`[bun, bin/memnox.ts]` from source). */
export function memnoxLauncher(ctx: Pick<Context, "paths" | "selfArgv">): string[] {
  if (existsSync(ctx.paths.app)) return [ctx.paths.app];
  return [...ctx.selfArgv];
}

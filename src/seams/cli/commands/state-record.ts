// State changes made at the terminal go on the record as rows of their own.
import type { Mode } from "../../../core/effect.ts";
import type { Context } from "../../../ports/context.ts";
import { readConfig } from "../../../state/config.ts";

/** The mode in config.toml (observe when there is none yet). */
export function currentMode(ctx: Context): Mode {
  return readConfig(ctx.paths.config).mode;
}

export function recordState(_ctx: Context, _operation: string, _words: string): void {}

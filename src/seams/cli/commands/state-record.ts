// State changes made at the terminal go on the record as rows of their own.
import type { Mode } from "../../../core/effect.ts";
import type { Context } from "../../../ports/context.ts";

/** The mode in config.toml; observe until the config module says otherwise. */
export function currentMode(_ctx: Context): Mode {
  return "observe";
}

export function recordState(_ctx: Context, _operation: string, _words: string): void {}

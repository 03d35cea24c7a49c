// State changes made at the terminal go on the record as rows of their own.
import type { Mode } from "../../../core/effect.ts";
import { createRecorder } from "../../../ledger/index.ts";
import type { Context } from "../../../ports/context.ts";
import { readConfig } from "../../../state/config.ts";
import { personName } from "../../../state/identity.ts";

/** The mode in config.toml (observe when there is none yet). */
export function currentMode(ctx: Context): Mode {
  return readConfig(ctx.paths.config).mode;
}

/**
 * One `state` row, by the person at this terminal; a row that cannot be written is reported, never thrown. A change
 * made to one session names it, so the session's replay shows who did it; an answer to a held call names its
 * decision as `parent`, so what a person said yes or no to is read off the ledger (`memnox next`).
 */
export function recordState(
  ctx: Context,
  operation: string,
  words: string,
  surface: "cli" | "config" = "cli",
  session?: string,
  parent?: string,
): void {
  using recorder = createRecorder(ctx.paths, (t) => ctx.io.err(t));
  recorder.record({
    kind: surface === "config" ? "config" : "state",
    occurredAt: new Date(ctx.clock.now()).toISOString(),
    surface,
    operation,
    reason: words,
    cwd: ctx.cwd,
    ...(session ? { session } : {}),
    ...(parent ? { parent } : {}),
    detail: { by: personName(ctx.env) },
  });
}

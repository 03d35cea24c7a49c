// How a seam answers when it fails before the gate could (a payload it cannot read, a gate that cannot be built).
import type { Mode } from "../core/effect.ts";
import { isMode } from "../core/effect.ts";
import { readTextIfExists } from "../io/files.ts";
import type { Context } from "../ports/context.ts";
import { stopInForce } from "../state/stop.ts";

export interface FailurePosture {
  readonly mode: Mode;
  readonly failOpen: boolean;
  /** `memnox stop` in force: every seam lets everything through. */
  readonly stopped: boolean;
  /** Why the posture is what it is, when it had to be guessed (config unreadable). */
  readonly note?: string;
}

/** Refuse only in enforce, with failOpen off and protection not stopped: what the gate itself does on an error. */
export function failsClosed(p: FailurePosture): boolean {
  return p.mode === "enforce" && !p.failOpen && !p.stopped;
}

/** Mode, failOpen and stop, never throwing: no config is a first run (observe), a broken one fails closed. */
export async function failurePosture(ctx: Context): Promise<FailurePosture> {
  const stopped = isStopped(ctx);
  let text: string | undefined;
  try {
    text = readTextIfExists(ctx.paths.config);
  } catch (e) {
    return { mode: "enforce", failOpen: false, stopped, note: `config unreadable: ${(e as Error).message}` };
  }
  if (text === undefined) return { mode: "observe", failOpen: false, stopped };
  try {
    const { parse } = await import("smol-toml");
    const doc = parse(text);
    const mode = isMode(doc.mode) ? doc.mode : "observe";
    return { mode, failOpen: doc.failOpen === true, stopped };
  } catch (e) {
    return { mode: "enforce", failOpen: false, stopped, note: `\`${ctx.paths.config}\`: ${(e as Error).message}` };
  }
}

function isStopped(ctx: Context): boolean {
  try {
    return stopInForce(ctx.paths.stop, ctx.clock.now()) !== undefined;
  } catch {
    return false;
  }
}

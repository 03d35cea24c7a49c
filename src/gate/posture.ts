// How a seam answers when it fails before the gate could (a payload it cannot read, a gate that cannot be built).
import type { Mode } from "../core/effect.ts";
import { describeError } from "../core/errors.ts";
import type { Context } from "../ports/context.ts";
import { readConfig } from "../state/config.ts";
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

/**
 * Mode, failOpen and stop, never throwing: no config before setup is a first run (observe); after setup a missing or
 * damaged one is the sealed mode; one that cannot be read at all fails closed.
 */
export function postureAt(configFile: string, stopFile: string, nowMs: number): FailurePosture {
  const stopped = isStopped(stopFile, nowMs);
  try {
    const c = readConfig(configFile);
    return { mode: c.mode, failOpen: c.failOpen, stopped };
  } catch (e) {
    return { mode: "enforce", failOpen: false, stopped, note: describeError(e) };
  }
}

export async function failurePosture(ctx: Context): Promise<FailurePosture> {
  return postureAt(ctx.paths.config, ctx.paths.stop, ctx.clock.now());
}

function isStopped(file: string, nowMs: number): boolean {
  try {
    return stopInForce(file, nowMs) !== undefined;
  } catch {
    return false;
  }
}

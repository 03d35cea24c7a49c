// The failure posture read from memnox's files (config.toml and stop.json): loaded only when a seam has failed.
import { describeError } from "../core/errors.ts";
import type { Context } from "../ports/context.ts";
import { readConfig } from "../state/config.ts";
import { stopInForce } from "../state/stop.ts";
import type { FailurePosture } from "./posture.ts";

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

// `memnox stop`: protection off on purpose, on the record, with an expiry; the mode is left as it was.
import { rmSync } from "node:fs";
import type { Mode } from "../core/effect.ts";
import { isMode } from "../core/effect.ts";
import { readJsonIfExists, writeJsonAtomic } from "../io/files.ts";

export interface StopRecord {
  readonly stoppedAt: string;
  readonly until: string;
  readonly by: string;
  readonly reason?: string;
  /** The mode protection was in when stopped; `start` comes back to it. */
  readonly mode: Mode;
}

export function readStop(file: string): StopRecord | undefined {
  const raw = readJsonIfExists(file);
  if (typeof raw !== "object" || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.stoppedAt !== "string" || typeof r.until !== "string" || typeof r.by !== "string" || !isMode(r.mode)) {
    return undefined;
  }
  return {
    stoppedAt: r.stoppedAt,
    until: r.until,
    by: r.by,
    mode: r.mode,
    ...(typeof r.reason === "string" ? { reason: r.reason } : {}),
  };
}

/** The stop in force at `nowMs`, if any. */
export function stopInForce(file: string, nowMs: number): StopRecord | undefined {
  const s = readStop(file);
  return s && Date.parse(s.until) > nowMs ? s : undefined;
}

export function writeStop(file: string, record: StopRecord): void {
  writeJsonAtomic(file, record);
}

export function clearStop(file: string): void {
  rmSync(file, { force: true });
}

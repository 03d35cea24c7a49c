// Time windows read the instant passed in, in the offset passed in: no clock, so a replay decides the same.
import type { Instant, TimeWindow } from "./types.ts";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface LocalTime {
  /** 0 = Sunday. */
  readonly day: number;
  /** Fractional hour of the local day, 0 <= hour < 24. */
  readonly hour: number;
}

export function localTime(at: Instant): LocalTime {
  const local = at.epochMs + at.utcOffsetMinutes * 60_000;
  const days = Math.floor(local / DAY_MS);
  // 1970-01-01 was a Thursday (4).
  const day = (((days + 4) % 7) + 7) % 7;
  const hour = (local - days * DAY_MS) / HOUR_MS;
  return { day, hour };
}

/** The moment's own day must be listed; `startHour` > `endHour` means after start or before end. */
export function inWindow(w: TimeWindow, t: LocalTime): boolean {
  if (w.days && !w.days.includes(t.day)) return false;
  if (w.startHour < w.endHour) return t.hour >= w.startHour && t.hour < w.endHour;
  return t.hour >= w.startHour || t.hour < w.endHour;
}

export function inAnyWindow(windows: readonly TimeWindow[], t: LocalTime): boolean {
  return windows.some((w) => inWindow(w, t));
}

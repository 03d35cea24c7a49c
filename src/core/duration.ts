// `30m`, `2h`, `7d`, `90s`: the durations every `--for`, `--since` and expiry is written in.
import { MemnoxError } from "./errors.ts";

const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/.exec(text);
  const unit = m?.[2];
  if (!m || !unit)
    throw new MemnoxError("usage", `\`${text}\` is not a duration`, "use a number and a unit: 90s, 30m, 2h, 7d, 1w");
  const ms = Number(m[1]) * (UNIT_MS[unit] ?? 0);
  if (!(ms > 0)) throw new MemnoxError("usage", `\`${text}\` is not a positive duration`);
  return ms;
}

/** `1h 56m`, `3d 2h`, `45s`: how long is left, for people. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3_600);
  const m = Math.floor((s % 3_600) / 60);
  if (d > 0) return h > 0 ? `${d}d ${h}h` : `${d}d`;
  if (h > 0) return m > 0 ? `${h}h ${m}m` : `${h}h`;
  if (m > 0) return `${m}m`;
  return `${s}s`;
}

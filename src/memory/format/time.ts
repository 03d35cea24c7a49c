// Timestamps as memex writes them: ISO 8601 UTC to the second, ending in `Z`, so they compare as strings.
const FULL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** A timestamp the reader accepts: full UTC time, or a bare date for validity fields. */
export function isTimestamp(value: string, allowDate = false): boolean {
  if (FULL.test(value)) return !Number.isNaN(Date.parse(value));
  return allowDate && DATE.test(value) && !Number.isNaN(Date.parse(value));
}

/** The comparable form: bare dates become midnight, fractions are dropped. */
export function normalizeTimestamp(value: string): string {
  if (DATE.test(value)) return `${value}T00:00:00Z`;
  return `${value.slice(0, 19)}Z`;
}

export function dateDir(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

// Timestamps as memex writes them: ISO 8601 UTC to the second, ending in `Z`, so they compare as strings.
const FULL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** A date that exists on the calendar: `Date.parse` rolls 2026-02-30 over to March, so the parts are compared back. */
function realDate(y: string, m: string, d: string): boolean {
  const at = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return at.getUTCFullYear() === Number(y) && at.getUTCMonth() === Number(m) - 1 && at.getUTCDate() === Number(d);
}

/** A timestamp the reader accepts: full UTC time, or a bare date for validity fields; impossible dates are not. */
export function isTimestamp(value: string, allowDate = false): boolean {
  const full = FULL.exec(value);
  if (full) {
    const [, y = "", m = "", d = "", h = "", min = "", s = ""] = full;
    return realDate(y, m, d) && Number(h) < 24 && Number(min) < 60 && Number(s) < 60;
  }
  const date = allowDate ? DATE.exec(value) : null;
  return date !== null && realDate(date[1] ?? "", date[2] ?? "", date[3] ?? "");
}

/** Why a value is not a timestamp: the wrong shape, or a date that does not exist. */
export function timestampProblem(field: string, value: string, allowDate = false): string {
  const shaped = FULL.test(value) || (allowDate && DATE.test(value));
  return shaped
    ? `${field} is not a valid date: ${value}`
    : `${field} must be an ISO8601 UTC string like 2026-09-15T10:00:00Z`;
}

const STRICT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** What memex accepts where a caller gives a time: exactly `2026-09-15T10:00:00Z`, on a date that exists. */
export function isoProblem(field: string, value: string): string | undefined {
  if (!STRICT.test(value)) return `${field} must be an ISO8601 UTC string like 2026-09-15T10:00:00Z`;
  if (!isTimestamp(value)) return `${field} is not a valid date: ${value}`;
  return undefined;
}

/** The comparable form: bare dates become midnight, fractions are dropped. */
export function normalizeTimestamp(value: string): string {
  if (DATE.test(value)) return `${value}T00:00:00Z`;
  return `${value.slice(0, 19)}Z`;
}

export function dateDir(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

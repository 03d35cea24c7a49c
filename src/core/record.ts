// THE test for a parsed object (JSON, JSONC, TOML): not null, not a list, not a TOML date.

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

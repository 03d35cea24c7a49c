// retentionDays from ~/.memnox/config.toml, read on its own until the shared config reader (src/state/config.ts) lands.
import { readFileSync } from "node:fs";
import { parse, TomlError } from "smol-toml";
import { MemnoxError } from "../core/errors.ts";

export const DEFAULT_RETENTION_DAYS = 30;

/** Days of history kept: the `retentionDays` key, 30 when the file or the key is absent. */
export function readRetentionDays(configPath: string): number {
  let text: string;
  try {
    text = readFileSync(configPath, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return DEFAULT_RETENTION_DAYS;
    throw new MemnoxError("io", `could not read \`${configPath}\`: ${(e as Error).message}`);
  }
  let doc: Record<string, unknown>;
  try {
    doc = parse(text);
  } catch (e) {
    const where = e instanceof TomlError ? `:${e.line}` : "";
    throw new MemnoxError(
      "config_invalid",
      `\`${configPath}${where}\` is not valid TOML: ${(e as Error).message.split("\n")[0]}`,
      "fix the line or run `memnox config set retentionDays 30`",
    );
  }
  const v = doc.retentionDays;
  if (v === undefined) return DEFAULT_RETENTION_DAYS;
  const n = typeof v === "bigint" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1)
    throw new MemnoxError(
      "config_invalid",
      `\`retentionDays\` in \`${configPath}\` must be a whole number of days, 1 or more`,
      "for example `retentionDays = 30`",
    );
  return n;
}

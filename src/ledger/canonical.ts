// One byte form per value, so a row hashes the same wherever it is recomputed (sorted keys, no spaces).
import { createHash } from "node:crypto";

/** The hash a chain starts from before any row exists. */
export const GENESIS = "0".repeat(64);

/** JSON with object keys sorted and undefined members dropped; what `jq -cS` prints for the same value. */
export function canonical(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(",")}}`;
  }
  if (typeof value === "number" && !Number.isFinite(value)) return "null";
  return JSON.stringify(value);
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

// One byte form per value, so a row hashes the same wherever it is recomputed (sorted keys, no spaces).

/** The hash a chain starts from before any row exists. */
export const GENESIS = "0".repeat(64);

const INDEX_KEY = /^(0|[1-9]\d*)$/;
const SPELL_OUT = Symbol("spell out");

/** JSON with object keys sorted and undefined members dropped; what `jq -cjS` prints for the same value. */
export function canonical(value: unknown): string {
  try {
    return JSON.stringify(sortedCopy(value)) ?? "null";
  } catch (e) {
    if (e === SPELL_OUT) return spelledOut(value);
    throw e;
  }
}

// A copy whose objects were built in sorted key order, so the native JSON.stringify writes them sorted.
function sortedCopy(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(sortedCopy);
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) {
    // JS orders integer-like keys numerically whatever the insertion order; such values are written by hand.
    if (INDEX_KEY.test(k)) throw SPELL_OUT;
    out[k] = sortedCopy(o[k]);
  }
  return out;
}

function spelledOut(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return `[${v.map(spelledOut).join(",")}]`;
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${spelledOut(o[k])}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

export { sha256Hex } from "../io/hash.ts";

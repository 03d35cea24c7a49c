// A ledger row under the names the sync payload uses, and the one table that maps it to and from SQLite columns.
import type { ActionClass } from "../core/action.ts";
import type { Effect, Mode } from "../core/effect.ts";
import type { EventKind, RecordedRequest, Surface } from "../core/event.ts";
import type { Alternative } from "../core/verdict.ts";
import { canonical } from "./canonical.ts";

export type Detail = Readonly<Record<string, string | number | boolean | null>>;

/** One row as readers, exports and `--json` see it; `hash` covers every other field. */
export interface LedgerRow {
  readonly schemaVersion: number;
  readonly id: string;
  readonly seq: number;
  readonly kind: EventKind;
  readonly occurredAt: string;
  readonly agentSessionId?: string;
  readonly agent?: string;
  readonly surface: Surface;
  readonly operation: string;
  readonly classes?: readonly ActionClass[];
  readonly resourceRef?: string;
  readonly effect?: Effect;
  readonly enforceEffect?: Effect;
  readonly mode?: Mode;
  readonly governed?: boolean;
  readonly reason?: string;
  readonly ruleId?: string;
  readonly ruleFile?: string;
  readonly ruleLine?: number;
  readonly alternative?: Alternative;
  readonly argsDigest?: string;
  readonly policyHash?: string;
  readonly exitCode?: number;
  readonly durationMs?: number;
  readonly startedAt?: string;
  readonly cwd?: string;
  readonly parent?: string;
  readonly request?: RecordedRequest;
  readonly stale?: boolean;
  readonly detail?: Detail;
  readonly prevHash: string;
  readonly hash: string;
}

type ColumnType = "text" | "int" | "bool" | "json";

/** [row field, column, storage]; the order is the column order of the table. */
export const FIELDS: readonly (readonly [keyof LedgerRow, string, ColumnType])[] = [
  ["seq", "seq", "int"],
  ["id", "id", "text"],
  ["schemaVersion", "schema_version", "int"],
  ["kind", "kind", "text"],
  ["occurredAt", "occurred_at", "text"],
  ["agentSessionId", "session", "text"],
  ["agent", "agent", "text"],
  ["surface", "surface", "text"],
  ["operation", "operation", "text"],
  ["classes", "classes", "json"],
  ["resourceRef", "resource_ref", "text"],
  ["effect", "effect", "text"],
  ["enforceEffect", "enforce_effect", "text"],
  ["mode", "mode", "text"],
  ["governed", "governed", "bool"],
  ["reason", "reason", "text"],
  ["ruleId", "rule_id", "text"],
  ["ruleFile", "rule_file", "text"],
  ["ruleLine", "rule_line", "int"],
  ["alternative", "alternative", "json"],
  ["argsDigest", "args_digest", "text"],
  ["policyHash", "policy_hash", "text"],
  ["exitCode", "exit_code", "int"],
  ["durationMs", "duration_ms", "int"],
  ["startedAt", "started_at", "text"],
  ["cwd", "cwd", "text"],
  ["parent", "parent", "text"],
  ["request", "request", "json"],
  ["stale", "stale", "bool"],
  ["detail", "detail", "json"],
  ["prevHash", "prev_hash", "text"],
  ["hash", "hash", "text"],
];

type DbValue = string | number | bigint | boolean | null | Uint8Array;
export type DbRecord = Record<string, DbValue>;

/** A row read back from its columns, exactly as it was hashed. */
export function rowFromDb(rec: DbRecord): LedgerRow {
  const out: Record<string, unknown> = {};
  for (const [field, column, type] of FIELDS) {
    const v = rec[column];
    if (v === null || v === undefined) continue;
    if (type === "json") out[field] = JSON.parse(String(v));
    else if (type === "bool") out[field] = Number(v) !== 0;
    else if (type === "int") out[field] = Number(v);
    else out[field] = String(v);
  }
  return out as unknown as LedgerRow;
}

/** Column values for an INSERT, in FIELDS order. */
export function rowToDb(row: LedgerRow): DbValue[] {
  return FIELDS.map(([field, , type]) => {
    const v = (row as unknown as Record<string, unknown>)[field];
    if (v === undefined || v === null) return null;
    // Nested values are stored canonical, so the hashed form can be rebuilt from the columns without parsing them.
    if (type === "json") return canonical(v);
    if (type === "bool") return v ? 1 : 0;
    return v as DbValue;
  });
}

/** Each hashed column with the text its key opens with, in the sorted order canonical() writes keys. */
const HASHED = FIELDS.filter(([field]) => field !== "hash")
  .sort(([a], [b]) => (a < b ? -1 : 1))
  .map(([field, column, type]) => ({ column, type, key: `"${field}":` }));

/**
 * The canonical hashed content of a row (canonical() of it without its hash) built by SQLite from the columns, so
 * `verify` gets one string a row instead of 32 JS values. Nested values are stored canonical, so they are copied as
 * they are. Where a column holds what no row written here holds (a type the writer never stores, JSON that is not one
 * whole value), it yields a NUL, which no hash matches; `verify` then hashes that row as rowFromDb reads it.
 */
export const CANONICAL_SQL = `'{' || concat_ws(',', ${HASHED.map(({ column: c, type, key }) => {
  const k = `'${key}'`;
  // A typeof guard before each conversion: json_quote would turn an integer into a bare number, a BLOB into an error.
  if (type === "text")
    return `CASE typeof(${c}) WHEN 'null' THEN NULL WHEN 'text' THEN ${k} || json_quote(${c}) ELSE char(0) END`;
  if (type === "int")
    return `CASE typeof(${c}) WHEN 'null' THEN NULL WHEN 'integer' THEN ${k} || ${c} ELSE char(0) END`;
  if (type === "bool")
    return `CASE typeof(${c}) WHEN 'null' THEN NULL WHEN 'integer' THEN ${k} || CASE ${c} WHEN 0 THEN 'false' ELSE 'true' END ELSE char(0) END`;
  // A JSON column must hold one whole value: text that closed it and opened a key of its own would split differently.
  return `CASE WHEN ${c} IS NULL THEN NULL WHEN typeof(${c}) = 'text' AND json_valid(${c}) THEN ${k} || ${c} ELSE char(0) END`;
}).join(", ")}) || '}'`;

/** The row without its own hash: the content the hash covers. */
export function hashedContent(row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { hash: _hash, ...rest } = row;
  return rest;
}

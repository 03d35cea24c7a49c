// The draft-07 keywords the vendors' hook schemas use, checked strictly: a keyword we do not know fails loudly.
import { isRecord } from "../../src/core/record.ts";
export type Schema = boolean | { readonly [k: string]: unknown };

const IGNORED = new Set(["$schema", "title", "description", "default", "definitions", "format"]);
const KNOWN = new Set([
  ...IGNORED,
  "type",
  "properties",
  "required",
  "additionalProperties",
  "enum",
  "const",
  "allOf",
  "anyOf",
  "oneOf",
  "$ref",
  "items",
]);

/** Every way `value` breaks `schema`, as `path: problem`; empty when it fits. */
export function validate(schema: Schema, value: unknown, root: Schema = schema, path = "$"): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: nothing is allowed here`];
  const errors: string[] = [];
  for (const k of Object.keys(schema)) if (!KNOWN.has(k)) errors.push(`${path}: schema keyword ${k} not supported`);
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === "string") errors.push(...validate(resolveRef(root, s.$ref), value, root, path));
  if (s.type !== undefined && !typeMatches(s.type, value)) errors.push(`${path}: not ${JSON.stringify(s.type)}`);
  if (Array.isArray(s.enum) && !s.enum.some((e) => e === value))
    errors.push(`${path}: not one of ${JSON.stringify(s.enum)}`);
  if ("const" in s && s.const !== value) errors.push(`${path}: not ${JSON.stringify(s.const)}`);
  for (const sub of arr(s.allOf)) errors.push(...validate(sub, value, root, path));
  if (s.anyOf && !arr(s.anyOf).some((sub) => validate(sub, value, root, path).length === 0))
    errors.push(`${path}: anyOf`);
  if (s.oneOf && arr(s.oneOf).filter((sub) => validate(sub, value, root, path).length === 0).length !== 1) {
    errors.push(`${path}: oneOf`);
  }
  if (isRecord(value)) errors.push(...objectErrors(s, value, root, path));
  if (Array.isArray(value) && s.items !== undefined) {
    value.forEach((v, i) => {
      errors.push(...validate(s.items as Schema, v, root, `${path}[${i}]`));
    });
  }
  return errors;
}

function objectErrors(
  s: Record<string, unknown>,
  value: Record<string, unknown>,
  root: Schema,
  path: string,
): string[] {
  const errors: string[] = [];
  const props = (isRecord(s.properties) ? s.properties : {}) as Record<string, Schema>;
  for (const r of arr(s.required)) if (typeof r === "string" && !(r in value)) errors.push(`${path}: missing ${r}`);
  for (const [k, v] of Object.entries(value)) {
    const p = props[k];
    if (p !== undefined) errors.push(...validate(p, v, root, `${path}.${k}`));
    else if (s.additionalProperties === false) errors.push(`${path}: unknown field ${k}`);
    else if (isRecord(s.additionalProperties))
      errors.push(...validate(s.additionalProperties, v, root, `${path}.${k}`));
  }
  return errors;
}

function typeMatches(type: unknown, value: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => {
    if (t === "null") return value === null;
    if (t === "array") return Array.isArray(value);
    if (t === "object") return isRecord(value);
    if (t === "integer") return Number.isInteger(value);
    return typeof value === t;
  });
}

function resolveRef(root: Schema, ref: string): Schema {
  if (!ref.startsWith("#/")) throw new Error(`only local refs are supported: ${ref}`);
  let node: unknown = root;
  for (const part of ref.slice(2).split("/")) node = isRecord(node) ? node[part] : undefined;
  if (node === undefined) throw new Error(`unresolved ref ${ref}`);
  return node as Schema;
}

function arr(v: unknown): Schema[] {
  return Array.isArray(v) ? (v as Schema[]) : [];
}

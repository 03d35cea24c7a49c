// Text edits on TOML: set or remove one key, or replace/insert one table, keeping every other byte as it was.
import { parse } from "smol-toml";
import { MemnoxError } from "../../core/errors.ts";
import { isRecord } from "../../core/record.ts";
import { samePath, scanToml, startsWith, type TomlItem, type TomlKeyVal } from "./toml-scan.ts";

type Path = readonly string[];
type AddressedKeyVal = TomlKeyVal & { readonly path: Path };

export function setToml(text: string, path: Path, value: unknown): string {
  if (path.length === 0) throw new MemnoxError("internal", "a TOML edit needs a key path");
  const items = scanToml(text);
  const keyvals = addressed(items);
  const exact = keyvals.find((kv) => samePath(kv.path, path));
  if (exact) return splice(text, exact.valueStart, exact.valueEnd, renderLike(value, text, exact));
  const inline = keyvals.find((kv) => kv.path.length < path.length && startsWith(path, kv.path));
  if (inline) return rewriteInline(text, inline, path, (t, rest) => setIn(t, rest, value));
  if (isRecord(value)) return replaceTable(text, path, value);
  return insertKey(text, items, path, value);
}

export function removeToml(text: string, path: Path): string {
  const items = scanToml(text);
  const keyvals = addressed(items);
  const exact = keyvals.find((kv) => samePath(kv.path, path));
  if (exact) return splice(text, exact.lineStart, exact.lineEnd, "");
  const inline = keyvals.find((kv) => kv.path.length < path.length && startsWith(path, kv.path));
  if (inline) return rewriteInline(text, inline, path, (t, rest) => deleteIn(t, rest));
  return removeRanges(text, tableRanges(text, items, path)).text;
}

/** A TOML value on one line: strings, numbers, booleans, dates, arrays and inline tables. */
export function renderToml(value: unknown): string {
  if (typeof value === "string") return tomlString(value);
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (typeof value === "number") return tomlNumber(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `[${value.map(renderToml).join(", ")}]`;
  if (isRecord(value)) {
    const entries = Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${renderToml(v)}`);
    return entries.length ? `{ ${entries.join(", ")} }` : "{}";
  }
  throw new MemnoxError("unsafe_edit", "TOML has no way to write a null or undefined value");
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

const ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  '"': '\\"',
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\f": "\\f",
  "\r": "\\r",
};

function tomlString(s: string): string {
  let body = "";
  for (const c of s) {
    const code = c.charCodeAt(0);
    body += ESCAPES[c] ?? (code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, "0")}` : c);
  }
  return `"${body}"`;
}

function tomlNumber(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (Number.isInteger(n)) return Number.isSafeInteger(n) ? String(n) : BigInt(n).toString();
  return String(n);
}

function addressed(items: readonly TomlItem[]): AddressedKeyVal[] {
  return items.filter((i): i is AddressedKeyVal => i.kind === "keyval" && i.path !== undefined);
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function newlineOf(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

function indentAt(text: string, lineStart: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? "";
}

/** A replacement value written the way the old one was: a multi-line array stays multi-line. */
function renderLike(value: unknown, text: string, kv: TomlKeyVal): string {
  const old = text.slice(kv.valueStart, kv.valueEnd);
  if (!Array.isArray(value) || !old.startsWith("[") || !old.includes("\n") || value.length === 0) {
    return renderToml(value);
  }
  const nl = newlineOf(text);
  const itemIndent = /\n([ \t]*)\S/.exec(old)?.[1] ?? "  ";
  const closeIndent = /\n([ \t]*)\]$/.exec(old)?.[1] ?? "";
  const trailing = /,\s*(?:#[^\n]*\s*)*\]$/.test(old) ? "," : "";
  return `[${nl}${itemIndent}${value.map(renderToml).join(`,${nl}${itemIndent}`)}${trailing}${nl}${closeIndent}]`;
}

function rewriteInline(
  text: string,
  kv: AddressedKeyVal,
  path: Path,
  change: (table: Record<string, unknown>, rest: Path) => void,
): string {
  const current = getIn(parse(text), kv.path);
  if (!isRecord(current)) {
    throw new MemnoxError("unsafe_edit", `\`${kv.path.join(".")}\` is not a table, so memnox will not edit inside it`);
  }
  change(current, path.slice(kv.path.length));
  return splice(text, kv.valueStart, kv.valueEnd, renderToml(current));
}

function getIn(doc: unknown, path: Path): unknown {
  let node = doc;
  for (const k of path) node = isRecord(node) ? node[k] : undefined;
  return node;
}

function setIn(table: Record<string, unknown>, path: Path, value: unknown): void {
  let node = table;
  for (const k of path.slice(0, -1)) {
    const next = node[k];
    if (!isRecord(next)) node[k] = {};
    node = node[k] as Record<string, unknown>;
  }
  node[path.at(-1) as string] = value;
}

function deleteIn(table: Record<string, unknown>, path: Path): void {
  const parent = getIn(table, path.slice(0, -1));
  if (isRecord(parent)) delete parent[path.at(-1) as string];
}

/** A key that does not exist yet: under its table's header, beside its dotted siblings, or in a new table. */
function insertKey(text: string, items: readonly TomlItem[], path: Path, value: unknown): string {
  const nl = newlineOf(text);
  const parent = path.slice(0, -1);
  const key = path.at(-1) as string;
  const header = items.findIndex((i) => i.kind === "header" && i.addressable && !i.array && samePath(i.path, parent));
  if (header >= 0 || parent.length === 0) {
    const section = sectionOf(items, header);
    const last = section.filter((i) => i.kind === "keyval").at(-1);
    const at = last?.lineEnd ?? (header >= 0 ? (items[header]?.lineEnd ?? 0) : 0);
    const indent = last ? indentAt(text, last.lineStart) : "";
    return insertLine(text, at, `${indent}${tomlKey(key)} = ${renderToml(value)}`, nl);
  }
  const dotted = addressed(items).filter((kv) => kv.path.length > parent.length && startsWith(kv.path, parent));
  const sibling = dotted.at(-1);
  if (sibling) {
    const tableLength = sibling.path.length - sibling.key.length;
    if (tableLength <= parent.length) {
      const rel = path.slice(tableLength).map(tomlKey).join(".");
      return insertLine(text, sibling.lineEnd, `${indentAt(text, sibling.lineStart)}${rel} = ${renderToml(value)}`, nl);
    }
  }
  return appendTable(text, parent, { [key]: value });
}

/** The items after header `index` up to the next header (index -1: the top-level items before any header). */
function sectionOf(items: readonly TomlItem[], index: number): TomlItem[] {
  const out: TomlItem[] = [];
  for (let i = index + 1; i < items.length; i++) {
    const item = items[i] as TomlItem;
    if (item.kind === "header") break;
    out.push(item);
  }
  return out;
}

function insertLine(text: string, at: number, line: string, nl: string): string {
  const needsBreak = at > 0 && text[at - 1] !== "\n";
  return splice(text, at, at, `${needsBreak ? nl : ""}${line}${nl}`);
}

function renderTable(path: Path, table: Record<string, unknown>, nl: string): string {
  const lines = [`[${path.map(tomlKey).join(".")}]`];
  for (const [k, v] of Object.entries(table)) lines.push(`${tomlKey(k)} = ${renderToml(v)}`);
  return lines.join(nl) + nl;
}

function appendTable(text: string, path: Path, table: Record<string, unknown>): string {
  const nl = newlineOf(text);
  const gap = text.length === 0 || text.endsWith(`${nl}${nl}`) ? "" : text.endsWith(nl) ? nl : nl + nl;
  return text + gap + renderTable(path, table, nl);
}

/** Replace table `path` (its header, sub-tables and dotted keys) with `table`, where the header stood. */
function replaceTable(text: string, path: Path, table: Record<string, unknown>): string {
  const items = scanToml(text);
  const own = items.find((i) => i.kind === "header" && i.addressable && !i.array && samePath(i.path, path));
  const ranges = tableRanges(text, items, path);
  const { text: rest, shift } = removeRanges(text, ranges, own?.lineStart);
  if (!own) return appendTable(rest, path, table);
  const at = own.lineStart - shift;
  const nl = newlineOf(text);
  const lastRange = ranges.at(-1);
  const gap = lastRange && text.slice(lastRange[0], lastRange[1]).endsWith(nl + nl) && at < rest.length ? nl : "";
  return splice(rest, at, at, renderTable(path, table, nl) + gap);
}

type Range = readonly [number, number];

function tableRanges(text: string, items: readonly TomlItem[], path: Path): Range[] {
  const ranges: Range[] = [];
  items.forEach((item, i) => {
    if (item.kind === "header" && startsWith(item.path, path)) {
      const next = items.slice(i + 1).find((n) => n.kind === "header");
      ranges.push([item.lineStart, next ? withoutAttachedComments(text, next.lineStart) : text.length]);
    }
  });
  for (const kv of addressed(items)) {
    const inside = ranges.some(([s, e]) => kv.lineStart >= s && kv.lineStart < e);
    if (!inside && startsWith(kv.path, path)) ranges.push([kv.lineStart, kv.lineEnd]);
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

/** Back from a header over the comment lines written directly above it: they describe that header. */
function withoutAttachedComments(text: string, headerStart: number): number {
  let at = headerStart;
  for (;;) {
    const prevStart = text.lastIndexOf("\n", at - 2) + 1;
    if (at === 0 || !/^[ \t]*#/.test(text.slice(prevStart, at))) return at;
    at = prevStart;
  }
}

/** Removes ranges; `shift` is how much text before `anchor` went with them. */
function removeRanges(text: string, ranges: readonly Range[], anchor?: number): { text: string; shift: number } {
  let out = text;
  let shift = 0;
  for (const [s, e] of [...ranges].reverse()) {
    out = out.slice(0, s) + out.slice(e);
    if (anchor !== undefined && e <= anchor) shift += e - s;
  }
  return { text: out, shift };
}

// One way in for every config format memnox edits: parse with the reader that keeps spans, apply edits as text,
// and refuse any rewrite that does not read back as exactly what the file held plus the change.
import { parse as parseTomlText, TomlError } from "smol-toml";
import { MemnoxError } from "../../core/errors.ts";
import { isRecord } from "../../core/record.ts";
import type { Edit, EditableFormat } from "./edits.ts";
import { nodeValue, ParseFailure, parseJsonc } from "./jsonc.ts";
import { editJsonc } from "./jsonc-edit.ts";
import { removeToml, setToml } from "./toml-edit.ts";

const BOM = "\uFEFF";

/** The document's plain value; throws ParseFailure naming line and column. */
export function parseDocument(format: EditableFormat, text: string): unknown {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  if (format !== "toml") return nodeValue(parseJsonc(body, { json5: format === "json5" }));
  try {
    return parseTomlText(body, { integersAsBigInt: "asNeeded" });
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const message = (e.message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "");
    throw new ParseFailure(message, e.line, e.column);
  }
}

/** `text` with `edits` applied, verified by reading it back; `file` names it in a refusal. */
export function applyEdits(format: EditableFormat, text: string, edits: readonly Edit[], file: string): string {
  const bom = text.startsWith(BOM) ? BOM : "";
  const out = bom + applyAll(format, text.slice(bom.length), edits);
  const expected = parseDocument(format, text);
  for (const edit of edits) applyToValue(expected, edit);
  let actual: unknown;
  try {
    actual = parseDocument(format, out);
  } catch (e) {
    throw refusal(file, e instanceof Error ? `it would no longer parse (${e.message})` : "it would no longer parse");
  }
  // TOML has no empty parent: `[mcp_servers.x]` gone takes an `mcp_servers` that only held it with it.
  const same =
    format === "toml"
      ? sameValue(withoutEmptyTables(expected), withoutEmptyTables(actual))
      : sameValue(expected, actual);
  if (!same) throw refusal(file, "reading it back did not give what it held plus the change");
  return out;
}

/** A table with every key whose value is an empty table (after the same pruning) left out. */
function withoutEmptyTables(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const out: Table = {};
  for (const [k, x] of Object.entries(v)) {
    const pruned = withoutEmptyTables(x);
    if (!(isRecord(pruned) && Object.keys(pruned).length === 0)) out[k] = pruned;
  }
  return out;
}

function applyAll(format: EditableFormat, text: string, edits: readonly Edit[]): string {
  if (format !== "toml") return editJsonc(text, edits, { json5: format === "json5" });
  let out = text;
  for (const e of edits) {
    if (e.op === "append" || e.op === "removeItem") throw new MemnoxError("internal", "list edits are JSON only");
    out = e.op === "set" ? setToml(out, e.path, e.value) : removeToml(out, e.path);
  }
  return out;
}

function refusal(file: string, why: string): MemnoxError {
  return new MemnoxError("unsafe_edit", `refused to rewrite \`${file}\`: ${why}`, "the file was left as it was");
}

type Table = Record<string, unknown>;

/** The same edit on a parsed value, which is what the rewritten text must read back as. */
function applyToValue(doc: unknown, edit: Edit): void {
  if (!isRecord(doc)) return;
  let node: Table = doc;
  const removing = edit.op === "remove" || edit.op === "removeItem";
  for (const key of edit.path.slice(0, -1)) {
    const next = node[key];
    if (!isRecord(next)) {
      if (removing) return;
      define(node, key, {});
    }
    node = node[key] as Table;
  }
  const last = edit.path.at(-1);
  if (last === undefined) return;
  if (edit.op === "remove") delete node[last];
  else if (edit.op === "set") define(node, last, edit.value);
  else if (edit.op === "append") {
    const list = node[last];
    if (Array.isArray(list)) list.push(edit.value);
    else define(node, last, [edit.value]);
  } else {
    const list = node[last];
    if (Array.isArray(list)) list.splice(edit.index, 1);
  }
}

function define(node: Table, key: string, value: unknown): void {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Structural equality over parsed config values: key order ignored, dates by their written form. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && dateText(a) === dateText(b);
  }
  if (typeof a === "number" && typeof b === "number") return Object.is(a, b) || a === b;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => sameValue(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const tb = b as Table;
  return ka.every((k) => Object.hasOwn(tb, k) && sameValue((a as Table)[k], tb[k]));
}

function dateText(d: Date): string {
  return Number.isNaN(d.getTime()) ? "invalid" : d.toISOString();
}

// Span edits on JSON/JSONC text: set a key path, remove a key. Comments, key order and the file's own indentation
// are kept, and no line that did not change differs afterwards.
import { MemnoxError } from "../../core/errors.ts";
import type { Edit } from "./edits.ts";
import { type JsoncOptions, type JsonMember, type JsonNode, type JsonValue, parseJsonc, skipTrivia } from "./jsonc.ts";

type ObjectNode = Extract<JsonNode, { kind: "object" }>;

interface Style {
  readonly indent: string;
  readonly newline: string;
}

/** The file's indentation unit and line ending, learned from its own lines. */
function detectStyle(text: string): Style {
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  let indent: string | undefined;
  for (const line of text.split("\n")) {
    const ws = /^[ \t]+(?=\S)/.exec(line)?.[0];
    if (!ws) continue;
    if (ws.startsWith("\t")) return { indent: "\t", newline };
    if (indent === undefined || ws.length < indent.length) indent = ws;
  }
  return { indent: indent ?? "  ", newline };
}

export function setJsonc(text: string, path: readonly string[], value: JsonValue, opts: JsoncOptions = {}): string {
  const root = parseJsonc(text, opts);
  if (root.kind !== "object") throw notObject([]);
  let node: ObjectNode = root;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string;
    const member = lastMember(node, key);
    if (!member) return insertMember(text, node, key, nest(path.slice(i + 1), value));
    if (i === path.length - 1) return replaceNode(text, member.value, value);
    if (member.value.kind !== "object") throw notObject(path.slice(0, i + 1));
    node = member.value;
  }
  throw new MemnoxError("internal", "an edit needs a key path");
}

/** Removes every member at `path` (a repeated key included); absent is fine. */
export function removeJsonc(text: string, path: readonly string[], opts: JsoncOptions = {}): string {
  let out = text;
  for (;;) {
    const found = findMember(parseJsonc(out, opts), path);
    if (!found) return out;
    out = removeMember(out, found.parent, found.member);
  }
}

function findMember(root: JsonNode, path: readonly string[]): { parent: ObjectNode; member: JsonMember } | undefined {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    if (node.kind !== "object") return undefined;
    const member = lastMember(node, path[i] as string);
    if (!member) return undefined;
    if (i === path.length - 1) return { parent: node, member };
    node = member.value;
  }
  return undefined;
}

function lastMember(node: ObjectNode, key: string): JsonMember | undefined {
  for (let i = node.members.length - 1; i >= 0; i--) if (node.members[i]?.key === key) return node.members[i];
  return undefined;
}

function notObject(path: readonly string[]): MemnoxError {
  const where = path.length ? `\`${path.join(".")}\`` : "the top level";
  return new MemnoxError("unsafe_edit", `${where} is not an object, so memnox will not edit inside it`);
}

function nest(path: readonly string[], value: JsonValue): JsonValue {
  let v = value;
  for (let i = path.length - 1; i >= 0; i--) v = { [path[i] as string]: v };
  return v;
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf("\n", pos - 1) + 1;
}

function lineIndent(text: string, pos: number): string {
  const start = lineStart(text, pos);
  return /^[ \t]*/.exec(text.slice(start, pos))?.[0] ?? "";
}

/** End of the line holding `pos` when only whitespace or comments follow it there, else undefined. */
function quietLineEnd(text: string, pos: number): number | undefined {
  const nl = text.indexOf("\n", pos);
  const end = nl < 0 ? text.length : nl > 0 && text[nl - 1] === "\r" ? nl - 1 : nl;
  const rest = text.slice(pos, end);
  if (/^[ \t]*(?:\/\/.*|\/\*.*?\*\/[ \t]*)?$/.test(rest)) return end;
  return undefined;
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** `value` as the file would write it: multi-line at `base` indentation, or on one line with `sep`. */
function render(value: JsonValue, style: Style, base: string, multiline: boolean, sep = ", "): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (multiline) {
    const json = JSON.stringify(value, null, style.indent);
    return json.split("\n").join(`${style.newline}${base}`);
  }
  if (Array.isArray(value)) return `[${value.map((v) => render(v, style, base, false, sep)).join(sep)}]`;
  const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${render(v, style, base, false, sep)}`);
  return entries.length ? `{ ${entries.join(sep)} }` : "{}";
}

function replaceNode(text: string, node: JsonNode, value: JsonValue): string {
  return splice(text, node.start, node.end, replacement(text, node, value, detectStyle(text)));
}

/** `value` written where `node` is, the way `node` was written: on one line or several, at its indentation. */
function replacement(text: string, node: JsonNode, value: JsonValue, style: Style): string {
  const old = text.slice(node.start, node.end);
  const multiline = old.includes("\n");
  const sep = /,[^\s]/.test(old) && !/,\s/.test(old) ? "," : ", ";
  return render(value, style, lineIndent(text, node.start), multiline, sep);
}

function related(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

function nodeAt(root: JsonNode, path: readonly string[]): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const key of path) node = node?.kind === "object" ? lastMember(node, key)?.value : undefined;
  return node;
}

/**
 * Applies `edits` in order. Replacements of values that exist, at paths no other edit touches, are made in one
 * pass over one parse (a large ~/.claude.json would otherwise be parsed once per edit); the rest one by one.
 */
export function editJsonc(text: string, edits: readonly Edit[], opts: JsoncOptions = {}): string {
  const alone = edits.filter((e, i) => e.op === "set" && edits.every((o, j) => j === i || !related(e.path, o.path)));
  const done = new Set<Edit>();
  let out = text;
  if (alone.length > 1) {
    const root = parseJsonc(text, opts);
    const style = detectStyle(text);
    const found: { node: JsonNode; value: JsonValue }[] = [];
    for (const e of alone) {
      const node = nodeAt(root, e.path);
      if (node && e.op === "set") {
        found.push({ node, value: e.value });
        done.add(e);
      }
    }
    found.sort((a, b) => a.node.start - b.node.start);
    const pieces: string[] = [];
    let last = 0;
    for (const { node, value } of found) {
      pieces.push(text.slice(last, node.start), replacement(text, node, value, style));
      last = node.end;
    }
    out = pieces.join("") + text.slice(last);
  }
  for (const e of edits) {
    if (done.has(e)) continue;
    out = one(out, e, opts);
  }
  return out;
}

function one(text: string, e: Edit, opts: JsoncOptions): string {
  if (e.op === "set") return setJsonc(text, e.path, e.value, opts);
  if (e.op === "remove") return removeJsonc(text, e.path, opts);
  if (e.op === "append") return appendJsonc(text, e.path, e.value, opts);
  return removeItemJsonc(text, e.path, e.index, opts);
}

type ArrayNode = Extract<JsonNode, { kind: "array" }>;

function arrayAt(text: string, path: readonly string[], opts: JsoncOptions): ArrayNode | undefined {
  const node = nodeAt(parseJsonc(text, opts), path);
  if (node === undefined) return undefined;
  if (node.kind !== "array") {
    throw new MemnoxError("unsafe_edit", `\`${path.join(".")}\` is not a list, so memnox will not add to it`);
  }
  return node;
}

/** `value` as the last item of the list at `path`, written the way the list's last item is; made when absent. */
export function appendJsonc(text: string, path: readonly string[], value: JsonValue, opts: JsoncOptions = {}): string {
  const list = arrayAt(text, path, opts);
  if (!list) return setJsonc(text, path, [value], opts);
  const style = detectStyle(text);
  const last = list.items.at(-1);
  if (!last) {
    const outer = lineIndent(text, list.start);
    const indent = outer + style.indent;
    const item = render(value, style, indent, isContainer(value));
    return splice(text, list.start, list.end, `[${style.newline}${indent}${item}${style.newline}${outer}]`);
  }
  const afterValue = skipTrivia(text, last.end);
  const trailingComma = text[afterValue] === ",";
  const ownLine = text.slice(lineStart(text, last.start), last.start).trim() === "";
  const anchor = trailingComma ? afterValue + 1 : last.end;
  const eol = ownLine ? quietLineEnd(text, anchor) : undefined;
  if (eol !== undefined) {
    const indent = lineIndent(text, last.start);
    const added = `${style.newline}${indent}${render(value, style, indent, isContainer(value))}${trailingComma ? "," : ""}`;
    const withItem = splice(text, eol, eol, added);
    return trailingComma ? withItem : splice(withItem, last.end, last.end, ",");
  }
  const item = render(value, style, "", false);
  if (trailingComma) return splice(text, anchor, anchor, ` ${item},`);
  return splice(text, last.end, last.end, `, ${item}`);
}

/** The list at `path` without its item at `index`, its lines and the comma it leaves behind. */
export function removeItemJsonc(text: string, path: readonly string[], index: number, opts: JsoncOptions = {}): string {
  const list = arrayAt(text, path, opts);
  const item = list?.items[index];
  if (!list || !item) return text;
  const prev = index > 0 ? list.items[index - 1] : undefined;
  const afterValue = skipTrivia(text, item.end);
  const hasComma = text[afterValue] === ",";
  const start = lineStart(text, item.start);
  const ownLine = text.slice(start, item.start).trim() === "";
  const eol = ownLine ? quietLineEnd(text, hasComma ? afterValue + 1 : item.end) : undefined;
  let out: string;
  if (eol !== undefined) {
    const next = text[eol] === "\r" ? eol + 2 : eol + 1;
    out = splice(text, start, Math.min(next, text.length), "");
    if (!hasComma && prev) {
      const comma = skipTrivia(text, prev.end);
      if (text[comma] === ",") out = splice(out, comma, comma + 1, "");
    }
  } else if (hasComma) {
    let end = afterValue + 1;
    while (text[end] === " " || text[end] === "\t") end++;
    out = splice(text, item.start, end, "");
  } else if (prev) {
    out = splice(text, skipTrivia(text, prev.end), item.end, "");
  } else {
    out = splice(text, item.start, item.end, "");
  }
  return collapseIfEmpty(out, list.start, "]");
}

function insertMember(text: string, obj: ObjectNode, key: string, value: JsonValue): string {
  const style = detectStyle(text);
  const last = obj.members.at(-1);
  if (!last) return insertIntoEmpty(text, obj, key, value, style);
  const colon = /^[ \t]*:[ \t]*$/.exec(text.slice(last.keyEnd, last.value.start))?.[0] ?? ": ";
  const afterValue = skipTrivia(text, last.value.end);
  const trailingComma = text[afterValue] === ",";
  const keyFirstOnLine = text.slice(lineStart(text, last.keyStart), last.keyStart).trim() === "";
  const anchor = trailingComma ? afterValue + 1 : last.value.end;
  const eol = keyFirstOnLine ? quietLineEnd(text, anchor) : undefined;
  if (eol !== undefined) {
    const indent = lineIndent(text, last.keyStart);
    const member = `${JSON.stringify(key)}${colon}${render(value, style, indent, isContainer(value))}`;
    const added = `${style.newline}${indent}${member}${trailingComma ? "," : ""}`;
    const withMember = splice(text, eol, eol, added);
    return trailingComma ? withMember : splice(withMember, last.value.end, last.value.end, ",");
  }
  const member = `${JSON.stringify(key)}${colon}${render(value, style, "", false)}`;
  if (trailingComma) return splice(text, anchor, anchor, ` ${member},`);
  return splice(text, last.value.end, last.value.end, `, ${member}`);
}

function insertIntoEmpty(text: string, obj: ObjectNode, key: string, value: JsonValue, style: Style): string {
  const outer = lineIndent(text, obj.start);
  const indent = outer + style.indent;
  const member = `${JSON.stringify(key)}: ${render(value, style, indent, isContainer(value))}`;
  const inner = text.slice(obj.start + 1, obj.end - 1);
  if (inner.trim() === "") {
    return splice(text, obj.start, obj.end, `{${style.newline}${indent}${member}${style.newline}${outer}}`);
  }
  let at = obj.end - 1;
  while (at > obj.start + 1 && /[ \t\r\n]/.test(text[at - 1] ?? "")) at--;
  return splice(text, at, at, `${style.newline}${indent}${member}`);
}

function isContainer(value: JsonValue): boolean {
  return value !== null && typeof value === "object" && Object.keys(value).length > 0;
}

function removeMember(text: string, parent: ObjectNode, member: JsonMember): string {
  const index = parent.members.indexOf(member);
  const prev = index > 0 ? parent.members[index - 1] : undefined;
  const afterValue = skipTrivia(text, member.value.end);
  const hasComma = text[afterValue] === ",";
  const start = lineStart(text, member.keyStart);
  const ownLine = text.slice(start, member.keyStart).trim() === "";
  const eol = ownLine ? quietLineEnd(text, hasComma ? afterValue + 1 : member.value.end) : undefined;
  let out: string;
  if (eol !== undefined) {
    const next = text[eol] === "\r" ? eol + 2 : eol + 1;
    out = splice(text, start, Math.min(next, text.length), "");
    if (!hasComma && prev) {
      const comma = skipTrivia(text, prev.value.end);
      if (text[comma] === ",") out = splice(out, comma, comma + 1, "");
    }
  } else if (hasComma) {
    let end = afterValue + 1;
    while (text[end] === " " || text[end] === "\t") end++;
    out = splice(text, member.keyStart, end, "");
  } else if (prev) {
    out = splice(text, skipTrivia(text, prev.value.end), member.value.end, "");
  } else {
    out = splice(text, member.keyStart, member.value.end, "");
  }
  return collapseIfEmpty(out, parent.start, "}");
}

/** An object or list left with only whitespace inside becomes `{}` or `[]`. */
function collapseIfEmpty(text: string, start: number, close: "}" | "]"): string {
  let p = start + 1;
  while (/[ \t\r\n]/.test(text[p] ?? "")) p++;
  if (text[p] === close && p > start + 1) return splice(text, start + 1, p, "");
  return text;
}

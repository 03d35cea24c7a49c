// Where each table header and key/value line sits in TOML text. Runs only on text smol-toml already accepted,
// so it locates rather than validates.

interface TomlHeader {
  readonly kind: "header";
  readonly path: readonly string[];
  readonly array: boolean;
  /** False for `[[x]]` and any table under one: those are elements, not reachable by a key path. */
  readonly addressable: boolean;
  readonly lineStart: number;
  /** After the header line's newline. */
  readonly lineEnd: number;
}

export interface TomlKeyVal {
  readonly kind: "keyval";
  /** The full key path, or undefined inside an array of tables (not addressable by path). */
  readonly path: readonly string[] | undefined;
  /** The key as written on the line, relative to its table. */
  readonly key: readonly string[];
  readonly lineStart: number;
  readonly valueStart: number;
  readonly valueEnd: number;
  /** After the line's newline (or the end of the text). */
  readonly lineEnd: number;
}

export type TomlItem = TomlHeader | TomlKeyVal;

export function scanToml(text: string): TomlItem[] {
  const items: TomlItem[] = [];
  const arrays: string[][] = [];
  let table: string[] | undefined = [];
  let pos = text.startsWith("\uFEFF") ? 1 : 0;
  while (pos < text.length) {
    const lineStart = text.lastIndexOf("\n", pos - 1) + 1;
    pos = skipBlank(text, pos);
    const c = text[pos];
    if (c === undefined) break;
    if (c === "\n" || c === "\r") {
      pos = afterNewline(text, pos);
      continue;
    }
    if (c === "#") {
      pos = afterNewline(text, lineEndOf(text, pos));
      continue;
    }
    if (c === "[") {
      const array = text[pos + 1] === "[";
      const key = readKey(text, pos + (array ? 2 : 1));
      const lineEnd = afterNewline(text, restOfLine(text, key.end + (array ? 2 : 1)));
      if (array) arrays.push(key.path);
      const addressable = !arrays.some((a) => startsWith(key.path, a));
      table = addressable ? key.path : undefined;
      items.push({ kind: "header", path: key.path, array, addressable, lineStart, lineEnd });
      pos = lineEnd;
      continue;
    }
    const key = readKey(text, pos);
    const eq = skipBlank(text, key.end);
    const valueStart = skipBlank(text, eq + 1);
    const valueEnd = scanValue(text, valueStart);
    const lineEnd = afterNewline(text, restOfLine(text, valueEnd));
    const path = table === undefined ? undefined : [...table, ...key.path];
    items.push({ kind: "keyval", path, key: key.path, lineStart, valueStart, valueEnd, lineEnd });
    pos = lineEnd;
  }
  return items;
}

export function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => path[i] === p);
}

export function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

function skipBlank(text: string, pos: number): number {
  let p = pos;
  while (text[p] === " " || text[p] === "\t") p++;
  return p;
}

function lineEndOf(text: string, pos: number): number {
  const nl = text.indexOf("\n", pos);
  return nl < 0 ? text.length : nl;
}

function afterNewline(text: string, pos: number): number {
  if (text[pos] === "\r" && text[pos + 1] === "\n") return pos + 2;
  if (text[pos] === "\n") return pos + 1;
  return pos;
}

/** Past trailing blanks and a comment, to the newline. */
function restOfLine(text: string, pos: number): number {
  const p = skipBlank(text, pos);
  return text[p] === "#" ? lineEndOf(text, p) : p;
}

function readKey(text: string, pos: number): { path: string[]; end: number } {
  const path: string[] = [];
  let p = skipBlank(text, pos);
  for (;;) {
    const c = text[p];
    if (c === '"') {
      const end = basicStringEnd(text, p);
      path.push(unquote(text.slice(p, end)));
      p = end;
    } else if (c === "'") {
      const end = text.indexOf("'", p + 1) + 1;
      path.push(text.slice(p + 1, end - 1));
      p = end;
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(text.slice(p, p + 256));
      path.push(m?.[0] ?? "");
      p += m?.[0].length ?? 0;
    }
    p = skipBlank(text, p);
    if (text[p] !== ".") return { path, end: p };
    p = skipBlank(text, p + 1);
  }
}

/** A basic-string key's text; TOML's escapes are JSON's plus `\\U`, and an odd one falls back to the raw text. */
function unquote(quoted: string): string {
  try {
    const json = quoted.replace(/\\U([0-9a-fA-F]{8})/g, (_, h: string) => {
      const cp = Number.parseInt(h, 16);
      return cp > 0xffff ? String.fromCodePoint(cp) : `\\u${h.slice(4)}`;
    });
    return String(JSON.parse(json));
  } catch {
    return quoted.slice(1, -1);
  }
}

function basicStringEnd(text: string, pos: number): number {
  let p = pos + 1;
  while (p < text.length && text[p] !== '"') p += text[p] === "\\" ? 2 : 1;
  return p + 1;
}

function multilineEnd(text: string, pos: number, quote: string): number {
  let p = pos + 3;
  for (;;) {
    const close = text.indexOf(quote.repeat(3), p);
    if (close < 0) return text.length;
    if (quote === '"' && escaped(text, close)) {
      p = close + 1;
      continue;
    }
    let end = close + 3;
    while (text[end] === quote && end < close + 5) end++;
    return end;
  }
}

function escaped(text: string, pos: number): boolean {
  let n = 0;
  for (let i = pos - 1; text[i] === "\\"; i--) n++;
  return n % 2 === 1;
}

/** The end of the value starting at `pos`: a string, an array, an inline table or a bare scalar. */
function scanValue(text: string, pos: number): number {
  const c = text[pos];
  if (text.startsWith('"""', pos)) return multilineEnd(text, pos, '"');
  if (text.startsWith("'''", pos)) return multilineEnd(text, pos, "'");
  if (c === '"') return basicStringEnd(text, pos);
  if (c === "'") return text.indexOf("'", pos + 1) + 1;
  if (c === "[" || c === "{") return bracketEnd(text, pos);
  const m = /^\d{4}-\d{2}-\d{2}[ Tt]\d{2}:/.exec(text.slice(pos, pos + 14));
  let p = m ? pos + 11 : pos;
  while (p < text.length && !/[\s#,\]}]/.test(text[p] as string)) p++;
  return p;
}

function bracketEnd(text: string, pos: number): number {
  let depth = 0;
  let p = pos;
  while (p < text.length) {
    const c = text[p];
    if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) return p + 1;
    } else if (c === "#") {
      p = lineEndOf(text, p);
      continue;
    } else if (c === '"' || c === "'") {
      p = scanValue(text, p);
      continue;
    }
    p++;
  }
  return p;
}

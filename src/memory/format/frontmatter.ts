// The front-matter subset memex writes: one key per line, double-quoted strings, bare numbers, null, flow lists.
type FmScalar = string | number | null;
export type FmItem = string | Readonly<Record<string, string>>;
export type FmValue = FmScalar | readonly FmItem[];

export class FrontMatterError extends Error {
  override readonly name = "FrontMatterError";
}

const KEY_VALUE = /^([a-z_]+):\s*(.*?)\s*$/;
const MAP_KEY = /^[a-z_]+$/;
const INT = /^-?\d+$/;
const FLOAT = /^-?\d+\.\d+$/;

/** Splits a page into its front-matter entries (in file order) and its body. */
export function parseFrontMatter(text: string): {
  data: Map<string, FmValue>;
  lineOf: Map<string, number>;
  body: string;
} {
  if (!text.startsWith("---\n")) throw new FrontMatterError("front matter delimiter `---` not found at start of file");
  const end = text.indexOf("\n---", 4);
  if (end === -1) throw new FrontMatterError("closing `---` delimiter not found");
  const block = text.slice(4, end);
  const body = text.slice(end + 4).replace(/^\n+/, "");
  const data = new Map<string, FmValue>();
  const lineOf = new Map<string, number>();
  for (const [i, line] of block.split("\n").entries()) {
    if (!line.trim()) continue;
    const m = KEY_VALUE.exec(line);
    if (!m?.[1] || m[2] === undefined) throw new FrontMatterError(`line ${i + 2}: malformed front matter line`);
    const [, key, raw] = m;
    if (data.has(key)) throw new FrontMatterError(`line ${i + 2}: duplicate key \`${key}\``);
    lineOf.set(key, i + 2);
    try {
      data.set(key, raw.startsWith("[") ? parseList(raw, key) : parseScalar(raw, key));
    } catch (e) {
      throw new FrontMatterError(`line ${i + 2}: ${(e as Error).message}`);
    }
  }
  return { data, lineOf, body };
}

function parseScalar(raw: string, key: string): FmScalar {
  if (raw === "null") return null;
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) return unquote(raw, key);
  if (INT.test(raw) || FLOAT.test(raw)) return Number(raw);
  throw new FrontMatterError(`field \`${key}\`: unsupported value (strings are double-quoted)`);
}

function unquote(raw: string, key: string): string {
  const inner = raw.slice(1, -1);
  let out = "";
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i];
    if (ch === "\\") {
      const next = inner[i + 1];
      if (next !== '"' && next !== "\\") throw new FrontMatterError(`field \`${key}\`: unknown escape`);
      out += next;
      i++;
    } else if (ch === '"') {
      throw new FrontMatterError(`field \`${key}\`: unescaped quote`);
    } else {
      out += ch;
    }
  }
  return out;
}

/** Splits a flow collection on top-level commas, respecting quotes and braces. */
function splitItems(inner: string, key: string): string[] {
  const items: string[] = [];
  let current = "";
  let depth = 0;
  let quoted = false;
  let escaped = false;
  for (const ch of inner) {
    if (quoted) {
      current += ch;
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth < 0) throw new FrontMatterError(`field \`${key}\`: unbalanced \`}\``);
    if (ch === "," && depth === 0) {
      items.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (quoted) throw new FrontMatterError(`field \`${key}\`: unterminated quoted string`);
  if (depth) throw new FrontMatterError(`field \`${key}\`: unbalanced \`{\``);
  items.push(current.trim());
  if (items.some((item) => !item)) throw new FrontMatterError(`field \`${key}\`: empty list item`);
  return items;
}

function parseMapping(raw: string, key: string): Record<string, string> {
  if (!raw.endsWith("}")) throw new FrontMatterError(`field \`${key}\`: expected an inline mapping`);
  const inner = raw.slice(1, -1).trim();
  if (!inner) throw new FrontMatterError(`field \`${key}\`: empty mapping`);
  const entry: Record<string, string> = {};
  for (const piece of splitItems(inner, key)) {
    const colon = piece.indexOf(":");
    const name = piece.slice(0, colon).trim();
    const value = piece.slice(colon + 1).trim();
    if (colon === -1 || !MAP_KEY.test(name)) throw new FrontMatterError(`field \`${key}\`: malformed mapping entry`);
    if (name in entry) throw new FrontMatterError(`field \`${key}\`: duplicate mapping key \`${name}\``);
    if (!(value.length >= 2 && value.startsWith('"') && value.endsWith('"')))
      throw new FrontMatterError(`field \`${key}\`: mapping value for \`${name}\` must be quoted`);
    entry[name] = unquote(value, key);
  }
  return entry;
}

function parseList(raw: string, key: string): FmItem[] {
  if (!raw.endsWith("]")) throw new FrontMatterError(`field \`${key}\`: expected a flow list`);
  const inner = raw.slice(1, -1).trim();
  if (!inner) return [];
  return splitItems(inner, key).map((piece) => {
    if (piece.startsWith("{")) return parseMapping(piece, key);
    if (piece.length >= 2 && piece.startsWith('"') && piece.endsWith('"')) return unquote(piece, key);
    throw new FrontMatterError(`field \`${key}\`: list items must be quoted strings or inline mappings`);
  });
}

export function quote(value: string): string {
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** A float the way Python's repr prints it for the values we write (0.5, 1.0). */
export function floatText(n: number): string {
  return Number.isInteger(n) ? `${n}.0` : String(n);
}

function renderItem(item: FmItem): string {
  if (typeof item === "string") return quote(item);
  return `{${Object.entries(item)
    .map(([k, v]) => `${k}: ${quote(v)}`)
    .join(", ")}}`;
}

/** One `key: value` line; numbers arrive already rendered through `{ raw }` so int and float stay distinct. */
export function renderLine(key: string, value: FmScalar | readonly FmItem[] | { readonly raw: string }): string {
  if (value === null) return `${key}: null`;
  if (typeof value === "string") return `${key}: ${quote(value)}`;
  if (typeof value === "number") return `${key}: ${value}`;
  if ("raw" in value) return `${key}: ${value.raw}`;
  return `${key}: [${value.map(renderItem).join(", ")}]`;
}

export function renderFrontMatter(lines: readonly string[], body: string): string {
  return ["---", ...lines, "---", "", body].join("\n");
}

// Brace expansion of static words (`rm -rf /{etc,usr}` removes /etc and /usr): what bash does before globbing.

/** One character of a word and whether the shell sees it unquoted (only those braces expand). */
export interface Marked {
  readonly ch: string;
  readonly active: boolean;
}

const LIMIT = 64;

/** The words a brace pattern becomes; the word itself when it has no expansion or would explode. */
export function expandBraces(chars: readonly Marked[]): string[] {
  const out = expand(chars, 0);
  return out && out.length <= LIMIT ? out : [chars.map((c) => c.ch).join("")];
}

function expand(chars: readonly Marked[], depth: number): string[] | undefined {
  if (depth > 8) return undefined;
  const open = chars.findIndex((c) => c.active && c.ch === "{");
  if (open < 0) return [chars.map((c) => c.ch).join("")];
  const close = matching(chars, open);
  if (close < 0) return [chars.map((c) => c.ch).join("")];
  const inner = chars.slice(open + 1, close);
  const alternatives = splitTopLevel(inner) ?? range(inner);
  const head = chars.slice(0, open);
  const tail = chars.slice(close + 1);
  if (!alternatives) {
    const rest = expand(tail, depth + 1);
    const literal = chars
      .slice(0, close + 1)
      .map((c) => c.ch)
      .join("");
    return rest?.map((r) => literal + r);
  }
  const results: string[] = [];
  for (const alt of alternatives) {
    const sub = expand([...head, ...alt, ...tail], depth + 1);
    if (!sub) return undefined;
    results.push(...sub);
    if (results.length > LIMIT) return undefined;
  }
  return results;
}

function matching(chars: readonly Marked[], open: number): number {
  let depth = 0;
  for (let i = open; i < chars.length; i++) {
    const c = chars[i] as Marked;
    if (!c.active) continue;
    if (c.ch === "{") depth++;
    else if (c.ch === "}" && --depth === 0) return i;
  }
  return -1;
}

/** `a,b,{c,d}` split on top-level active commas; undefined when there is no comma (not an expansion). */
function splitTopLevel(inner: readonly Marked[]): Marked[][] | undefined {
  const parts: Marked[][] = [[]];
  let depth = 0;
  for (const c of inner) {
    if (c.active && c.ch === "{") depth++;
    if (c.active && c.ch === "}") depth--;
    if (c.active && c.ch === "," && depth === 0) parts.push([]);
    else parts[parts.length - 1]?.push(c);
  }
  return parts.length > 1 ? parts : undefined;
}

/** `{1..3}`, `{a..c}`, `{01..10..2}`. */
function range(inner: readonly Marked[]): Marked[][] | undefined {
  const text = inner.map((c) => c.ch).join("");
  const m = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/.exec(text);
  if (!m?.[1] || !m[2] || inner.some((c) => !c.active)) return undefined;
  const numeric = /\d/.test(m[1]);
  const from = numeric ? Number(m[1]) : m[1].charCodeAt(0);
  const to = numeric ? Number(m[2]) : m[2].charCodeAt(0);
  const step = Math.max(1, Math.abs(Number(m[3] ?? 1)));
  if (Math.abs(to - from) / step > LIMIT) return undefined;
  const out: Marked[][] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) {
    const s = numeric ? String(v) : String.fromCharCode(v);
    out.push([...s].map((ch) => ({ ch, active: false })));
  }
  return out;
}

// Which line a key sits on in a TOML file, so every problem names file and line; smol-toml keeps no positions.

export type KeyPath = readonly (string | number)[];

const BARE = `[A-Za-z0-9_-]+|"[^"]*"|'[^']*'`;
const DOTTED = String.raw`(?:${BARE})(?:\s*\.\s*(?:${BARE}))*`;
const ARRAY_HEADER = new RegExp(String.raw`^\s*\[\[\s*(${DOTTED})\s*\]\]`);
const TABLE_HEADER = new RegExp(String.raw`^\s*\[\s*(${DOTTED})\s*\]`);
const KEY_LINE = new RegExp(String.raw`^\s*(${DOTTED})\s*=`);

function splitKeys(dotted: string): string[] {
  const out: string[] = [];
  for (const m of dotted.matchAll(new RegExp(BARE, "g"))) {
    const k = m[0];
    out.push(k.startsWith('"') || k.startsWith("'") ? k.slice(1, -1) : k);
  }
  return out;
}

const keyOf = (path: KeyPath) => path.join("\u0001");

/** Maps every table header and key of a TOML text to its 1-based line. */
export function tomlLines(text: string): (path: KeyPath) => number | undefined {
  const lines = new Map<string, number>();
  const arrays = new Map<string, number>();
  const resolve = (keys: readonly string[]): (string | number)[] => {
    const out: (string | number)[] = [];
    for (const k of keys) {
      out.push(k);
      const n = arrays.get(keyOf(out));
      if (n !== undefined) out.push(n - 1);
    }
    return out;
  };
  let table: (string | number)[] = [];
  let inString: string | undefined;
  text.split("\n").forEach((raw, i) => {
    const lineNo = i + 1;
    if (inString) {
      if (raw.split(inString).length % 2 === 0) inString = undefined;
      return;
    }
    const arr = ARRAY_HEADER.exec(raw);
    const tab = arr ? undefined : TABLE_HEADER.exec(raw);
    const key = arr || tab ? undefined : KEY_LINE.exec(raw);
    if (arr?.[1]) {
      const keys = splitKeys(arr[1]);
      const parent = resolve(keys.slice(0, -1));
      const full = [...parent, keys[keys.length - 1] ?? ""];
      const n = arrays.get(keyOf(full)) ?? 0;
      arrays.set(keyOf(full), n + 1);
      table = [...full, n];
      if (!lines.has(keyOf(full))) lines.set(keyOf(full), lineNo);
      lines.set(keyOf(table), lineNo);
    } else if (tab?.[1]) {
      table = resolve(splitKeys(tab[1]));
      lines.set(keyOf(table), lineNo);
    } else if (key?.[1]) {
      const path = [...table, ...splitKeys(key[1])];
      if (!lines.has(keyOf(path))) lines.set(keyOf(path), lineNo);
      for (const q of ['"""', "'''"]) if (raw.split(q).length % 2 === 0) inString = q;
    }
  });
  return (path) => {
    for (let n = path.length; n > 0; n--) {
      const line = lines.get(keyOf(path.slice(0, n)));
      if (line !== undefined) return line;
    }
    return undefined;
  };
}

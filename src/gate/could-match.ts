// Could a target the line leaves open (`~/$d/config.toml`, `$(cmd)`, a glob nothing matched) be a protected path?
// Both are read as patterns over characters and intersected; a string in both is the witness that says how. Pure.

type Tok =
  | { readonly k: "lit"; readonly c: string }
  /** One character other than `/` (`?`, `[…]`). */
  | { readonly k: "one" }
  /** Any run of characters other than `/` (`*`). */
  | { readonly k: "star" }
  /** Any run of characters at all (`**`, or a variable or substitution whose value is unknown). */
  | { readonly k: "any" };

/** Where a `$…` part of a target ends: `$name`, `${…}`, `$(…)` (backticks reach here as `$(…)`). */
function dollarEnd(s: string, i: number): number {
  const n = s[i + 1];
  if (n === "(" || n === "{") {
    const close = n === "(" ? ")" : "}";
    let depth = 0;
    for (let j = i + 1; j < s.length; j++) {
      if (s[j] === n) depth++;
      else if (s[j] === close && --depth === 0) return j + 1;
    }
    return s.length;
  }
  let j = i + 1;
  if (/[0-9@*#?$!-]/.test(n ?? "")) return j + 1;
  while (j < s.length && /[A-Za-z0-9_]/.test(s[j] ?? "")) j++;
  return j;
}

function classEnd(s: string, i: number): number {
  const close = s.indexOf("]", i + 2);
  return close < 0 ? -1 : close + 1;
}

/** A target as the shell leaves it: unknown parts are anything, glob characters their usual meaning. */
function targetTokens(t: string): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < t.length; ) {
    const ch = t[i] ?? "";
    if (ch === "$" && i + 1 < t.length && /[A-Za-z_({0-9@*#?$!-]/.test(t[i + 1] ?? "")) {
      out.push({ k: "any" });
      i = dollarEnd(t, i);
    } else if (ch === "*") {
      out.push({ k: "star" });
      i++;
    } else if (ch === "?") {
      out.push({ k: "one" });
      i++;
    } else if (ch === "[" && classEnd(t, i) > 0) {
      out.push({ k: "one" });
      i = classEnd(t, i);
    } else {
      out.push({ k: "lit", c: ch });
      i++;
    }
  }
  return out;
}

/** `{a,b}` alternatives of a pattern, at most a few dozen. */
function braces(p: string): string[] {
  const open = p.indexOf("{");
  if (open < 0) return [p];
  let depth = 0;
  for (let j = open; j < p.length; j++) {
    if (p[j] === "{") depth++;
    else if (p[j] === "}" && --depth === 0) {
      const inner = p.slice(open + 1, j);
      const parts: string[] = [];
      let d = 0;
      let from = 0;
      for (let k = 0; k < inner.length; k++) {
        if (inner[k] === "{") d++;
        else if (inner[k] === "}") d--;
        else if (inner[k] === "," && d === 0) {
          parts.push(inner.slice(from, k));
          from = k + 1;
        }
      }
      parts.push(inner.slice(from));
      return parts.flatMap((alt) => braces(p.slice(0, open) + alt + p.slice(j + 1))).slice(0, 64);
    }
  }
  return [p];
}

/** A protected pattern (absolute glob) as alternatives of tokens. */
function patternTokens(p: string): Tok[][] {
  return braces(p).map((alt) => {
    const out: Tok[] = [];
    for (let i = 0; i < alt.length; ) {
      if (alt.startsWith("**", i)) {
        out.push({ k: "any" });
        i += 2;
      } else if (alt[i] === "*") {
        out.push({ k: "star" });
        i++;
      } else if (alt[i] === "?") {
        out.push({ k: "one" });
        i++;
      } else if (alt[i] === "[" && classEnd(alt, i) > 0) {
        out.push({ k: "one" });
        i = classEnd(alt, i);
      } else {
        out.push({ k: "lit", c: alt[i] ?? "" });
        i++;
      }
    }
    return out;
  });
}

const loops = (t: Tok | undefined) => t?.k === "star" || t?.k === "any";

/** What one side accepts as the next character, or whether it accepts it. */
function accepts(t: Tok, c: string): boolean {
  if (t.k === "lit") return t.c === c;
  return t.k === "any" || c !== "/";
}

/** A string both token lists match, or undefined when none exists (breadth first: the shortest). */
export function witness(a: readonly Tok[], b: readonly Tok[]): string | undefined {
  const key = (i: number, j: number) => i * (b.length + 1) + j;
  const prev = new Map<number, { from: number; c: string }>();
  const start = key(0, 0);
  prev.set(start, { from: -1, c: "" });
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q] as number;
    const i = Math.floor(s / (b.length + 1));
    const j = s % (b.length + 1);
    if (i === a.length && j === b.length) {
      let text = "";
      for (let at = s; at !== start; ) {
        const p = prev.get(at);
        if (!p) break;
        text = p.c + text;
        at = p.from;
      }
      return text;
    }
    const go = (ni: number, nj: number, c: string) => {
      const k = key(ni, nj);
      if (prev.has(k)) return;
      prev.set(k, { from: s, c });
      queue.push(k);
    };
    const ta = a[i];
    const tb = b[j];
    if (loops(ta)) go(i + 1, j, "");
    if (loops(tb)) go(i, j + 1, "");
    if (!ta || !tb) continue;
    const c = ta.k === "lit" ? ta.c : tb.k === "lit" ? tb.c : "x";
    if (!accepts(ta, c) || !accepts(tb, c)) continue;
    go(loops(ta) ? i : i + 1, loops(tb) ? j : j + 1, c);
  }
  return undefined;
}

/** Whether the target names nothing beyond the directory it is in: only unknown parts past `cwd/` or `home/`. */
export function isBare(target: string, cwd: string, home: string): boolean {
  let rest = target;
  for (const base of [`${cwd}/`, `${home}/`]) if (rest.startsWith(base)) rest = rest.slice(base.length);
  return targetTokens(rest).every((t) => t.k !== "lit" || t.c === "/" || t.c === ".");
}

/** Witnesses that `target` could be a path one of `patterns` covers, one per pattern it could be. */
export function couldBe(target: string, patterns: readonly string[]): string[] {
  const t = targetTokens(target);
  const out = new Set<string>();
  for (const p of patterns) {
    for (const alt of patternTokens(p)) {
      const w = witness(t, alt);
      if (w !== undefined) {
        out.add(w);
        break;
      }
    }
  }
  return [...out];
}

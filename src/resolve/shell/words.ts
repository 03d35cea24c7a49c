// Reading one word: quotes, escapes, and the expansions inside it ($VAR, ${…}, $(…), `…`, $((…)), <(…)).

import { ansiC } from "./ansi-c.ts";
import type { Nested, Script, Word, WordPart } from "./ast.ts";
import { type Cursor, isDigit, isNameChar, isNameStart, isWordEnd } from "./cursor.ts";
import { innerScripts } from "./inner.ts";
import { joinTokens } from "./render.ts";

const EXTGLOB = new Set(["?", "*", "+", "@", "!"]);

/** Characters that end a run of plain text outside quotes, and inside double quotes. */
const PLAIN_STOP = new Set([..." \t\r\n;&|()<>\\'\"$`?*+@!="]);
const DOUBLE_STOP = new Set(['"', "\\", "$", "`"]);

/** The end of a run of characters none of which is in `stop`: plain text is taken in one slice. */
function runEnd(src: string, from: number, stop: ReadonlySet<string>): number {
  let i = from;
  while (i < src.length && !stop.has(src[i] as string)) i++;
  return i;
}

class PartBuilder {
  readonly parts: WordPart[] = [];
  private buf = "";
  private bufQuoted = false;

  lit(text: string, quoted: boolean): void {
    if (text === "") {
      if (quoted) this.flushIf(true);
      if (quoted && this.buf === "") this.bufQuoted = true;
      return;
    }
    this.flushIf(quoted);
    this.buf += text;
    this.bufQuoted = quoted;
  }

  push(part: WordPart): void {
    this.flush();
    this.parts.push(part);
  }

  get unquotedSoFar(): string {
    return this.parts.length === 0 && !this.bufQuoted ? this.buf : "";
  }

  private flushIf(quoted: boolean): void {
    if (this.bufQuoted !== quoted) this.flush();
  }

  flush(): void {
    if (this.buf !== "" || this.bufQuoted) this.parts.push({ kind: "lit", text: this.buf, quoted: this.bufQuoted });
    this.buf = "";
    this.bufQuoted = false;
  }
}

/** Reads the word at the cursor; undefined when no word starts here. */
export function readWord(c: Cursor, nested: Nested): Word | undefined {
  const start = c.pos;
  const b = new PartBuilder();
  let elements: Word[] | undefined;
  while (!c.eof) {
    const ch = c.at();
    if ((ch === "<" || ch === ">") && c.at(1) === "(") {
      b.push(readProcSub(c, nested));
      continue;
    }
    if (isWordEnd(ch)) break;
    if (ch === "\\") {
      if (c.at(1) === "\n") c.pos += 2;
      else if (c.pos + 1 >= c.src.length) {
        b.lit("\\", false);
        c.pos++;
      } else {
        b.lit(c.at(1), true);
        c.pos += 2;
      }
    } else if (ch === "'") b.lit(readSingle(c), true);
    else if (ch === '"') readDouble(c, nested, b);
    else if (ch === "$") readDollar(c, nested, b, false);
    else if (ch === "`") b.push(readBacktick(c, nested, false));
    else if (EXTGLOB.has(ch) && c.at(1) === "(") b.lit(ch + readBalanced(c, 1), false);
    else if (ch === "=" && c.at(1) === "(" && /^[A-Za-z_][A-Za-z0-9_]*\+?$/.test(b.unquotedSoFar)) {
      elements = readArray(c, nested, b);
    } else {
      const end = runEnd(c.src, c.pos + 1, PLAIN_STOP);
      b.lit(c.src.slice(c.pos, end), false);
      c.pos = end;
    }
  }
  if (c.pos === start) return undefined;
  b.flush();
  return { parts: b.parts, raw: c.src.slice(start, c.pos), ...(elements ? { elements } : {}) };
}

/**
 * `name=(a "$(cmd)" [i]=v)`: each element is a word of its own, its substitutions run as the array is made; the parts
 * go into the word (one space apart) and the elements are kept, for the subscripts bash evaluates.
 */
function readArray(c: Cursor, nested: Nested, b: PartBuilder): Word[] {
  b.lit("=(", false);
  c.pos += 2;
  const elements: Word[] = [];
  for (;;) {
    while (!c.eof && /[ \t\r\n]/.test(c.at())) c.pos++;
    if (c.at() === "#") {
      while (!c.eof && c.at() !== "\n") c.pos++;
      continue;
    }
    if (c.eof) {
      if (!c.lenient) c.fail("an array's parenthesis is never closed");
      return elements;
    }
    if (c.at() === ")") {
      c.pos++;
      b.lit(")", false);
      return elements;
    }
    const w = readWord(c, nested);
    if (!w) {
      if (!c.lenient) c.fail(`unexpected \`${c.at()}\` in an array`);
      c.pos++;
      continue;
    }
    if (elements.length > 0) b.lit(" ", false);
    for (const p of w.parts) {
      if (p.kind === "lit") b.lit(p.text, p.quoted);
      else b.push(p);
    }
    elements.push(w);
  }
}

function readSingle(c: Cursor): string {
  const end = c.src.indexOf("'", c.pos + 1);
  if (end < 0) {
    if (!c.lenient) c.fail("a single quote is never closed");
    const text = c.src.slice(c.pos + 1);
    c.pos = c.src.length;
    return text;
  }
  const text = c.src.slice(c.pos + 1, end);
  c.pos = end + 1;
  return text;
}

/** `"…"`: backslash escapes only $ ` " \ and newline; expansions stay live. */
function readDouble(c: Cursor, nested: Nested, b: PartBuilder): void {
  c.pos++;
  b.lit("", true);
  for (;;) {
    if (c.eof) {
      if (!c.lenient) c.fail("a double quote is never closed");
      return;
    }
    const ch = c.at();
    if (ch === '"') {
      c.pos++;
      return;
    }
    if (ch === "\\") {
      const n = c.at(1);
      if (n === "\n") c.pos += 2;
      else if (n === "$" || n === "`" || n === '"' || n === "\\") {
        b.lit(n, true);
        c.pos += 2;
      } else {
        b.lit("\\", true);
        c.pos++;
      }
    } else if (ch === "$") readDollar(c, nested, b, true);
    else if (ch === "`") b.push(readBacktick(c, nested, true));
    else {
      const end = runEnd(c.src, c.pos + 1, DOUBLE_STOP);
      b.lit(c.src.slice(c.pos, end), true);
      c.pos = end;
    }
  }
}

function readDollar(c: Cursor, nested: Nested, b: PartBuilder, inDouble: boolean): void {
  const start = c.pos;
  const n = c.at(1);
  if (n === "(" && c.at(2) === "(") {
    const arith = tryArith(c, nested);
    if (arith) {
      b.push(arith);
      return;
    }
  }
  if (n === "(") {
    c.pos += 2;
    const { script, normalized } = substitution(c, nested);
    b.push({ kind: "cmdsub", script, raw: c.src.slice(start, c.pos), normalized: `$(${normalized})` });
    return;
  }
  if (n === "{") {
    b.push(readBraceParam(c, nested));
    return;
  }
  if (n === "[") {
    b.push(readOldArith(c, nested));
    return;
  }
  if (n === "'" && !inDouble) {
    c.pos++;
    b.lit(ansiC(readSingleRaw(c)), true);
    return;
  }
  if (n === '"' && !inDouble) {
    c.pos++;
    readDouble(c, nested, b);
    return;
  }
  if (isNameStart(n)) {
    let i = c.pos + 1;
    while (isNameChar(c.src[i] ?? "")) i++;
    const name = c.src.slice(c.pos + 1, i);
    c.pos = i;
    b.push({ kind: "var", name, raw: `$${name}`, inner: [] });
    return;
  }
  if (isDigit(n) || "@*#?$!-".includes(n)) {
    c.pos += 2;
    b.push({ kind: "var", name: n, raw: `$${n}`, inner: [] });
    return;
  }
  b.lit("$", inDouble);
  c.pos++;
}

/** `$'…'` keeps backslash-escaped quotes inside, so find the end by hand. */
function readSingleRaw(c: Cursor): string {
  let i = c.pos + 1;
  while (i < c.src.length && c.src[i] !== "'") i += c.src[i] === "\\" ? 2 : 1;
  if (i >= c.src.length && !c.lenient) c.fail("a $'…' quote is never closed");
  const text = c.src.slice(c.pos + 1, Math.min(i, c.src.length));
  c.pos = Math.min(i + 1, c.src.length);
  return text;
}

/** Backticks: the contents are unescaped once, then read as a script of their own. */
function readBacktick(c: Cursor, nested: Nested, inDouble: boolean): WordPart {
  const start = c.pos;
  let i = c.pos + 1;
  let text = "";
  while (i < c.src.length && c.src[i] !== "`") {
    const ch = c.src[i] ?? "";
    const n = c.src[i + 1] ?? "";
    if (ch === "\\" && (n === "`" || n === "\\" || n === "$" || (inDouble && n === '"'))) {
      text += n;
      i += 2;
    } else {
      text += ch;
      i++;
    }
  }
  if (i >= c.src.length && !c.lenient) c.fail("a backtick is never closed");
  c.pos = Math.min(i + 1, c.src.length);
  const inner = nested.line(text);
  return { kind: "cmdsub", script: inner.script, raw: c.src.slice(start, c.pos), normalized: `$(${inner.normalized})` };
}

/** `$((…))`; when the parentheses do not close as arithmetic, bash reads `$( (…) )` instead. */
function tryArith(c: Cursor, nested: Nested): WordPart | undefined {
  const start = c.pos;
  let depth = 0;
  let i = c.pos + 3;
  for (; i < c.src.length; i++) {
    const ch = c.src[i];
    if (ch === "(") depth++;
    else if (ch === ")") {
      if (depth === 0) break;
      depth--;
    }
  }
  if (c.src[i] !== ")" || c.src[i + 1] !== ")") return undefined;
  const inner = innerScripts(c.src.slice(start + 3, i), nested);
  c.pos = i + 2;
  return { kind: "arith", raw: c.src.slice(start, c.pos), inner };
}

/** `$[…]`, the old spelling of `$((…))`. */
function readOldArith(c: Cursor, nested: Nested): WordPart {
  const start = c.pos;
  let depth = 0;
  let i = c.pos + 1;
  for (; i < c.src.length; i++) {
    if (c.src[i] === "[") depth++;
    else if (c.src[i] === "]" && --depth === 0) break;
  }
  if (i >= c.src.length && !c.lenient) c.fail("a $[ is never closed");
  const inner = innerScripts(c.src.slice(start + 2, i), nested);
  c.pos = Math.min(i + 1, c.src.length);
  return { kind: "arith", raw: c.src.slice(start, c.pos), inner };
}

/** `${…}`: the name, and any substitution inside the operator part (`${X:-$(cmd)}`). */
function readBraceParam(c: Cursor, nested: Nested): WordPart {
  const start = c.pos;
  c.pos += 2;
  let depth = 0;
  const inner: Script[] = [];
  while (!c.eof) {
    const ch = c.at();
    if (ch === "}" && depth === 0) break;
    if (ch === "{") depth++;
    else if (ch === "}") depth--;
    if (ch === "\\") c.pos += 2;
    else if (ch === "'") readSingle(c);
    else if (ch === "$" || ch === '"' || ch === "`") {
      const b = new PartBuilder();
      if (ch === "$") readDollar(c, nested, b, false);
      else if (ch === '"') readDouble(c, nested, b);
      else b.push(readBacktick(c, nested, false));
      b.flush();
      for (const p of b.parts) inner.push(...scriptsOf(p));
    } else c.pos++;
  }
  if (c.eof && !c.lenient) c.fail("a parameter expansion is never closed");
  c.pos = Math.min(c.pos + 1, c.src.length);
  const raw = c.src.slice(start, c.pos);
  const name = /^\$\{[#!]?([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(raw)?.[1] ?? "";
  return { kind: "var", name, raw, inner };
}

function readProcSub(c: Cursor, nested: Nested): WordPart {
  const start = c.pos;
  const dir = c.at() === "<" ? "<" : ">";
  c.pos += 2;
  const { script, normalized } = substitution(c, nested);
  return { kind: "procsub", dir, script, raw: c.src.slice(start, c.pos), normalized: `${dir}(${normalized})` };
}

/** The script of a `$(…)` or `<(…)` at the cursor, and its own normalised text (heredoc bodies left out). */
function substitution(c: Cursor, nested: Nested): { script: Script; normalized: string } {
  c.cmdsubDepth++;
  c.startSink();
  const script = nested.untilParen();
  const tokens = c.endSink();
  c.cmdsubDepth--;
  if (tokens[tokens.length - 1] === ")") tokens.pop();
  return { script, normalized: joinTokens(tokens) };
}

/** Balanced parentheses read as literal text (array values, extended globs), quotes respected. */
function readBalanced(c: Cursor, skip: number): string {
  const start = c.pos + skip;
  let depth = 0;
  let i = start;
  for (; i < c.src.length; i++) {
    const ch = c.src[i];
    if (ch === "\\") i++;
    else if (ch === "'") i = Math.max(i, c.src.indexOf("'", i + 1));
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) break;
  }
  if (i >= c.src.length && !c.lenient) c.fail("a parenthesis is never closed");
  c.pos = Math.min(i + 1, c.src.length);
  return c.src.slice(start, c.pos);
}

export function scriptsOf(p: WordPart): Script[] {
  if (p.kind === "cmdsub" || p.kind === "procsub") return [p.script];
  if (p.kind === "var" || p.kind === "arith") return [...p.inner];
  return [];
}

/** The literal text of a word when it has no expansions (reserved words, heredoc delimiters). */
export function literalText(w: Word): string | undefined {
  let out = "";
  for (const p of w.parts) {
    if (p.kind !== "lit") return undefined;
    out += p.text;
  }
  return out;
}

// A JSON reader that keeps where every value sits (comments and trailing commas allowed), so edits touch only
// the bytes they change. With `json5`, also unquoted keys, single-quoted strings, hex and signed numbers.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

interface Span {
  readonly start: number;
  readonly end: number;
}

export interface JsonMember {
  readonly key: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly value: JsonNode;
}

export type JsonNode =
  | (Span & { readonly kind: "object"; readonly members: readonly JsonMember[] })
  | (Span & { readonly kind: "array"; readonly items: readonly JsonNode[] })
  | (Span & { readonly kind: "scalar"; readonly value: string | number | boolean | null });

export interface JsoncOptions {
  readonly json5?: boolean;
}

/** A parse failure with the place it happened, 1-based. */
export class ParseFailure extends Error {
  readonly line: number;
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super(message);
    this.name = "ParseFailure";
    this.line = line;
    this.column = column;
  }
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const MAX_DEPTH = 512;

/** The position after any whitespace and comments from `pos`. */
export function skipTrivia(text: string, pos: number): number {
  let p = pos;
  for (;;) {
    const c = text.charCodeAt(p);
    if (c === 32 || c === 10 || c === 13 || c === 9 || (c === 0xfeff && p === 0)) p++;
    else if (c === 47 && text.charCodeAt(p + 1) === 47) {
      const nl = text.indexOf("\n", p);
      p = nl < 0 ? text.length : nl;
    } else if (c === 47 && text.charCodeAt(p + 1) === 42) {
      const close = text.indexOf("*/", p + 2);
      if (close < 0) return p;
      p = close + 2;
    } else return p;
  }
}

export function parseJsonc(text: string, opts: JsoncOptions = {}): JsonNode {
  return new Reader(text, opts.json5 === true).document();
}

/** The plain value a node stands for; a repeated key keeps its last value, as JSON.parse does. */
export function nodeValue(node: JsonNode): JsonValue {
  if (node.kind === "scalar") return node.value;
  if (node.kind === "array") return node.items.map(nodeValue);
  const out: { [key: string]: JsonValue } = {};
  for (const m of node.members) {
    Object.defineProperty(out, m.key, {
      value: nodeValue(m.value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NUMBER5 = /[+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|Infinity|NaN)/y;
const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const WORD_CHAR = /[A-Za-z0-9_$]/;

/** A sticky match of `re` at exactly `pos`. */
function matchAt(re: RegExp, text: string, pos: number): string | undefined {
  re.lastIndex = pos;
  return re.exec(text)?.[0];
}

class Reader {
  private pos = 0;
  constructor(
    private readonly text: string,
    private readonly json5: boolean,
  ) {}

  document(): JsonNode {
    const node = this.value(0);
    this.pos = this.trivia();
    if (this.pos < this.text.length) this.fail("unexpected text after the end of the document");
    return node;
  }

  private trivia(): number {
    const p = skipTrivia(this.text, this.pos);
    if (this.text[p] === "/" && this.text[p + 1] === "*") this.fail("a comment is not closed", p);
    return p;
  }

  private fail(message: string, at = this.pos): never {
    const { line, column } = lineColumn(this.text, at);
    throw new ParseFailure(message, line, column);
  }

  private value(depth: number): JsonNode {
    if (depth > MAX_DEPTH) this.fail("nested too deeply");
    this.pos = this.trivia();
    const c = this.text[this.pos];
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    if (c === '"' || (c === "'" && this.json5)) {
      const start = this.pos;
      const value = this.string();
      return { kind: "scalar", start, end: this.pos, value };
    }
    return this.literal();
  }

  private literal(): JsonNode {
    const start = this.pos;
    const text = this.text;
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(word, start) && !WORD_CHAR.test(text[start + word.length] ?? "")) {
        this.pos = start + word.length;
        return { kind: "scalar", start, end: this.pos, value };
      }
    }
    const m = matchAt(this.json5 ? NUMBER5 : NUMBER, text, start);
    if (!m || WORD_CHAR.test(text[start + m.length] ?? "")) {
      this.fail(this.pos >= text.length ? "the document ends too early" : "expected a value");
    }
    this.pos = start + m.length;
    const raw = m.replace(/^\+/, "");
    const neg = raw.startsWith("-");
    const body = neg ? raw.slice(1) : raw;
    const n = /^0[xX]/.test(body) ? Number.parseInt(body.slice(2), 16) : Number(body);
    return { kind: "scalar", start, end: this.pos, value: neg ? -n : n };
  }

  private object(depth: number): JsonNode {
    const start = this.pos;
    this.pos++;
    const members: JsonMember[] = [];
    for (;;) {
      this.pos = this.trivia();
      if (this.text[this.pos] === "}") break;
      const keyStart = this.pos;
      const key = this.key();
      const keyEnd = this.pos;
      this.pos = this.trivia();
      if (this.text[this.pos] !== ":") this.fail("expected `:` after a key");
      this.pos++;
      members.push({ key, keyStart, keyEnd, value: this.value(depth + 1) });
      this.pos = this.trivia();
      if (this.text[this.pos] === ",") this.pos++;
      else if (this.text[this.pos] !== "}") this.fail("expected `,` or `}`");
    }
    this.pos++;
    return { kind: "object", start, end: this.pos, members };
  }

  private key(): string {
    const c = this.text[this.pos];
    if (c === '"' || (c === "'" && this.json5)) return this.string();
    const ident = this.json5 ? matchAt(IDENT, this.text, this.pos) : undefined;
    if (ident) {
      this.pos += ident.length;
      return ident;
    }
    return this.fail(this.pos >= this.text.length ? "the document ends inside an object" : "expected a quoted key");
  }

  private array(depth: number): JsonNode {
    const start = this.pos;
    this.pos++;
    const items: JsonNode[] = [];
    for (;;) {
      this.pos = this.trivia();
      if (this.text[this.pos] === "]") break;
      items.push(this.value(depth + 1));
      this.pos = this.trivia();
      if (this.text[this.pos] === ",") this.pos++;
      else if (this.text[this.pos] !== "]") this.fail("expected `,` or `]`");
    }
    this.pos++;
    return { kind: "array", start, end: this.pos, items };
  }

  private string(): string {
    const text = this.text;
    const quote = text.charCodeAt(this.pos);
    let out = "";
    let run = this.pos + 1;
    let p = run;
    for (;;) {
      const c = text.charCodeAt(p);
      if (Number.isNaN(c)) this.fail("a string is not closed", this.pos);
      if (c === quote) break;
      if (c < 32) this.fail("a control character must be escaped inside a string", p);
      if (c === 92) {
        const [decoded, next] = this.escape(p);
        out += text.slice(run, p) + decoded;
        p = next;
        run = p;
      } else p++;
    }
    this.pos = p + 1;
    return out + text.slice(run, p);
  }

  private escape(p: number): [string, number] {
    const e = this.text[p + 1];
    const simple: Record<string, string> = {
      '"': '"',
      "\\": "\\",
      "/": "/",
      b: "\b",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "\t",
    };
    if (e !== undefined && simple[e] !== undefined) return [simple[e], p + 2];
    if (e === "u") {
      const hex = this.text.slice(p + 2, p + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("a \\u escape needs four hex digits", p);
      return [String.fromCharCode(Number.parseInt(hex, 16)), p + 6];
    }
    if (this.json5 && e === "'") return ["'", p + 2];
    if (this.json5 && e === "\n") return ["", p + 2];
    return this.fail("an unknown escape inside a string", p);
  }
}

// The parser's position in the source, its limits, and the low-level scanning every other part shares.
import type { Heredoc } from "./ast.ts";

export class ShellSyntaxError extends Error {
  readonly pos: number;
  constructor(message: string, pos: number) {
    super(message);
    this.name = "ShellSyntaxError";
    this.pos = pos;
  }
}

/** Nesting beyond this is refused as unparsable rather than risking the stack. */
const MAX_NESTING = 200;

const REDIRECT_OPS = [">>", ">|", ">&", "<>", "<&", "<<<", "<<-", "<<", "&>>", "&>", "<", ">"] as const;
const OPS = [";;&", ";;", ";&", "&&", "||", "|&", "&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">|", ">&"];
const SINGLE_OPS = new Set(["|", "&", ";", "(", ")", "<", ">", "\n"]);

export class Cursor {
  readonly src: string;
  pos = 0;
  readonly lenient: boolean;
  nesting = 0;
  /** How many `$(` we are inside: a heredoc there may end on `EOF)`. */
  cmdsubDepth = 0;
  pending: Heredoc[] = [];
  /** What the parser consumed, for the normalised line; a substitution collects into its own list. */
  private sinks: string[][] = [[]];

  constructor(src: string, lenient: boolean) {
    this.src = src;
    this.lenient = lenient;
  }

  get eof(): boolean {
    return this.pos >= this.src.length;
  }

  at(offset = 0): string {
    return this.src[this.pos + offset] ?? "";
  }

  startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  fail(message: string): never {
    throw new ShellSyntaxError(message, this.pos);
  }

  get tokens(): readonly string[] {
    return this.sinks[0] ?? [];
  }

  record(token: string): void {
    if (token !== "") this.sinks[this.sinks.length - 1]?.push(token);
  }

  /** Tokens from here until `endSink()` belong to a substitution, not to the enclosing line. */
  startSink(): void {
    this.sinks.push([]);
  }

  endSink(): string[] {
    return this.sinks.length > 1 ? (this.sinks.pop() ?? []) : [];
  }

  /** Consumes an operator known to be here and records it. */
  take(op: string): void {
    this.pos += op.length;
    this.record(op);
  }

  enter(): void {
    this.nesting++;
    if (this.nesting > MAX_NESTING) this.fail("nesting is too deep to read safely");
  }

  leave(): void {
    this.nesting--;
  }

  /** Spaces, tabs, line continuations and comments; never a newline. */
  skipBlanks(): void {
    for (;;) {
      const c = this.at();
      if (c === " " || c === "\t" || c === "\r") this.pos++;
      else if (c === "\\" && this.at(1) === "\n") this.pos += 2;
      else if (c === "#") {
        while (!this.eof && this.at() !== "\n") this.pos++;
      } else return;
    }
  }

  /** The operator starting here (after blanks), if any; a leading fd number counts as part of a redirect. */
  peekOp(): string | undefined {
    this.skipBlanks();
    let i = this.pos;
    while (isDigit(this.src[i] ?? "")) i++;
    if (i > this.pos) {
      const c = this.src[i];
      if ((c === "<" || c === ">") && this.src[i + 1] !== "(") return this.src.slice(this.pos, i) + opAt(this.src, i);
      return undefined;
    }
    const c = this.at();
    if ((c === "<" || c === ">") && this.at(1) === "(") return undefined;
    return opAt(this.src, this.pos);
  }
}

function opAt(src: string, i: number): string | undefined {
  for (const op of OPS) if (src.startsWith(op, i)) return op;
  const c = src[i] ?? "";
  return SINGLE_OPS.has(c) ? c : undefined;
}

export function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

export function isNameStart(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
}

export function isNameChar(c: string): boolean {
  return isNameStart(c) || isDigit(c);
}

/** Characters that end an unquoted word. */
export function isWordEnd(c: string): boolean {
  return (
    c === "" ||
    c === " " ||
    c === "\t" ||
    c === "\r" ||
    c === "\n" ||
    c === ";" ||
    c === "&" ||
    c === "|" ||
    c === "(" ||
    c === ")" ||
    c === "<" ||
    c === ">"
  );
}

export function isRedirectOp(op: string): boolean {
  const bare = op.replace(/^\d+/, "");
  return (REDIRECT_OPS as readonly string[]).includes(bare);
}

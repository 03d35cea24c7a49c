// The grammar: lists, and-or chains, pipelines, simple commands and redirections (compound commands: compound.ts).
import type {
  AndOr,
  Command,
  CompoundCommand,
  Heredoc,
  Pipeline,
  Redirect,
  RedirectOp,
  Script,
  SimpleCommand,
  Word,
} from "./ast.ts";
import {
  arithCommand,
  caseClause,
  cond,
  forClause,
  functionKeyword,
  group,
  ifClause,
  loop,
  subshell,
} from "./compound.ts";
import { Cursor, isNameChar, isNameStart, isRedirectOp, isWordEnd, ShellSyntaxError } from "./cursor.ts";
import type { Grammar, Stop } from "./grammar.ts";
import { readHeredocs } from "./heredoc.ts";
import { joinTokens, renderWord } from "./render.ts";
import { literalText, readWord } from "./words.ts";

export { ShellSyntaxError };

const RESERVED = new Set([
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "do",
  "done",
  "case",
  "esac",
  "while",
  "until",
  "for",
  "select",
  "in",
  "function",
  "{",
  "}",
  "!",
  "[[",
  "time",
  "coproc",
]);

interface ParsedLine {
  readonly script: Script;
  /** Tokens one space apart, quoting normalised, comments and heredoc bodies left out. */
  readonly normalized: string;
}

/** Parses a whole line; lenient mode closes what is left open and skips stray operators instead of failing. */
export function parseLine(src: string, lenient = false): ParsedLine {
  const c = new Cursor(src, lenient);
  const script = new Parser(c).script();
  return { script, normalized: joinTokens(c.tokens) };
}

export function parseScript(src: string, lenient = false): Script {
  return parseLine(src, lenient).script;
}

class Parser implements Grammar {
  readonly c: Cursor;

  constructor(c: Cursor) {
    this.c = c;
  }

  script(): Script {
    const out = this.list({});
    if (!this.c.eof) {
      if (!this.c.lenient) this.c.fail(`unexpected \`${this.c.at()}\``);
    }
    this.finishHeredocs();
    return out;
  }

  untilParen(): Script {
    this.c.enter();
    const body = this.list({ ops: [")"] });
    this.expectOp(")");
    this.c.leave();
    return body;
  }

  line(src: string): ParsedLine {
    const sub = new Cursor(src, this.c.lenient);
    sub.nesting = this.c.nesting + 1;
    if (sub.nesting > 200) this.c.fail("nesting is too deep to read safely");
    const script = new Parser(sub).script();
    return { script, normalized: joinTokens(sub.tokens) };
  }

  text(src: string): Script {
    const sub = new Cursor(src, this.c.lenient);
    sub.nesting = this.c.nesting + 1;
    if (sub.nesting > 200) this.c.fail("nesting is too deep to read safely");
    return new Parser(sub).script();
  }

  list(stop: Stop): AndOr[] {
    const out: AndOr[] = [];
    for (;;) {
      this.skipNewlines();
      if (this.c.eof) break;
      const op = this.c.peekOp();
      if (op !== undefined && stop.ops?.includes(op)) break;
      const rw = this.peekReserved();
      if (rw !== undefined && stop.words?.includes(rw)) break;
      if (op !== undefined && op !== "(" && !isRedirectOp(op)) {
        if (!this.c.lenient) this.c.fail(`unexpected \`${op.trim() || "newline"}\``);
        this.c.pos += op.length;
        continue;
      }
      const ao = this.andOr();
      const sep = this.c.peekOp();
      if (sep === ";" || sep === "&") {
        this.c.take(sep);
        out.push(sep === "&" ? { ...ao, background: true } : ao);
      } else {
        out.push(ao);
        if (sep === "\n" || this.c.eof) continue;
        if (sep !== undefined && stop.ops?.includes(sep)) break;
        if (!this.c.lenient) this.c.fail(`unexpected \`${sep ?? this.c.at()}\``);
        this.c.pos += sep?.length ?? 1;
      }
    }
    return out;
  }

  private andOr(): AndOr {
    const pipelines = [this.pipeline()];
    const ops: ("&&" | "||")[] = [];
    for (;;) {
      const op = this.c.peekOp();
      if (op !== "&&" && op !== "||") break;
      this.c.take(op);
      this.skipNewlines();
      ops.push(op);
      pipelines.push(this.pipeline());
    }
    return { pipelines, ops, background: false };
  }

  private pipeline(): Pipeline {
    let negated = false;
    for (;;) {
      const rw = this.peekReserved();
      if (rw === "!") {
        this.consumeWord();
        negated = !negated;
      } else if (rw === "time") {
        this.consumeWord();
        this.c.skipBlanks();
        if (this.c.startsWith("-p") && isWordEnd(this.c.at(2))) this.c.take("-p");
      } else break;
    }
    const commands = [this.command()];
    for (;;) {
      const op = this.c.peekOp();
      if (op !== "|" && op !== "|&") break;
      this.c.take(op);
      this.skipNewlines();
      commands.push(this.command());
    }
    return { negated, commands };
  }

  command(): Command {
    this.c.enter();
    try {
      const op = this.c.peekOp();
      if (op === "(") return this.c.at(1) === "(" ? (arithCommand(this) ?? subshell(this)) : subshell(this);
      switch (this.peekReserved()) {
        case "{":
          return group(this);
        case "if":
          return ifClause(this);
        case "while":
        case "until":
          return loop(this);
        case "for":
        case "select":
          return forClause(this);
        case "case":
          return caseClause(this);
        case "function":
          return functionKeyword(this);
        case "[[":
          return cond(this);
        case "coproc":
          this.consumeWord();
          return this.command();
        case "then":
        case "elif":
        case "else":
        case "fi":
        case "do":
        case "done":
        case "esac":
        case "in":
        case "}":
          if (!this.c.lenient) this.c.fail(`unexpected \`${this.peekReserved()}\``);
          this.consumeWord();
          return { type: "simple", assigns: [], words: [], redirects: [] };
        default:
          return this.simple();
      }
    } finally {
      this.c.leave();
    }
  }

  private simple(): Command {
    const assigns: Word[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (;;) {
      const op = this.c.peekOp();
      if (this.c.eof) break;
      if (op !== undefined) {
        if (isRedirectOp(op)) {
          redirects.push(this.redirect());
          continue;
        }
        break;
      }
      const assignment = words.length === 0 && this.atAssignment();
      const w = readWord(this.c, this);
      if (!w) break;
      this.c.record(renderWord(w));
      if (assignment) {
        assigns.push(w);
        continue;
      }
      words.push(w);
      if (words.length === 1 && assigns.length === 0 && redirects.length === 0 && this.atEmptyParens()) {
        return this.functionBody(literalText(w) ?? w.raw);
      }
    }
    if (assigns.length === 0 && words.length === 0 && redirects.length === 0) {
      if (!this.c.lenient) this.c.fail(this.c.eof ? "a command is missing" : `unexpected \`${this.c.at()}\``);
    }
    const cmd: SimpleCommand = { type: "simple", assigns, words, redirects };
    return cmd;
  }

  private redirect(): Redirect {
    const op = this.c.peekOp() ?? "";
    this.c.pos += op.length;
    const fdText = /^\d+/.exec(op)?.[0];
    const bare = op.slice(fdText?.length ?? 0) as RedirectOp;
    this.c.skipBlanks();
    const target = readWord(this.c, this);
    this.c.record(op + (target ? renderWord(target) : ""));
    if (!target) {
      if (!this.c.lenient) this.c.fail(`a \`${bare}\` redirection has no target`);
      return { op: bare, target: { parts: [], raw: "" } };
    }
    const fd = fdText === undefined ? {} : { fd: Number(fdText) };
    if (bare !== "<<" && bare !== "<<-") return { ...fd, op: bare, target };
    const quoted = target.parts.some((p) => p.kind === "lit" && p.quoted);
    const delimiter = target.parts.map((p) => (p.kind === "lit" ? p.text : p.raw)).join("");
    const heredoc: Heredoc = { delimiter, quoted, strip: bare === "<<-", body: "", inner: [] };
    this.c.pending.push(heredoc);
    return { ...fd, op: bare, target, heredoc };
  }

  functionBody(name: string): Command {
    this.skipNewlines();
    return { type: "function", name, body: this.command() };
  }

  compound(
    kind: CompoundCommand["kind"],
    bodies: readonly Script[],
    words: readonly Word[],
    variable?: string,
  ): CompoundCommand {
    const redirects: Redirect[] = [];
    for (;;) {
      const op = this.c.peekOp();
      if (op === undefined || !isRedirectOp(op)) break;
      redirects.push(this.redirect());
    }
    return { type: "compound", kind, bodies, words, redirects, ...(variable !== undefined ? { variable } : {}) };
  }

  private atAssignment(): boolean {
    const src = this.c.src;
    let i = this.c.pos;
    if (!isNameStart(src[i] ?? "")) return false;
    while (isNameChar(src[i] ?? "")) i++;
    if (src[i] === "[") {
      const close = src.indexOf("]", i);
      if (close < 0) return false;
      i = close + 1;
    }
    if (src[i] === "+") i++;
    return src[i] === "=";
  }

  atEmptyParens(): boolean {
    this.c.skipBlanks();
    if (this.c.at() !== "(") return false;
    let i = this.c.pos + 1;
    while (this.c.src[i] === " " || this.c.src[i] === "\t") i++;
    if (this.c.src[i] !== ")") return false;
    this.c.pos = i + 1;
    this.c.record("()");
    return true;
  }

  peekReserved(): string | undefined {
    this.c.skipBlanks();
    const src = this.c.src;
    let i = this.c.pos;
    while (i < src.length && !isWordEnd(src[i] ?? "") && src[i] !== "'" && src[i] !== '"' && src[i] !== "\\") i++;
    const word = src.slice(this.c.pos, i);
    return RESERVED.has(word) && isWordEnd(src[i] ?? "") ? word : undefined;
  }

  consumeWord(): void {
    this.c.skipBlanks();
    const start = this.c.pos;
    while (!this.c.eof && !isWordEnd(this.c.at())) this.c.pos++;
    this.c.record(this.c.src.slice(start, this.c.pos));
  }

  expectWord(word: string): void {
    this.skipNewlines();
    if (this.peekReserved() === word) {
      this.consumeWord();
      return;
    }
    if (!this.c.lenient) this.c.fail(`expected \`${word}\``);
  }

  expectOp(op: string): void {
    if (this.c.peekOp() === op) {
      this.c.take(op);
      return;
    }
    if (!this.c.lenient) this.c.fail(`expected \`${op}\``);
  }

  skipNewlines(): void {
    for (;;) {
      this.c.skipBlanks();
      if (this.c.at() !== "\n") return;
      this.newline();
    }
  }

  newline(): void {
    this.c.take("\n");
    readHeredocs(this.c, this);
  }

  /** Heredocs opened on the last line with no newline after it: bash reads them as empty. */
  private finishHeredocs(): void {
    this.c.pending = [];
  }
}

export function describeSyntaxError(e: unknown, src: string): string | undefined {
  if (!(e instanceof ShellSyntaxError)) return undefined;
  const near = src.slice(Math.max(0, e.pos - 12), e.pos + 12).replace(/\s+/g, " ");
  return `${e.message} near \`${near}\``;
}

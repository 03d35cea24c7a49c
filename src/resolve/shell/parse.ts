// The grammar: lists, and-or chains, pipelines, simple and compound commands, redirections and heredocs.
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
import { Cursor, isNameChar, isNameStart, isRedirectOp, isWordEnd, ShellSyntaxError } from "./cursor.ts";
import { joinTokens, renderWord } from "./render.ts";
import { innerScripts, literalText, type Nested, readWord } from "./words.ts";

export { ShellSyntaxError };

interface Stop {
  readonly words?: readonly string[];
  readonly ops?: readonly string[];
}

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

export interface ParsedLine {
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

class Parser implements Nested {
  private readonly c: Cursor;

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

  text(src: string): Script {
    const sub = new Cursor(src, this.c.lenient);
    sub.nesting = this.c.nesting + 1;
    if (sub.nesting > 200) this.c.fail("nesting is too deep to read safely");
    return new Parser(sub).script();
  }

  private list(stop: Stop): AndOr[] {
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

  private command(): Command {
    this.c.enter();
    try {
      const op = this.c.peekOp();
      if (op === "(") return this.c.at(1) === "(" ? (this.arithCommand() ?? this.subshell()) : this.subshell();
      switch (this.peekReserved()) {
        case "{":
          return this.group();
        case "if":
          return this.ifClause();
        case "while":
        case "until":
          return this.loop();
        case "for":
        case "select":
          return this.forClause();
        case "case":
          return this.caseClause();
        case "function":
          return this.functionKeyword();
        case "[[":
          return this.cond();
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

  private subshell(): CompoundCommand {
    this.c.take("(");
    const body = this.list({ ops: [")"] });
    this.expectOp(")");
    return this.compound("subshell", [body], []);
  }

  /** `(( … ))`; when it does not close as arithmetic it is two nested subshells. */
  private arithCommand(): CompoundCommand | undefined {
    const src = this.c.src;
    let depth = 0;
    let i = this.c.pos + 2;
    for (; i < src.length; i++) {
      if (src[i] === "(") depth++;
      else if (src[i] === ")") {
        if (depth === 0) break;
        depth--;
      }
    }
    if (src[i] !== ")" || src[i + 1] !== ")") return undefined;
    const inner = innerScripts(src.slice(this.c.pos + 2, i), this);
    this.c.record(src.slice(this.c.pos, i + 2).replace(/\s+/g, " "));
    this.c.pos = i + 2;
    return this.compound("arith", inner, []);
  }

  private group(): CompoundCommand {
    this.consumeWord();
    const body = this.list({ words: ["}"] });
    this.expectWord("}");
    return this.compound("group", [body], []);
  }

  private ifClause(): CompoundCommand {
    this.consumeWord();
    const bodies: Script[] = [];
    for (;;) {
      bodies.push(this.list({ words: ["then"] }));
      this.expectWord("then");
      bodies.push(this.list({ words: ["elif", "else", "fi"] }));
      const rw = this.peekReserved();
      this.consumeWord();
      if (rw === "elif") continue;
      if (rw === "else") {
        bodies.push(this.list({ words: ["fi"] }));
        this.expectWord("fi");
      } else if (rw !== "fi" && !this.c.lenient) this.c.fail("an `if` is never closed with `fi`");
      return this.compound("if", bodies, []);
    }
  }

  private loop(): CompoundCommand {
    const kind = this.peekReserved() === "until" ? "until" : "while";
    this.consumeWord();
    const cond = this.list({ words: ["do"] });
    this.expectWord("do");
    const body = this.list({ words: ["done"] });
    this.expectWord("done");
    return this.compound(kind, [cond, body], []);
  }

  private forClause(): CompoundCommand {
    const kind = this.peekReserved() === "select" ? "select" : "for";
    this.consumeWord();
    this.c.skipBlanks();
    const words: Word[] = [];
    const bodies: Script[] = [];
    if (this.c.startsWith("((")) {
      const arith = this.arithCommand();
      if (arith) bodies.push(...arith.bodies);
    } else {
      const name = readWord(this.c, this);
      if (name) this.c.record(renderWord(name));
      this.skipNewlines();
      if (this.peekReserved() === "in") {
        this.consumeWord();
        for (;;) {
          this.c.skipBlanks();
          const w = this.c.peekOp() === undefined ? readWord(this.c, this) : undefined;
          if (!w) break;
          this.c.record(renderWord(w));
          words.push(w);
        }
      }
    }
    const op = this.c.peekOp();
    if (op === ";") this.c.take(";");
    this.skipNewlines();
    if (this.peekReserved() === "{") {
      bodies.push(...this.group().bodies);
      return this.compound(kind, bodies, words);
    }
    this.expectWord("do");
    bodies.push(this.list({ words: ["done"] }));
    this.expectWord("done");
    return this.compound(kind, bodies, words);
  }

  private caseClause(): CompoundCommand {
    this.consumeWord();
    this.c.skipBlanks();
    const subject = readWord(this.c, this);
    if (subject) this.c.record(renderWord(subject));
    const words: Word[] = subject ? [subject] : [];
    this.skipNewlines();
    this.expectWord("in");
    const bodies: Script[] = [];
    for (;;) {
      this.skipNewlines();
      if (this.c.eof || this.peekReserved() === "esac") break;
      if (this.c.peekOp() === "(") this.c.take("(");
      for (;;) {
        this.c.skipBlanks();
        const w = readWord(this.c, this);
        if (w) {
          this.c.record(renderWord(w));
          words.push(w);
        }
        const op = this.c.peekOp();
        if (op === "|") this.c.take("|");
        else if (op === ")") {
          this.c.take(")");
          break;
        } else if (!w) {
          if (!this.c.lenient) this.c.fail("a `case` pattern is never closed with `)`");
          this.c.pos = Math.min(this.c.pos + 1, this.c.src.length);
          if (this.c.eof) break;
        }
      }
      bodies.push(this.list({ words: ["esac"], ops: [";;", ";&", ";;&"] }));
      const end = this.c.peekOp();
      if (end === ";;" || end === ";&" || end === ";;&") this.c.take(end);
    }
    this.expectWord("esac");
    return this.compound("case", bodies, words);
  }

  private functionKeyword(): Command {
    this.consumeWord();
    this.c.skipBlanks();
    const name = readWord(this.c, this);
    if (name) this.c.record(renderWord(name));
    this.atEmptyParens();
    return this.functionBody(name ? (literalText(name) ?? name.raw) : "");
  }

  private functionBody(name: string): Command {
    this.skipNewlines();
    return { type: "function", name, body: this.command() };
  }

  /** `[[ … ]]`: operators inside are operands of the test, not of the shell. */
  private cond(): CompoundCommand {
    this.consumeWord();
    const words: Word[] = [];
    for (;;) {
      this.c.skipBlanks();
      while (this.c.at() === "\n") this.newline();
      this.c.skipBlanks();
      if (this.c.eof) {
        if (!this.c.lenient) this.c.fail("a `[[` is never closed with `]]`");
        break;
      }
      if (this.c.startsWith("]]") && isWordEnd(this.c.at(2))) {
        this.c.take("]]");
        break;
      }
      const w = readWord(this.c, this);
      if (w) {
        this.c.record(renderWord(w));
        words.push(w);
      } else {
        const run = /^[&|<>()!=]+/.exec(this.c.src.slice(this.c.pos))?.[0] ?? this.c.at();
        this.c.take(run);
      }
    }
    return this.compound("cond", [], words);
  }

  private compound(kind: CompoundCommand["kind"], bodies: readonly Script[], words: readonly Word[]): CompoundCommand {
    const redirects: Redirect[] = [];
    for (;;) {
      const op = this.c.peekOp();
      if (op === undefined || !isRedirectOp(op)) break;
      redirects.push(this.redirect());
    }
    return { type: "compound", kind, bodies, words, redirects };
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

  private atEmptyParens(): boolean {
    this.c.skipBlanks();
    if (this.c.at() !== "(") return false;
    let i = this.c.pos + 1;
    while (this.c.src[i] === " " || this.c.src[i] === "\t") i++;
    if (this.c.src[i] !== ")") return false;
    this.c.pos = i + 1;
    this.c.record("()");
    return true;
  }

  private peekReserved(): string | undefined {
    this.c.skipBlanks();
    const src = this.c.src;
    let i = this.c.pos;
    while (i < src.length && !isWordEnd(src[i] ?? "") && src[i] !== "'" && src[i] !== '"' && src[i] !== "\\") i++;
    const word = src.slice(this.c.pos, i);
    return RESERVED.has(word) && isWordEnd(src[i] ?? "") ? word : undefined;
  }

  private consumeWord(): void {
    this.c.skipBlanks();
    const start = this.c.pos;
    while (!this.c.eof && !isWordEnd(this.c.at())) this.c.pos++;
    this.c.record(this.c.src.slice(start, this.c.pos));
  }

  private expectWord(word: string): void {
    this.skipNewlines();
    if (this.peekReserved() === word) {
      this.consumeWord();
      return;
    }
    if (!this.c.lenient) this.c.fail(`expected \`${word}\``);
  }

  private expectOp(op: string): void {
    if (this.c.peekOp() === op) {
      this.c.take(op);
      return;
    }
    if (!this.c.lenient) this.c.fail(`expected \`${op}\``);
  }

  private skipNewlines(): void {
    for (;;) {
      this.c.skipBlanks();
      if (this.c.at() !== "\n") return;
      this.newline();
    }
  }

  private newline(): void {
    this.c.take("\n");
    this.readHeredocs();
  }

  /** After a newline, the bodies of the heredocs opened on the line before, in order. */
  private readHeredocs(): void {
    const pending = this.c.pending;
    this.c.pending = [];
    for (const h of pending) this.readBody(h);
  }

  private readBody(h: Heredoc): void {
    const c = this.c;
    const lines: string[] = [];
    while (!c.eof) {
      const nl = c.src.indexOf("\n", c.pos);
      const end = nl < 0 ? c.src.length : nl;
      const raw = c.src.slice(c.pos, end).replace(/\r$/, "");
      const line = h.strip ? raw.replace(/^\t+/, "") : raw;
      if (line === h.delimiter) {
        c.pos = nl < 0 ? end : end + 1;
        this.setBody(h, lines);
        return;
      }
      if (c.cmdsubDepth > 0 && h.delimiter !== "" && line.startsWith(`${h.delimiter})`)) {
        c.pos += raw.indexOf(`${h.delimiter})`) + h.delimiter.length;
        this.setBody(h, lines);
        return;
      }
      lines.push(line);
      c.pos = nl < 0 ? end : end + 1;
    }
    this.setBody(h, lines);
  }

  private setBody(h: Heredoc, lines: readonly string[]): void {
    h.body = lines.join("\n");
    if (!h.quoted) h.inner = innerScripts(h.body, this);
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

// Compound commands: subshells, groups, if/while/until/for/select/case, `[[ … ]]`, `(( … ))` and functions.
import type { Command, CompoundCommand, Script, Word } from "./ast.ts";
import { isWordEnd } from "./cursor.ts";
import type { Grammar } from "./grammar.ts";
import { innerScripts } from "./inner.ts";
import { renderWord } from "./render.ts";
import { literalText, readWord } from "./words.ts";

export function subshell(g: Grammar): CompoundCommand {
  g.c.take("(");
  const body = g.list({ ops: [")"] });
  g.expectOp(")");
  return g.compound("subshell", [body], []);
}

/** `(( … ))`; when it does not close as arithmetic it is two nested subshells. */
export function arithCommand(g: Grammar): CompoundCommand | undefined {
  const src = g.c.src;
  let depth = 0;
  let i = g.c.pos + 2;
  for (; i < src.length; i++) {
    if (src[i] === "(") depth++;
    else if (src[i] === ")") {
      if (depth === 0) break;
      depth--;
    }
  }
  if (src[i] !== ")" || src[i + 1] !== ")") return undefined;
  const arithmetic = src.slice(g.c.pos + 2, i);
  const inner = innerScripts(arithmetic, g);
  g.c.record(src.slice(g.c.pos, i + 2).replace(/\s+/g, " "));
  g.c.pos = i + 2;
  return { ...g.compound("arith", inner, []), arithmetic };
}

export function group(g: Grammar): CompoundCommand {
  g.consumeWord();
  const body = g.list({ words: ["}"] });
  g.expectWord("}");
  return g.compound("group", [body], []);
}

export function ifClause(g: Grammar): CompoundCommand {
  g.consumeWord();
  const bodies: Script[] = [];
  for (;;) {
    bodies.push(g.list({ words: ["then"] }));
    g.expectWord("then");
    bodies.push(g.list({ words: ["elif", "else", "fi"] }));
    const rw = g.peekReserved();
    g.consumeWord();
    if (rw === "elif") continue;
    if (rw === "else") {
      bodies.push(g.list({ words: ["fi"] }));
      g.expectWord("fi");
    } else if (rw !== "fi" && !g.c.lenient) g.c.fail("an `if` is never closed with `fi`");
    return g.compound("if", bodies, []);
  }
}

export function loop(g: Grammar): CompoundCommand {
  const kind = g.peekReserved() === "until" ? "until" : "while";
  g.consumeWord();
  const cond = g.list({ words: ["do"] });
  g.expectWord("do");
  const body = g.list({ words: ["done"] });
  g.expectWord("done");
  return g.compound(kind, [cond, body], []);
}

export function forClause(g: Grammar): CompoundCommand {
  const kind = g.peekReserved() === "select" ? "select" : "for";
  g.consumeWord();
  g.c.skipBlanks();
  const words: Word[] = [];
  const bodies: Script[] = [];
  let variable: string | undefined;
  let arithmetic: string | undefined;
  if (g.c.startsWith("((")) {
    const arith = arithCommand(g);
    if (arith) bodies.push(...arith.bodies);
    arithmetic = arith?.arithmetic;
  } else {
    const name = readWord(g.c, g);
    if (name) g.c.record(renderWord(name));
    const named = name ? literalText(name) : undefined;
    // Without `in`, the loop runs over the positional parameters: unknown, so no variable is bound.
    g.skipNewlines();
    if (g.peekReserved() === "in") {
      if (named && /^[A-Za-z_][A-Za-z0-9_]*$/.test(named)) variable = named;
      g.consumeWord();
      for (;;) {
        g.c.skipBlanks();
        const w = g.c.peekOp() === undefined ? readWord(g.c, g) : undefined;
        if (!w) break;
        g.c.record(renderWord(w));
        words.push(w);
      }
    }
  }
  const op = g.c.peekOp();
  if (op === ";") g.c.take(";");
  g.skipNewlines();
  const withArithmetic = (c: CompoundCommand) => (arithmetic === undefined ? c : { ...c, arithmetic });
  if (g.peekReserved() === "{") {
    bodies.push(...group(g).bodies);
    return withArithmetic(g.compound(kind, bodies, words, variable));
  }
  g.expectWord("do");
  bodies.push(g.list({ words: ["done"] }));
  g.expectWord("done");
  return withArithmetic(g.compound(kind, bodies, words, variable));
}

export function caseClause(g: Grammar): CompoundCommand {
  g.consumeWord();
  g.c.skipBlanks();
  const subject = readWord(g.c, g);
  if (subject) g.c.record(renderWord(subject));
  const words: Word[] = subject ? [subject] : [];
  g.skipNewlines();
  g.expectWord("in");
  const bodies: Script[] = [];
  for (;;) {
    g.skipNewlines();
    if (g.c.eof || g.peekReserved() === "esac") break;
    if (g.c.peekOp() === "(") g.c.take("(");
    for (;;) {
      g.c.skipBlanks();
      const w = readWord(g.c, g);
      if (w) {
        g.c.record(renderWord(w));
        words.push(w);
      }
      const op = g.c.peekOp();
      if (op === "|") g.c.take("|");
      else if (op === ")") {
        g.c.take(")");
        break;
      } else if (!w) {
        if (!g.c.lenient) g.c.fail("a `case` pattern is never closed with `)`");
        g.c.pos = Math.min(g.c.pos + 1, g.c.src.length);
        if (g.c.eof) break;
      }
    }
    bodies.push(g.list({ words: ["esac"], ops: [";;", ";&", ";;&"] }));
    const end = g.c.peekOp();
    if (end === ";;" || end === ";&" || end === ";;&") g.c.take(end);
  }
  g.expectWord("esac");
  return g.compound("case", bodies, words);
}

export function functionKeyword(g: Grammar): Command {
  g.consumeWord();
  g.c.skipBlanks();
  const name = readWord(g.c, g);
  if (name) g.c.record(renderWord(name));
  g.atEmptyParens();
  return g.functionBody(name ? (literalText(name) ?? name.raw) : "");
}

/** `[[ … ]]`: operators inside are operands of the test, not of the shell. */
export function cond(g: Grammar): CompoundCommand {
  g.consumeWord();
  const words: Word[] = [];
  for (;;) {
    g.c.skipBlanks();
    while (g.c.at() === "\n") g.newline();
    g.c.skipBlanks();
    if (g.c.eof) {
      if (!g.c.lenient) g.c.fail("a `[[` is never closed with `]]`");
      break;
    }
    if (g.c.startsWith("]]") && isWordEnd(g.c.at(2))) {
      g.c.take("]]");
      break;
    }
    const w = readWord(g.c, g);
    if (w) {
      g.c.record(renderWord(w));
      words.push(w);
    } else {
      const run = /^[&|<>()!=]+/.exec(g.c.src.slice(g.c.pos))?.[0] ?? g.c.at();
      g.c.take(run);
    }
  }
  return g.compound("cond", [], words);
}

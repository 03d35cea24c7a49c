// The normalised line: every token the parser consumed, words re-quoted minimally, one space apart.

import { shellQuote } from "../../core/shell-quote.ts";
import type { Word } from "./ast.ts";

const NEEDS_QUOTES = /[\s;&|<>()$`"'\\*?[\]#~{}!]/;

/** A word with quoting normalised: quoted text that needs it is single-quoted, the rest is bare. */
export function renderWord(w: Word): string {
  let out = "";
  for (const p of w.parts) {
    if (p.kind === "cmdsub" || p.kind === "procsub") out += p.normalized;
    else if (p.kind !== "lit") out += p.raw;
    else if (!p.quoted) out += p.text;
    else if (p.text === "" && w.parts.length === 1) out += "''";
    else out += NEEDS_QUOTES.test(p.text) ? shellQuote(p.text) : p.text;
  }
  return out;
}

/** An argv word for display, quoted only when the shell would need it. */
export function renderArg(text: string): string {
  if (text === "") return "''";
  return NEEDS_QUOTES.test(text) ? shellQuote(text) : text;
}

/** Tokens after which a newline needs no `;` to keep its meaning. */
const OPENERS = new Set([
  "\n",
  ";",
  "&",
  "&&",
  "||",
  "|",
  "|&",
  "(",
  "{",
  "then",
  "do",
  "else",
  "in",
  ";;",
  ";&",
  ";;&",
]);

/** Tokens written flush against the one before (`a; b`, `f()`). */
const ATTACHED = new Set([";", ";;", ";&", ";;&", "()"]);

export function joinTokens(tokens: readonly string[]): string {
  const out: string[] = [];
  for (const t of tokens) {
    if (t !== "\n") {
      out.push(t);
      continue;
    }
    const prev = out[out.length - 1];
    if (prev !== undefined && !OPENERS.has(prev)) out.push(";");
  }
  while (out.length > 0 && out[out.length - 1] === ";") out.pop();
  let line = "";
  for (const t of out) line += line === "" || ATTACHED.has(t) ? t : ` ${t}`;
  return line;
}

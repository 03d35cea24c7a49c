// The normalised line: every token the parser consumed, words re-quoted minimally, one space apart.
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
    else out += NEEDS_QUOTES.test(p.text) ? quote(p.text) : p.text;
  }
  return out;
}

/** An argv word for display, quoted only when the shell would need it. */
export function renderArg(text: string): string {
  if (text === "") return "''";
  return NEEDS_QUOTES.test(text) ? quote(text) : text;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
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

const REDACTIONS: readonly [RegExp, string][] = [
  [/(:\/\/[^/\s:@'"]+:)[^@\s/'"]+@/g, "$1***@"],
  [
    /((?:authorization|proxy-authorization|x-api-key|api-key|private-token|x-auth-token|cookie):\s*(?:bearer\s+|basic\s+|token\s+)?)[^\s'"]+/gi,
    "$1***",
  ],
  [/((?:^|\s)(?:-u|--user)\s+'?[^\s:'"]+:)[^\s'"]+/g, "$1***"],
  [
    /(\b[A-Za-z_]*(?:pass|passwd|password|token|secret|api_?key|access_?key|private_?key|credentials?)[A-Za-z0-9_]*=)[^\s'"]+/gi,
    "$1***",
  ],
  [/(--(?:password|passwd|token|api-key|apikey|secret|auth|access-token|auth-token|otp)[= ]'?)[^\s'"]+/gi, "$1***"],
  [/(\bmysql(?:dump|admin)?\b[^|;&]*?\s-p)[^\s'"]+/g, "$1***"],
  [/(\b(?:login|sshpass)\b[^|;&]*?\s-p\s*'?)[^\s'"]+/g, "$1***"],
  [/\b(AKIA|ASIA)[0-9A-Z]{16}\b/g, "$1***"],
  [
    /\b(ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abprs]-|sk-(?:proj-|live_|test_)?|rk_live_|npm_)[A-Za-z0-9_-]{8,}/g,
    "$1***",
  ],
];

/** Credential-shaped values masked, so the line can be a recorded target without carrying a secret. */
export function redact(line: string): string {
  let out = line;
  for (const [re, to] of REDACTIONS) out = out.replace(re, to);
  return out;
}

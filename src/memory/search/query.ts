// Untrusted query text becomes safe alphanumeric tokens; nothing else ever reaches the FTS5 parser.
const MAX_QUERY_BYTES = 1024;
const MAX_QUERY_TOKENS = 64;

const TOKEN = /[a-z0-9]+/g;

/** memex's recall stop words: dropped unless nothing else is left. */
const STOP_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "did",
  "do",
  "does",
  "from",
  "how",
  "in",
  "is",
  "of",
  "the",
  "to",
  "we",
  "what",
  "why",
]);

/** A prompt is prose, not a search: these words say nothing about which decision applies. */
const PROMPT_STOP_WORDS: ReadonlySet<string> = new Set([
  ...STOP_WORDS,
  ..."about after all also and any are as at be been but by can could for get go had has have he her here i if into it its just let lets like make me more my need no not now on or our out over please run s see she should so some sure t than that them then there these they this those up us use via want was were when where which while who will with would yes you your".split(
    " ",
  ),
]);

const SCAFFOLDING: ReadonlyArray<readonly string[]> = [
  ["instead", "of"],
  ["how", "many"],
  ["switch", "from"],
];

export class QueryError extends Error {
  override readonly name = "QueryError";
}

export function rawTokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** Recall's reduction: bounded, scaffolding and stop words dropped, stable de-duplication. */
export function queryTokens(query: string): string[] {
  if (new TextEncoder().encode(query).length > MAX_QUERY_BYTES)
    throw new QueryError(`query exceeds ${MAX_QUERY_BYTES} UTF-8 bytes`);
  const raw = rawTokens(query);
  if (raw.length === 0) throw new QueryError("query contains no searchable terms");
  if (raw.length > MAX_QUERY_TOKENS)
    throw new QueryError(`query contains too many searchable terms (maximum ${MAX_QUERY_TOKENS})`);
  const kept = dedupe(dropScaffolding(raw).filter((t) => !STOP_WORDS.has(t)));
  return kept.length > 0 ? kept : dedupe(raw);
}

/** A prompt's reduction for reminders: never throws, drops prose words, keeps at most 64 terms. */
export function promptTokens(prompt: string): string[] {
  const raw = rawTokens(prompt.slice(0, 8192));
  return dedupe(dropScaffolding(raw).filter((t) => !PROMPT_STOP_WORDS.has(t) && t.length > 1)).slice(
    0,
    MAX_QUERY_TOKENS,
  );
}

function dedupe(tokens: readonly string[]): string[] {
  return [...new Set(tokens)];
}

function dropScaffolding(tokens: readonly string[]): string[] {
  const rejected = new Set<number>();
  for (const phrase of SCAFFOLDING) {
    for (let i = 0; i + phrase.length <= tokens.length; i++) {
      if (phrase.every((w, j) => tokens[i + j] === w)) for (let j = 0; j < phrase.length; j++) rejected.add(i + j);
    }
  }
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens[i] === "how" && tokens[i + 1] === "does") {
      const handle = tokens.indexOf("handle", i + 2);
      if (handle !== -1) for (const j of [i, i + 1, handle]) rejected.add(j);
    }
    if (tokens[i] === "why" && tokens[i + 1] === "is") {
      const showing = tokens.indexOf("showing", i + 2);
      if (showing !== -1) rejected.add(showing);
    }
  }
  return tokens.filter((_, i) => !rejected.has(i));
}

/** Tokens joined for FTS5: each is `[a-z0-9]+`, so quoting is only belt and braces. */
export function matchExpression(tokens: readonly string[], op: "AND" | "OR"): string {
  return tokens.map((t) => `"${t}"`).join(` ${op} `);
}

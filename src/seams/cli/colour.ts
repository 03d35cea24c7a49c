// Colour for a person's terminal: verdicts and severities by what they mean, so a DENY never reads like an ALLOW.
// Applied to the human output on its way out (never to JSON, never where NO_COLOR is set or stdout is not a
// terminal), by the words the readers already print: the upper-case verdicts and severities, and the lower-case
// verdict of a row in a column (followed by two spaces), so prose that says "deny" is left alone.

const RESET = "\x1b[0m";
const STYLE: Readonly<Record<string, string>> = {
  deny: "\x1b[1;31m",
  blocked: "\x1b[1;31m",
  ask: "\x1b[1;33m",
  allow: "\x1b[32m",
  critical: "\x1b[1;31m",
  high: "\x1b[31m",
  medium: "\x1b[33m",
  low: "\x1b[2m",
};

const UPPER = /\b(DENY|ASK|ALLOW|CRITICAL|HIGH|MEDIUM|LOW)\b/g;
const COLUMN = /(^|\s)(deny|ask|allow|blocked)(?= {2,})/g;

function painted(word: string): string {
  const style = STYLE[word.toLowerCase()];
  return style ? `${style}${word}${RESET}` : word;
}

export function colourise(text: string): string {
  return text
    .split("\n")
    .map((line) =>
      line.replace(UPPER, (w) => painted(w)).replace(COLUMN, (_, lead: string, w: string) => `${lead}${painted(w)}`),
    )
    .join("\n");
}

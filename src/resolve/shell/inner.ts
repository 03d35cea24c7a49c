// Substitutions inside text that is not a word (heredoc bodies, arithmetic): found and parsed, as bash would run them.
import type { Nested, Script } from "./ast.ts";

/** The substitutions a piece of text runs when expanded as in double quotes (heredoc bodies, arithmetic). */
export function innerScripts(text: string, nested: Nested): Script[] {
  const out: Script[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") i++;
    else if (ch === "`") {
      const end = text.indexOf("`", i + 1);
      const body = text.slice(i + 1, end < 0 ? text.length : end);
      out.push(nested.text(body));
      i = end < 0 ? text.length : end;
    } else if (ch === "$" && text[i + 1] === "(") {
      const end = matchingParen(text, i + 1);
      const body = text.slice(i + 2, end);
      if (!body.startsWith("(")) out.push(nested.text(body));
      else out.push(...innerScripts(body, nested));
      i = end;
    }
  }
  return out;
}

function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") i++;
    else if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end >= 0) i = end;
    } else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
  }
  return text.length;
}

// Heredoc bodies: read after the newline that ends the line which opened them, in the order they were opened.
import type { Heredoc, Nested } from "./ast.ts";
import type { Cursor } from "./cursor.ts";
import { innerScripts } from "./inner.ts";

/** After a newline, the bodies of the heredocs opened on the line before, in order. */
export function readHeredocs(c: Cursor, nested: Nested): void {
  const pending = c.pending;
  c.pending = [];
  for (const h of pending) readBody(c, nested, h);
}

/** Lines up to the delimiter (tabs stripped for `<<-`); inside `$( )` a line `EOF)` also ends it, as bash allows. */
function readBody(c: Cursor, nested: Nested, h: Heredoc): void {
  const lines: string[] = [];
  while (!c.eof) {
    const nl = c.src.indexOf("\n", c.pos);
    const end = nl < 0 ? c.src.length : nl;
    const raw = c.src.slice(c.pos, end).replace(/\r$/, "");
    const line = h.strip ? raw.replace(/^\t+/, "") : raw;
    if (line === h.delimiter) {
      c.pos = nl < 0 ? end : end + 1;
      break;
    }
    if (c.cmdsubDepth > 0 && h.delimiter !== "" && line.startsWith(`${h.delimiter})`)) {
      c.pos += raw.indexOf(`${h.delimiter})`) + h.delimiter.length;
      break;
    }
    lines.push(line);
    c.pos = nl < 0 ? end : end + 1;
  }
  setBody(nested, h, lines);
}

/** An unquoted body still runs its substitutions, so they are parsed. */
function setBody(nested: Nested, h: Heredoc, lines: readonly string[]): void {
  h.body = lines.join("\n");
  if (!h.quoted) h.inner = innerScripts(h.body, nested);
}

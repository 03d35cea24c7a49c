// Human output wrapped at the terminal's width, at spaces only: a word is never cut at the edge. A continuation
// line starts under the value of a `key   value` row, else under the line's own indent.

import { withoutEscapes } from "../../core/plain.ts";

function visible(s: string): number {
  return withoutEscapes(s).length;
}

/** Where a wrapped line continues: the value column of a row laid out in columns, else the line's own indent. */
function hangAt(line: string, width: number): number {
  const plain = withoutEscapes(line);
  const indent = plain.length - plain.trimStart().length;
  const column = /^\s*\S.*?\S? {2,}(?=\S)/.exec(plain);
  if (column && column[0].length <= width / 2) return column[0].length;
  return indent;
}

/** One line cut at spaces into pieces no wider than `width` (a single longer word stays whole). */
function wrapLine(line: string, width: number): string[] {
  if (visible(line) <= width) return [line];
  const hang = " ".repeat(hangAt(line, width));
  const out: string[] = [];
  const lead = /^\s*/.exec(line)?.[0] ?? "";
  const words = line.slice(lead.length).split(/ (?=\S)/);
  let current = lead;
  let empty = true;
  for (const w of words) {
    const candidate = empty ? current + w : `${current} ${w}`;
    if (!empty && visible(candidate) > width) {
      out.push(current.trimEnd());
      current = hang + w.trimStart();
    } else current = candidate;
    empty = false;
  }
  out.push(current);
  return out;
}

/** Every line of `text` wrapped at `width`; a width too small to be a terminal's leaves the text as it is. */
export function wrapText(text: string, width: number | undefined): string {
  if (!width || width < 20) return text;
  return text
    .split("\n")
    .flatMap((l) => wrapLine(l, width))
    .join("\n");
}

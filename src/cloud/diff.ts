// A line diff of two texts, as a reviewer reads one: unchanged lines around each change for context, removed lines
// with `-`, added with `+`. Longest common subsequence by dynamic programming: rule sets are small, and a text beyond
// the bound is said to be too long to diff rather than diffed slowly.

interface DiffLine {
  readonly op: " " | "-" | "+";
  readonly text: string;
}

/** The most lines either side that are diffed, and the most the changed middles may multiply to. */
const DIFF_MAX_LINES = 20_000;
const DIFF_MAX_CELLS = 4_000_000;

/** Every line of `before` and `after`, each kept, removed or added, in order; undefined when either is too long. */
export function lineDiff(before: string, after: string): DiffLine[] | undefined {
  const a = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const b = after === "" ? [] : after.replace(/\n$/, "").split("\n");
  if (a.length > DIFF_MAX_LINES || b.length > DIFF_MAX_LINES) return undefined;
  // Common lines at both ends cost nothing to match: only the middle is compared.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  if ((x.length + 1) * (y.length + 1) > DIFF_MAX_CELLS) return undefined;
  const w = y.length + 1;
  const lcs = new Uint32Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      lcs[i * w + j] =
        x[i] === y[j]
          ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ op: " ", text }));
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      out.push({ op: " ", text: x[i] ?? "" });
      i++;
      j++;
    } else if ((lcs[(i + 1) * w + j] ?? 0) >= (lcs[i * w + j + 1] ?? 0)) out.push({ op: "-", text: x[i++] ?? "" });
    else out.push({ op: "+", text: y[j++] ?? "" });
  }
  while (i < x.length) out.push({ op: "-", text: x[i++] ?? "" });
  while (j < y.length) out.push({ op: "+", text: y[j++] ?? "" });
  for (const text of a.slice(a.length - tail)) out.push({ op: " ", text });
  return out;
}

/** The diff as unified-diff text: each change with `context` unchanged lines around it, `@@` between the hunks. */
export function unified(lines: readonly DiffLine[], context = 3): string {
  const keep = new Set<number>();
  lines.forEach((l, i) => {
    if (l.op === " ") return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep.add(k);
  });
  const out: string[] = [];
  let last = -2;
  for (const i of [...keep].sort((p, q) => p - q)) {
    if (i !== last + 1) out.push("@@");
    const l = lines[i];
    if (l) out.push(`${l.op}${l.text}`);
    last = i;
  }
  return out.join("\n");
}

// Line diffs for "no unchanged line differs": which lines of `before` went away and which lines of `after` are new.

export interface LineDiff {
  readonly removed: readonly string[];
  readonly added: readonly string[];
}

/** A longest-common-subsequence diff over lines (test files are small). */
export function lineDiff(before: string, after: string): LineDiff {
  const a = before.split("\n");
  const b = after.split("\n");
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lcs[i] as number[];
    const below = lcs[i + 1] as number[];
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
    }
  }
  const removed: string[] = [];
  const added: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else if ((lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0)) removed.push(a[i++] as string);
    else added.push(b[j++] as string);
  }
  while (i < a.length) removed.push(a[i++] as string);
  while (j < b.length) added.push(b[j++] as string);
  return { removed, added };
}

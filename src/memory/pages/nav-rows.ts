// One type directory's index.md as rows on disk: the search reads only the lines it lands on, and a change rewrites
// from its row on. Nothing reads or scans the whole file, which at 33k rows was most of a write's time.
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";

const NL = 0x0a;
const ROW = Buffer.from("- [");
const LINK = /(?<!\\)\]\(([a-z0-9][a-z0-9-]*)\.md\)/;
const NONE = Buffer.alloc(0);

/** An open index: its rows start at byte `base` and run `length` bytes, each ending in a newline. */
interface Rows {
  readonly fd: number;
  readonly base: number;
  readonly length: number;
}

/** What a splice did; `render` when the file is not the generator's shape and a full render must replace it. */
export type Spliced = "written" | "unchanged" | "render";

function readAt(fd: number, position: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, out, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return out.subarray(0, got);
}

function writeAt(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

/** The line holding byte `pos` of the rows (its end is its newline) and its slug, "" when it is not a row. */
function rowAt(r: Rows, pos: number): { start: number; end: number; slug: string } {
  for (let span = 1024; ; span *= 4) {
    const from = Math.max(0, pos - span);
    const to = Math.min(r.length, pos + span);
    const buf = readAt(r.fd, r.base + from, to - from);
    const before = pos > from ? buf.lastIndexOf(NL, pos - 1 - from) : -1;
    const after = buf.indexOf(NL, pos - from);
    // A line longer than the window read: read a wider one.
    if ((before === -1 && from > 0) || (after === -1 && to < r.length)) continue;
    const start = before === -1 ? from : from + before + 1;
    const end = after === -1 ? r.length : from + after;
    const line = buf.subarray(start - from, end - from);
    // Slugs and the link syntax are ASCII and UTF-8 never hides ASCII inside a multi-byte character: latin1 is safe.
    const slug = line.subarray(0, ROW.length).equals(ROW) ? (LINK.exec(line.toString("latin1"))?.[1] ?? "") : "";
    return { start, end, slug };
  }
}

/** Where `slug`'s row is, or would go, in rows sorted by slug; undefined when a line the search lands on is no row. */
function locate(r: Rows, slug: string): { at: number; end: number; found: boolean } | undefined {
  let lo = 0;
  let hi = r.length;
  while (lo < hi) {
    const line = rowAt(r, (lo + hi) >> 1);
    if (!line.slug) return undefined;
    if (line.slug < slug) lo = line.end + 1;
    else hi = line.start;
  }
  if (lo >= r.length) return { at: lo, end: lo, found: false };
  const line = rowAt(r, lo);
  if (!line.slug) return undefined;
  return { at: lo, end: line.end, found: line.slug === slug };
}

/**
 * Puts `row` (a line ending in a newline; undefined removes the row) for `slug` in its sorted place in the index at
 * `target`, which must open with `head` and hold only rows after it. A row the same length as the one it replaces is
 * written over it; any other change rewrites the rows after it. In place: renaming a new copy over a large index made
 * ext4 flush it on every write (22 ms for 3 MB); the index is a disposable view, and a torn one is found by verify.
 */
export function spliceRow(target: string, head: Uint8Array, slug: string, row: Uint8Array | undefined): Spliced {
  const fd = openSync(target, "r+");
  try {
    const size = fstatSync(fd).size;
    const rows: Rows = { fd, base: head.length, length: size - head.length };
    const opening = readAt(fd, 0, head.length + ROW.length);
    const shaped =
      rows.length > ROW.length &&
      opening.subarray(0, head.length).equals(head) &&
      opening.subarray(head.length).equals(ROW) &&
      readAt(fd, size - 1, 1)[0] === NL;
    const place = shaped ? locate(rows, slug) : undefined;
    if (!place || (!row && !place.found)) return "render";
    const { at, end, found } = place;
    const add = row ?? NONE;
    const restFrom = found ? end + 1 : at;
    // The only row removed: the directory has no pages left, and the full render takes its index away.
    if (at === 0 && add.length === 0 && restFrom === rows.length) return "render";
    if (found && add.length === restFrom - at) {
      if (readAt(fd, rows.base + at, add.length).equals(add)) return "unchanged";
      writeAt(fd, add, rows.base + at);
      return "written";
    }
    const rest = readAt(fd, rows.base + restFrom, rows.length - restFrom);
    writeAt(fd, add, rows.base + at);
    writeAt(fd, rest, rows.base + at + add.length);
    const length = rows.base + at + add.length + rest.length;
    if (length < size) ftruncateSync(fd, length);
    return "written";
  } finally {
    closeSync(fd);
  }
}

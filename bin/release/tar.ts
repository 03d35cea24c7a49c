// A ustar archive of plain files, byte for byte the same on every machine (fixed owner, mode and time).

interface TarEntry {
  readonly name: string;
  readonly data: Uint8Array;
  readonly mode: number;
}

const BLOCK = 512;

/** The archive of `entries` with `mtime` (seconds) on each; names up to 100 bytes, owner root. */
export function tar(entries: readonly TarEntry[], mtime: number): Uint8Array<ArrayBuffer> {
  const size = entries.reduce((n, e) => n + BLOCK + padded(e.data.length), 2 * BLOCK);
  const out = new Uint8Array(size);
  let at = 0;
  for (const e of entries) {
    out.set(header(e, mtime), at);
    out.set(e.data, at + BLOCK);
    at += BLOCK + padded(e.data.length);
  }
  return out;
}

function padded(n: number): number {
  return Math.ceil(n / BLOCK) * BLOCK;
}

function header(e: TarEntry, mtime: number): Uint8Array {
  const name = new TextEncoder().encode(e.name);
  if (name.length > 100) throw new Error(`tar entry name too long: ${e.name}`);
  const h = new Uint8Array(BLOCK);
  h.set(name, 0);
  field(h, 100, 8, octal(e.mode, 7));
  field(h, 108, 8, octal(0, 7));
  field(h, 116, 8, octal(0, 7));
  field(h, 124, 12, octal(e.data.length, 11));
  field(h, 136, 12, octal(mtime, 11));
  field(h, 148, 8, "        ");
  field(h, 156, 1, "0");
  field(h, 257, 6, "ustar\0");
  field(h, 263, 2, "00");
  field(h, 265, 32, "root");
  field(h, 297, 32, "root");
  const sum = h.reduce((n, b) => n + b, 0);
  field(h, 148, 8, `${octal(sum, 6)}\0 `);
  return h;
}

function octal(n: number, width: number): string {
  const s = n.toString(8);
  if (s.length > width) throw new Error(`tar field overflow: ${n}`);
  return `${s.padStart(width, "0")}\0`.slice(0, width + 1);
}

function field(h: Uint8Array, offset: number, length: number, text: string): void {
  h.set(new TextEncoder().encode(text).subarray(0, length), offset);
}

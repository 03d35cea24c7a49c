// A small ustar writer and a strict reader, so a backup is exactly what we wrote and a restore sees every member's kind.

export interface TarEntry {
  readonly path: string;
  readonly data: Uint8Array;
  readonly mode?: number;
}

type MemberKind = "file" | "dir" | "symlink" | "hardlink" | "other";

export interface TarMember {
  readonly path: string;
  readonly kind: MemberKind;
  readonly data: Uint8Array;
  readonly linkname: string;
}

const BLOCK = 512;
const enc = new TextEncoder();
const dec = new TextDecoder();

function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width - 1, "0")}\0`;
}

function put(buf: Uint8Array, offset: number, text: string, width: number): void {
  buf.set(enc.encode(text).slice(0, width), offset);
}

/** Splits a long path into ustar's prefix and name fields. */
function splitPath(path: string): [string, string] {
  if (enc.encode(path).length <= 100) return ["", path];
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (enc.encode(prefix).length <= 155 && enc.encode(name).length <= 100) return [prefix, name];
  }
  throw new Error(`path too long for a tar member: ${path}`);
}

function header(entry: TarEntry, mtime: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const [prefix, name] = splitPath(entry.path);
  put(h, 0, name, 100);
  put(h, 100, octal(entry.mode ?? 0o644, 8), 8);
  put(h, 108, octal(0, 8), 8);
  put(h, 116, octal(0, 8), 8);
  put(h, 124, octal(entry.data.length, 12), 12);
  put(h, 136, octal(Math.floor(mtime / 1000), 12), 12);
  put(h, 148, "        ", 8);
  put(h, 156, "0", 1);
  put(h, 257, "ustar\u000000", 8);
  put(h, 345, prefix, 155);
  const sum = h.reduce((a, b) => a + b, 0);
  put(h, 148, `${sum.toString(8).padStart(6, "0")}\0 `, 8);
  return h;
}

export function tarGz(entries: readonly TarEntry[], mtime: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const e of entries) {
    parts.push(header(e, mtime), e.data);
    const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(new Uint8Array(pad));
  }
  parts.push(new Uint8Array(BLOCK * 2));
  return Bun.gzipSync(Buffer.concat(parts));
}

function field(b: Uint8Array, offset: number, width: number): string {
  const slice = b.subarray(offset, offset + width);
  const nul = slice.indexOf(0);
  return dec.decode(nul === -1 ? slice : slice.subarray(0, nul));
}

function kindOf(flag: string): MemberKind {
  if (flag === "0" || flag === "" || flag === "7") return "file";
  if (flag === "5") return "dir";
  if (flag === "2") return "symlink";
  if (flag === "1") return "hardlink";
  return "other";
}

function paxPath(data: Uint8Array): string | undefined {
  for (const record of dec.decode(data).split("\n")) {
    const m = /^\d+ path=(.*)$/.exec(record);
    if (m) return m[1];
  }
  return undefined;
}

/** Every member with its kind; pax and GNU long names are honoured, checksums verified. */
export function readTarGz(bytes: Uint8Array): TarMember[] {
  let tar: Uint8Array;
  try {
    tar = Buffer.from(Bun.gunzipSync(new Uint8Array(bytes)));
  } catch {
    throw new Error("not a gzip archive");
  }
  const out: TarMember[] = [];
  let longName: string | undefined;
  for (let off = 0; off + BLOCK <= tar.length; ) {
    const h = tar.subarray(off, off + BLOCK);
    if (h.every((b) => b === 0)) break;
    const stored = Number.parseInt(field(h, 148, 8).trim() || "0", 8);
    const copy = Uint8Array.from(h);
    copy.fill(32, 148, 156);
    if (copy.reduce((a, b) => a + b, 0) !== stored) throw new Error("a tar header checksum does not match");
    const size = Number.parseInt(field(h, 124, 12).trim() || "0", 8);
    const flag = field(h, 156, 1);
    const data = tar.subarray(off + BLOCK, off + BLOCK + size);
    off += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (flag === "x" || flag === "L") {
      longName = flag === "x" ? paxPath(data) : field(data, 0, data.length);
      continue;
    }
    if (flag === "g") continue;
    const prefix = field(h, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100));
    longName = undefined;
    out.push({ path: name, kind: kindOf(flag), data: Uint8Array.from(data), linkname: field(h, 157, 100) });
  }
  return out;
}

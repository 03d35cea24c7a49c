// A ZIP archive read whole in memory, bounded before anything is inflated: the central directory's entries and sizes
// are checked against the limits first, each entry is inflated to at most the size it declares, and its CRC-32 must
// match. Stored and deflated entries only (what every exporter writes); encrypted, ZIP64 and split archives are
// refused with a reason rather than half-read.
import { inflateRawSync } from "node:zlib";

export interface UnzipLimits {
  readonly entries: number;
  /** The most one entry may inflate to. */
  readonly entryBytes: number;
  /** The most all entries together may inflate to. */
  readonly totalBytes: number;
}

export type Unzipped =
  | { readonly ok: true; readonly files: ReadonlyMap<string, Uint8Array> }
  | { readonly ok: false; readonly why: string };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The entries of `bytes` by name (folders left out), or why it is not a ZIP this reads. */
export function unzip(bytes: Uint8Array, limits: UnzipLimits): Unzipped {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  // The end record sits in the last 22 bytes plus a comment of at most 65,535.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--)
    if (u32(at) === EOCD) {
      end = at;
      break;
    }
  if (end < 0) return { ok: false, why: "it is not a ZIP archive (no end of central directory): was it cut short?" };
  const count = u16(end + 10);
  const cdSize = u32(end + 12);
  const cdAt = u32(end + 16);
  if (u16(end + 4) !== 0 || u16(end + 6) !== 0) return { ok: false, why: "a split ZIP archive is not read" };
  if (count === 0xffff || cdAt === 0xffffffff) return { ok: false, why: "a ZIP64 archive is not read" };
  if (count > limits.entries) return { ok: false, why: `it holds ${count} entries, more than ${limits.entries}` };
  if (cdAt + cdSize > end) return { ok: false, why: "its central directory points outside the archive" };
  const files = new Map<string, Uint8Array>();
  let total = 0;
  let at = cdAt;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || u32(at) !== CENTRAL)
      return { ok: false, why: `its central directory is damaged at entry ${i + 1}` };
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const crc = u32(at + 16);
    const packed = u32(at + 20);
    const size = u32(at + 24);
    const nameLen = u16(at + 28);
    const next = at + 46 + nameLen + u16(at + 30) + u16(at + 32);
    const local = u32(at + 42);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLen));
    at = next;
    if (name.endsWith("/")) continue;
    if (flags & 1) return { ok: false, why: `\`${name}\` is encrypted` };
    if (size > limits.entryBytes)
      return { ok: false, why: `\`${name}\` inflates to more than ${limits.entryBytes} bytes` };
    total += size;
    if (total > limits.totalBytes)
      return { ok: false, why: `the archive inflates to more than ${limits.totalBytes} bytes` };
    if (local + 30 > cdAt || u32(local) !== LOCAL) return { ok: false, why: `\`${name}\`'s local header is damaged` };
    const dataAt = local + 30 + u16(local + 26) + u16(local + 28);
    if (dataAt + packed > cdAt) return { ok: false, why: `\`${name}\` runs past the archive's data` };
    const raw = bytes.subarray(dataAt, dataAt + packed);
    let data: Uint8Array;
    if (method === 0) data = raw;
    else if (method === 8) {
      try {
        // Never more than it declared: a lying size stops the inflate rather than filling memory.
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, size) });
      } catch {
        return { ok: false, why: `\`${name}\` does not inflate to the ${size} bytes it declares` };
      }
    } else return { ok: false, why: `\`${name}\` is compressed with method ${method}, which is not read` };
    if (data.length !== size || Bun.hash.crc32(data) >>> 0 !== crc)
      return { ok: false, why: `\`${name}\` does not match its recorded size and checksum` };
    if (files.has(name)) return { ok: false, why: `\`${name}\` is in the archive twice` };
    files.set(name, data);
  }
  return { ok: true, files };
}

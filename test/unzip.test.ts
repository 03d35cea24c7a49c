// The ZIP reader a history sweep stands on, against archives the real `zip` wrote: read back byte for byte, and
// refused with a reason (never half-read, never inflated past what it declared) when an entry lies about its size, its
// checksum does not hold, it is encrypted, or the archive holds more entries or bytes than allowed.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type UnzipLimits, unzip } from "../src/io/unzip.ts";
import { zipFolder } from "./support/exports.ts";

const scratch = mkdtempSync(join(tmpdir(), "memnox-unzip-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const ROOMY: UnzipLimits = { entries: 100, entryBytes: 1 << 20, totalBytes: 1 << 22 };

function archive(name: string, files: Record<string, string>): Uint8Array {
  const dir = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return zipFolder(dir, join(scratch, `${name}.zip`));
}

/** The offset of the first central directory entry (signature PK\x01\x02). */
function central(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length - 4; i++)
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 1 && bytes[i + 3] === 2) return i;
  throw new Error("no central directory");
}

const WORDS = "a decision worth keeping, said many times over. ".repeat(200);

describe("unzip", () => {
  test("reads back what zip wrote, folders left out", () => {
    const z = unzip(archive("plain", { "a.json": "[1]", "general/2023-07-24.json": WORDS }), ROOMY);
    expect(z.ok && [...z.files.keys()].sort()).toEqual(["a.json", "general/2023-07-24.json"]);
    expect(z.ok && new TextDecoder().decode(z.files.get("general/2023-07-24.json"))).toBe(WORDS);
  });

  test("an entry that lies about its size, or whose checksum does not hold, is refused", () => {
    const bytes = archive("lying", { "big.json": WORDS });
    const small = bytes.slice();
    const view = new DataView(small.buffer);
    view.setUint32(central(small) + 24, 100, true);
    const lied = unzip(small, ROOMY);
    expect(lied.ok ? "" : lied.why).toContain("does not inflate to the 100 bytes it declares");
    const crc = bytes.slice();
    new DataView(crc.buffer).setUint32(central(crc) + 16, 0xdeadbeef, true);
    const bad = unzip(crc, ROOMY);
    expect(bad.ok ? "" : bad.why).toContain("does not match its recorded size and checksum");
  });

  test("limits hold before anything is inflated: entries, one entry's size, the total; encryption is refused", () => {
    const many = archive("many", { "1.json": "1", "2.json": "2", "3.json": "3" });
    const tooMany = unzip(many, { ...ROOMY, entries: 2 });
    expect(tooMany.ok ? "" : tooMany.why).toBe("it holds 3 entries, more than 2");
    const big = archive("big", { "a.json": WORDS, "b.json": WORDS });
    const entry = unzip(big, { ...ROOMY, entryBytes: 1000 });
    expect(entry.ok ? "" : entry.why).toContain("inflates to more than 1000 bytes");
    const total = unzip(big, { ...ROOMY, totalBytes: WORDS.length + 10 });
    expect(total.ok ? "" : total.why).toContain(`the archive inflates to more than ${WORDS.length + 10} bytes`);
    const locked = archive("locked", { "a.json": "[1]" }).slice();
    const at = central(locked) + 8;
    new DataView(locked.buffer).setUint16(at, new DataView(locked.buffer).getUint16(at, true) | 1, true);
    const enc = unzip(locked, ROOMY);
    expect(enc.ok ? "" : enc.why).toBe("`a.json` is encrypted");
    const cut = unzip(big.subarray(0, 100), ROOMY);
    expect(cut.ok ? "" : cut.why).toContain("no end of central directory");
  });
});

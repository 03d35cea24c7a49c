// One archive per target holding the single binary, and the checksums that vouch for every file of a release.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Target } from "../../build.ts";
import { tar } from "./tar.ts";

export interface ReleaseFile {
  readonly file: string;
  readonly size: number;
  readonly sha256: string;
}

export function archiveName(version: string, t: Pick<Target, "name">): string {
  return `memnox-${version}-${t.name}.tar.gz`;
}

export interface ArchiveOptions {
  /** gzip level: 9 for a release; tests pass 1 to spare time. */
  readonly level: 1 | 6 | 9;
  /** Seconds since the epoch stamped on the entry, so a rebuild of one commit is byte-identical. */
  readonly mtime: number;
}

/** `memnox-<version>-<target>.tar.gz` in `outDir`, holding `binary` as `memnox` (mode 0755). */
export function writeArchive(
  binary: string,
  t: Target,
  version: string,
  outDir: string,
  o: ArchiveOptions,
): ReleaseFile {
  const data = tar([{ name: "memnox", data: readFileSync(binary), mode: 0o755 }], o.mtime);
  const gz = Bun.gzipSync(data, { level: o.level });
  const file = archiveName(version, t);
  writeFileSync(join(outDir, file), gz);
  return { file, size: gz.length, sha256: sha256(gz) };
}

export function describeFile(dir: string, file: string): ReleaseFile {
  const data = readFileSync(join(dir, file));
  return { file, size: data.length, sha256: sha256(data) };
}

export function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The `sha256sum` format (`<hex>  <name>`), sorted by name, so `sha256sum -c SHA256SUMS` checks a download. */
export function checksums(files: readonly ReleaseFile[]): string {
  return [...files]
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((f) => `${f.sha256}  ${f.file}\n`)
    .join("");
}

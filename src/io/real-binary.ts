// The real binary a PATH interceptor stands in for: first on PATH, never in ~/.memnox/bin, never memnox itself.
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { join } from "node:path";

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `self` is this executable; a candidate that resolves to it would be ourselves again. */
export function findRealBinary(
  name: string,
  pathVar: string | undefined,
  skipDirs: readonly string[],
  self: string,
): string | undefined {
  const skip = new Set(skipDirs.map((d) => real(d) ?? d));
  const me = real(self) ?? self;
  for (const dir of (pathVar ?? "").split(":")) {
    if (!dir || skip.has(real(dir) ?? dir)) continue;
    const candidate = join(dir, name);
    if (!executable(candidate)) continue;
    if ((real(candidate) ?? candidate) === me) continue;
    return candidate;
  }
  return undefined;
}

/** PATH without the interceptor directory, for anything that must reach the real binaries. */
export function pathWithout(pathVar: string | undefined, dirs: readonly string[]): string {
  const skip = new Set(dirs.flatMap((d) => [d, real(d) ?? d]));
  return (pathVar ?? "")
    .split(":")
    .filter((p) => p && !skip.has(p) && !skip.has(real(p) ?? p))
    .join(":");
}

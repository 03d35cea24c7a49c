// The real binary a PATH interceptor stands in for: first on PATH, never in ~/.memnox/bin, never memnox itself.
import { accessSync, constants, statSync } from "node:fs";
import { join } from "node:path";
import { realOr } from "./real.ts";

/** A regular file this process may execute. */
export function isExecutable(path: string): boolean {
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
  const skip = new Set(skipDirs.map(realOr));
  const me = realOr(self);
  for (const dir of (pathVar ?? "").split(":")) {
    if (!dir || skip.has(realOr(dir))) continue;
    const candidate = join(dir, name);
    if (!isExecutable(candidate)) continue;
    if (realOr(candidate) === me) continue;
    return candidate;
  }
  return undefined;
}

/** PATH without the interceptor directory, for anything that must reach the real binaries. */
export function pathWithout(pathVar: string | undefined, dirs: readonly string[]): string {
  const skip = new Set(dirs.flatMap((d) => [d, realOr(d)]));
  return (pathVar ?? "")
    .split(":")
    .filter((p) => p && !skip.has(p) && !skip.has(realOr(p)))
    .join(":");
}

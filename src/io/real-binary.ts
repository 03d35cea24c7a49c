// The real binary a PATH interceptor stands in for: first on PATH, never in ~/.memnox/bin, never memnox itself.
import { accessSync, constants, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { readJsonIfExists } from "./files.ts";
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

/** Where the interceptors' real binaries were found at install, by name; a file that cannot be read is empty. */
function recordedRealBinaries(file: string): Record<string, string> {
  const raw = readJsonIfExists(file);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === "string" && v.startsWith("/")) out[k] = v;
  return out;
}

interface OwnProgram {
  /** `~/.memnox/bin`: never the answer, since a program there is memnox's own interceptor. */
  readonly interceptors: string;
  /** `paths.realBinaries`. */
  readonly recorded: string;
  /** Directories never searched besides the interceptors' (git's exec-path copy). */
  readonly skip?: readonly string[];
  readonly pathVar: string | undefined;
  /** This executable. */
  readonly self: string;
}

/**
 * The real program memnox itself runs (its own git plumbing): the one recorded at install while it is still a real
 * executable outside the interceptors, else the first on PATH outside them; never memnox's own interceptor.
 */
export function ownProgram(name: string, o: OwnProgram): string | undefined {
  const recorded = recordedRealBinaries(o.recorded)[name];
  if (recorded && isExecutable(recorded)) {
    const real = realOr(recorded);
    const mine = realOr(o.interceptors);
    if (real !== realOr(o.self) && !isInside(real, mine) && !isInside(realOr(dirname(recorded)), mine)) return recorded;
  }
  return findRealBinary(name, o.pathVar, [o.interceptors, ...(o.skip ?? [])], o.self);
}

function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

// Parsed and validated rule files, kept by content: a hook then skips TOML parsing and schema checks on unchanged
// files. Derived data only: the same user who can write it can write the rule files themselves.
import { join } from "node:path";
import { readJsonIfExists, writeJsonAtomic } from "../../io/files.ts";
import type { PolicyRule } from "../engine/index.ts";
import type { RuleProblem } from "./types.ts";

const VERSION = 1;

interface CachedCheck {
  readonly rules: readonly PolicyRule[];
  readonly problems: readonly RuleProblem[];
  readonly project?: string;
}

/** Keyed by the file's path and content hash (rules carry their file and line). */
function fileOf(dir: string, path: string, hash: string): string {
  const key = new Bun.CryptoHasher("sha256").update(`${VERSION}\0${path}\0${hash}`).digest("hex");
  return join(dir, `${key.slice(0, 40)}.json`);
}

export function readCachedCheck(dir: string, path: string, hash: string): CachedCheck | undefined {
  try {
    const raw = readJsonIfExists(fileOf(dir, path, hash));
    if (typeof raw !== "object" || raw === null) return undefined;
    const c = raw as { version?: unknown; rules?: unknown; problems?: unknown; project?: unknown };
    if (c.version !== VERSION || !Array.isArray(c.rules) || !Array.isArray(c.problems)) return undefined;
    return {
      rules: c.rules as PolicyRule[],
      problems: c.problems as RuleProblem[],
      ...(typeof c.project === "string" ? { project: c.project } : {}),
    };
  } catch {
    return undefined;
  }
}

export function writeCachedCheck(dir: string, path: string, hash: string, check: CachedCheck): void {
  try {
    writeJsonAtomic(fileOf(dir, path, hash), { version: VERSION, ...check });
  } catch {
    // a cache that cannot be written only costs the next call a parse
  }
}

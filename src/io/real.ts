// A path's physical form, with symlinks resolved, for comparing two spellings of one file.
import { realpathSync } from "node:fs";

/** The real path of `path`, or `path` itself when it cannot be resolved (not there yet, or not readable). */
export function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

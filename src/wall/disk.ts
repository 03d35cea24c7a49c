// The disk as the Landlock planner reads it, at the moment a wall goes up, and paths made physical.
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Disk } from "./landlock.ts";

export const realDisk: Disk = {
  list(dir) {
    try {
      return readdirSync(dir, { withFileTypes: true })
        .filter((e) => !e.isSymbolicLink())
        .map((e) => ({ path: join(dir, e.name), dir: e.isDirectory() }));
    } catch {
      return [];
    }
  },
  kind(path) {
    try {
      return statSync(path).isDirectory() ? "dir" : "file";
    } catch {
      return undefined;
    }
  },
};

/** A path with its symlinks resolved, as far as it exists (a kernel matches what a path really is). */
export function physical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const up = dirname(path);
    if (up === path || existsSync(path)) return path;
    return join(physical(up), path.slice(up.length + 1));
  }
}

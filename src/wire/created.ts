// What memnox made outside ~/.memnox, recorded when made (`created.json`), so that taking memnox out removes exactly
// that: folders (the service file's ~/.config/systemd/user) only while empty, so one that was there before stays;
// files (the repository rule file setup wrote) only while they hold what memnox wrote.
import { existsSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../io/files.ts";
import type { Paths } from "../ports/paths.ts";

export interface CreatedFile {
  readonly path: string;
  readonly sha256: string;
}

interface Created {
  readonly dirs: readonly string[];
  readonly files: readonly CreatedFile[];
}

function recordFile(paths: Pick<Paths, "root">): string {
  return join(paths.root, "created.json");
}

function isFile(f: unknown): f is CreatedFile {
  return (
    typeof f === "object" &&
    f !== null &&
    typeof (f as CreatedFile).path === "string" &&
    typeof (f as CreatedFile).sha256 === "string"
  );
}

export function readCreated(paths: Pick<Paths, "root">): Created {
  try {
    const raw = readJsonIfExists(recordFile(paths)) as Partial<Record<keyof Created, unknown>> | undefined;
    return {
      dirs: Array.isArray(raw?.dirs) ? raw.dirs.filter((d): d is string => typeof d === "string") : [],
      files: Array.isArray(raw?.files) ? raw.files.filter(isFile) : [],
    };
  } catch {
    return { dirs: [], files: [] };
  }
}

function change(paths: Pick<Paths, "root">, fn: (c: Created) => Created): void {
  const file = recordFile(paths);
  withLock(file, () => {
    const next = fn(readCreated(paths));
    if (next.dirs.length + next.files.length > 0) writeJsonAtomic(file, next);
    else rmSync(file, { force: true });
  });
}

/** The folders from `dir` up that do not exist yet, stopping at `home` (never included). */
export function missingDirs(dir: string, home: string): string[] {
  const out: string[] = [];
  for (let d = dir; d !== home && d !== dirname(d) && d.startsWith(`${home}/`) && !existsSync(d); d = dirname(d)) {
    out.push(d);
  }
  return out;
}

export function noteCreatedDirs(paths: Pick<Paths, "root">, dirs: readonly string[]): void {
  if (dirs.length === 0) return;
  change(paths, (c) => ({ ...c, dirs: [...c.dirs, ...dirs.filter((d) => !c.dirs.includes(d))] }));
}

export function noteCreatedFile(paths: Pick<Paths, "root">, f: CreatedFile): void {
  change(paths, (c) => ({ ...c, files: [...c.files.filter((x) => x.path !== f.path), f] }));
}

/** Each recorded folder removed while empty, deepest first; the ones still holding something stay recorded. */
export function removeCreatedDirs(paths: Pick<Paths, "root">): void {
  if (readCreated(paths).dirs.length === 0) return;
  change(paths, (c) => {
    const kept = [...c.dirs]
      .sort((a, b) => b.length - a.length)
      .filter((d) => {
        try {
          rmdirSync(d);
          return false;
        } catch (e) {
          return (e as NodeJS.ErrnoException).code !== "ENOENT";
        }
      });
    return { ...c, dirs: kept };
  });
}

// ~/.memnox/projects.json: which repository rule files declare which `project`, kept as they are loaded, so two
// repositories declaring the same project share rules. Paths and project names only. A file that is gone is
// forgotten here, never a problem: unlike a file `policy use` registered, nobody asked for it by name.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../../io/files.ts";

interface ProjectsFile {
  readonly version: 1;
  /** Rule file path -> the project it declares. */
  readonly files: Readonly<Record<string, string>>;
}

export function projectsFileBeside(policiesRegistry: string): string {
  return join(dirname(policiesRegistry), "projects.json");
}

function read(path: string): Record<string, string> {
  try {
    const raw = readJsonIfExists(path) as Partial<ProjectsFile> | undefined;
    const files = raw?.files;
    if (typeof files !== "object" || files === null) return {};
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(files)) if (typeof v === "string" && k.startsWith("/")) out[k] = v;
    return out;
  } catch {
    return {};
  }
}

/** The other rule files that declared one of `projects`, still on disk. */
export function filesOfProjects(path: string, projects: ReadonlySet<string>, except: ReadonlySet<string>): string[] {
  return Object.entries(read(path))
    .filter(([file, project]) => projects.has(project) && !except.has(file) && existsSync(file))
    .map(([file]) => file)
    .sort();
}

/** Notes each file's project (written only when something changed); files that are gone are dropped. */
export function noteProjectFiles(path: string, seen: Readonly<Record<string, string>>): void {
  const known = read(path);
  if (Object.entries(seen).every(([f, p]) => known[f] === p)) return;
  try {
    withLock(path, () => {
      const files = read(path);
      for (const [f, p] of Object.entries(seen)) files[f] = p;
      for (const f of Object.keys(files)) if (!existsSync(f)) delete files[f];
      writeJsonAtomic(path, { version: 1, files } satisfies ProjectsFile);
    });
  } catch {
    // Inside a kernel wall the home is read-only: sharing starts once a session outside it loads the file.
  }
}

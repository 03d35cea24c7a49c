// ~/.memnox/policies.json: which rule files `memnox policy use` registered. Paths only, never rule content.
import { MemnoxError } from "../../core/errors.ts";
import { isRecord } from "../../core/record.ts";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../../io/files.ts";

interface RegistryFile {
  readonly version: 1;
  readonly files: readonly string[];
}

/** The registered paths; an absent file is an empty registry, a malformed one an error naming it. */
export function readRegistry(registryPath: string): readonly string[] {
  const raw = readJsonIfExists(registryPath);
  if (raw === undefined) return [];
  const files = isRecord(raw) ? raw.files : undefined;
  if (!Array.isArray(files) || !files.every((f) => typeof f === "string" && f.startsWith("/")))
    throw new MemnoxError(
      "io",
      `\`${registryPath}\` is not a rule-file registry: expected { "version": 1, "files": [absolute paths] }`,
      "move it aside and run `memnox policy use <file>` again",
    );
  return files;
}

function update(registryPath: string, change: (files: string[]) => string[]): readonly string[] {
  return withLock(registryPath, () => {
    const next = change([...readRegistry(registryPath)]);
    const out: RegistryFile = { version: 1, files: next };
    writeJsonAtomic(registryPath, out);
    return next;
  });
}

/** Adds an absolute path; true when it was not registered before. */
export function registerFile(registryPath: string, file: string): boolean {
  let added = false;
  update(registryPath, (files) => {
    if (files.includes(file)) return files;
    added = true;
    return [...files, file].sort();
  });
  return added;
}

/** Removes an absolute path; true when it was registered. */
export function unregisterFile(registryPath: string, file: string): boolean {
  let removed = false;
  update(registryPath, (files) => {
    removed = files.includes(file);
    return files.filter((f) => f !== file);
  });
  return removed;
}

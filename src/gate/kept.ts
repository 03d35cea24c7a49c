// Before a delete inside the checkout: can the milestone kept first take back what it removes? Files git ignores (a
// local database) are kept up to a bound; past it, or for a file named like a credential, the delete is not one a
// milestone brings back, and the resolver calls it destructive (so it asks). Build output and caches are left out.
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { KEEP_IGNORED_BYTES, KEEP_IGNORED_ENTRIES, rebuiltByName, secretByName } from "../core/kept.ts";
import { globMatches } from "./expand.ts";

const GLOB = /[*?[]/;

/**
 * The targets of these deletes (absolute, inside `repository`) that no milestone would keep. Counted as if all of it
 * were ignored: git keeps what it tracks whatever the size, so this errs towards asking, and starts no process.
 */
export function unkeptDeletes(repository: string, targets: readonly string[]): string[] {
  const out = new Set<string>();
  const tally = { bytes: 0, entries: 0 };
  for (const target of targets) {
    const base = target.endsWith("/**") ? target.slice(0, -3) : target;
    const paths = GLOB.test(base) ? globMatches(base) : [base];
    for (const p of paths) {
      if (p !== repository && !p.startsWith(`${repository}/`)) continue;
      for (const secret of walk(repository, p, tally)) out.add(secret);
      if (tally.bytes > KEEP_IGNORED_BYTES || tally.entries > KEEP_IGNORED_ENTRIES) out.add(target);
    }
  }
  return [...out];
}

/** Sizes what a delete of `path` takes (build output skipped); returns the files under it named like credentials. */
function walk(repository: string, path: string, tally: { bytes: number; entries: number }): string[] {
  const rel = (p: string) => p.slice(repository.length + 1);
  if (rebuiltByName(rel(path))) return [];
  const secrets: string[] = [];
  const stack = [path];
  while (stack.length > 0) {
    const p = stack.pop() as string;
    if (++tally.entries > KEEP_IGNORED_ENTRIES) return secrets;
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(p);
    } catch {
      continue;
    }
    if (st.isFile()) {
      tally.bytes += st.size;
      if (secretByName(rel(p))) secrets.push(p);
      if (tally.bytes > KEEP_IGNORED_BYTES) return secrets;
      continue;
    }
    if (!st.isDirectory()) continue;
    let names: Dirent[];
    try {
      names = readdirSync(p, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of names) {
      const child = join(p, d.name);
      if (d.name === ".git" || rebuiltByName(rel(child))) continue;
      stack.push(child);
    }
  }
  return secrets;
}

// Where a call acts, beyond where it runs: `git -C X`, `cd X && …`, `pushd X`, and the paths it reads and writes.
// Rules load for each of them as well as for the caller's directory, so a repository's own file meets the call
// that reaches into it from elsewhere (all files are evaluated together, and the strictest verdict wins).
import { dirname } from "node:path";
import type { Action } from "../core/action.ts";

/** A line that reaches further than this still loads rules for the first places, in order. */
const MAX_PLACES = 16;

/** Paths still holding a glob, a variable or a substitution say nothing certain about where they lead. */
const UNCERTAIN = /[*?[$`]/;

export function actingPlaces(cwd: string, actions: readonly Action[]): string[] {
  const out = new Set<string>();
  for (const a of actions) {
    if (a.cwd?.startsWith("/") && !UNCERTAIN.test(a.cwd)) out.add(a.cwd);
    if (!a.name.startsWith("filesystem.")) continue;
    for (const t of a.targets) if (t.startsWith("/") && !UNCERTAIN.test(t)) out.add(dirname(t));
  }
  out.delete(cwd);
  return [...out].slice(0, MAX_PLACES);
}

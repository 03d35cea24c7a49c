// What people call each agent (`memnox agents name`): the id stays the identity ledger rows are keyed on; the
// name is what screens print, and commands answer to either.

import { isRecord } from "../core/record.ts";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../io/files.ts";

export function readAgentNames(file: string): Map<string, string> {
  const raw = readJsonIfExists(file);
  const names = isRecord(raw) ? raw.names : undefined;
  const out = new Map<string, string>();
  if (isRecord(names)) {
    for (const [id, name] of Object.entries(names)) if (typeof name === "string" && name) out.set(id, name);
  }
  return out;
}

/** Set (or, with undefined, clear) the name of `id`; returns the names after. */
export function setAgentName(file: string, id: string, name: string | undefined): Map<string, string> {
  return withLock(file, () => {
    const names = readAgentNames(file);
    if (name === undefined) names.delete(id);
    else names.set(id, name);
    writeJsonAtomic(file, { version: 1, names: Object.fromEntries([...names].sort(([a], [b]) => a.localeCompare(b))) });
    return names;
  });
}

/** The id a word names: an id itself, or the name somebody gave one. */
export function agentIdFor(
  word: string,
  names: ReadonlyMap<string, string>,
  ids: readonly string[],
): string | undefined {
  if (ids.includes(word)) return word;
  const lower = word.toLowerCase();
  for (const [id, name] of names) if (name.toLowerCase() === lower) return id;
  return undefined;
}

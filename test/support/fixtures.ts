// Fixture trees under fixtures/, read into the object form tempDir/fakeHome build from.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Tree, TreeEntry } from "./fs.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures");

export function fixturePath(...parts: string[]): string {
  return join(FIXTURES, ...parts);
}

/** Every file under fixtures/<parts…>, by path relative to it, as exact bytes. */
export function fixtureTree(...parts: string[]): Tree {
  const root = fixturePath(...parts);
  const out: Record<string, TreeEntry> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p)] = new Uint8Array(readFileSync(p));
    }
  };
  walk(root);
  return out;
}

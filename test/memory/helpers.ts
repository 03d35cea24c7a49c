// A memory store in a temporary directory with a clock the test moves.
import { cpSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../src/io/hash.ts";
import type { Store } from "../../src/memory/pages/store.ts";
import { openStore } from "../../src/memory/pages/store.ts";
import { type WriteInput, type WriteResult, writePage } from "../../src/memory/pages/write.ts";
import { type TempDir, type Tree, tempDir } from "../support/index.ts";

export const T0 = Date.parse("2026-11-30T12:00:00.000Z");

/** An opaque project id (memex's rule: 24 to 64 lowercase hex digits) named for what a test calls it. */
export const hex = (name: string): string => sha256Hex(`test project ${name}`).slice(0, 24);
export const P1 = hex("p1");

export interface MemStore extends Disposable {
  readonly dir: TempDir;
  readonly store: Store;
  readonly clock: { now: number };
  /** A fresh Store on the same directory, as a second process would see it. */
  reopen(): Store;
}

export function memStore(tree: Tree = {}, env: Record<string, string> = {}): MemStore {
  const dir = tempDir("memnox-mem", tree);
  const clock = { now: T0 };
  const open = () => openStore({ dir: dir.path, now: () => clock.now, env });
  const store = open();
  const opened: Store[] = [store];
  return {
    dir,
    store,
    clock,
    reopen() {
      const s = open();
      opened.push(s);
      return s;
    },
    [Symbol.dispose]() {
      for (const s of opened) s.close();
      dir[Symbol.dispose]();
    },
  };
}

type Quick = Partial<WriteInput> & Pick<WriteInput, "title">;

/** A person's global write with sensible defaults. */
export function put(store: Store, w: Quick): WriteResult {
  return writePage(store, { type: "entity", body: `${w.title}.`, scope: "global", author: "person", ...w });
}

export const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "memory");

/** A memory store seeded with a copy of a fixture directory. */
export function fixtureStore(name: string, env: Record<string, string> = {}): MemStore {
  const m = memStore({}, env);
  cpSync(join(FIXTURES, name), m.dir.path, { recursive: true });
  return m;
}

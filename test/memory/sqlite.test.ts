// The index's SQLite: FTS5 checked when it opens and refused plainly without it; SQL kept to what 3.39 understands.
import type { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MemnoxError } from "../../src/core/errors.ts";
import { rebuildIndex } from "../../src/memory/pages/rebuild.ts";
import { openStore } from "../../src/memory/pages/store.ts";
import { recall } from "../../src/memory/recall/recall.ts";
import { hasFts5, requireFts5 } from "../../src/memory/search/index-db.ts";
import { memStore, put } from "./helpers.ts";

/** A connection to an SQLite built without FTS5, as far as the two probes can tell. */
function withoutFts5(): Database {
  const fake = {
    query: () => ({ get: () => ({ on_: 0 }) }),
    exec: () => {
      throw new Error("no such module: fts5");
    },
  };
  return fake as unknown as Database;
}

describe("the SQLite in use", () => {
  test("has FTS5, and one without it is refused plainly, naming the way out", () => {
    using m = memStore();
    put(m.store, { title: "Kafka" });
    expect(hasFts5(m.store.index().db)).toBe(true);
    expect(hasFts5(withoutFts5())).toBe(false);
    const err = (() => {
      try {
        requireFts5(withoutFts5());
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(MemnoxError);
    expect((err as MemnoxError).message).toBe("the SQLite in use was built without FTS5, which memory recall needs");
    expect((err as MemnoxError).hint).toContain("--engine navigation");
  });

  test("the navigation engine still answers when the index cannot be opened", () => {
    using m = memStore();
    put(m.store, { title: "Deploy on Fridays", description: "When to deploy." });
    const db = join(m.dir.path, "memnox-index.db");
    m.store.close();
    for (const suffix of ["-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
    writeFileSync(db, "this is not an SQLite database, and no SQLite will open it as one".repeat(200));
    const fresh = openStore({ dir: m.dir.path, now: () => m.clock.now, readonly: true });
    expect(() => fresh.index().count()).toThrow();
    const r = recall(fresh, { query: "deploy", engine: "navigation" });
    fresh.close();
    expect(r.search_engine).toBe("navigation-index-md");
    expect(r.hits.map((h) => h.slug)).toEqual(["deploy-on-fridays"]);
    expect(r.total_indexed).toBe(1);
  });

  test("a damaged index is disposable: a read-only open names the remedy; a writer replaces it and rebuild restores it", () => {
    using m = memStore();
    put(m.store, { title: "Deploy on Fridays", description: "When to deploy." });
    const db = join(m.dir.path, "memnox-index.db");
    m.store.close();
    for (const suffix of ["-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
    writeFileSync(db, "not an index ".repeat(500));
    const reader = openStore({ dir: m.dir.path, now: () => m.clock.now, readonly: true });
    const err = (() => {
      try {
        reader.index();
      } catch (e) {
        return e;
      }
    })();
    reader.close();
    expect(err).toBeInstanceOf(MemnoxError);
    expect((err as MemnoxError).hint).toBe("memnox memory rebuild-index --force");
    const writer = m.reopen();
    const before = recall(writer, { query: "deploy" });
    expect([before.search_engine, before.hits.map((h) => h.slug)]).toEqual([
      "navigation-index-md-fallback",
      ["deploy-on-fridays"],
    ]);
    rebuildIndex(writer, { force: true });
    const after = recall(writer, { query: "deploy" });
    expect([after.search_engine, after.total_indexed]).toEqual(["semantic-and-fallback-fts5", 1]);
  });

  test("no SQL newer than 3.39 (the oldest Bun on macOS) is used by the memory store", () => {
    // Functions and syntax SQLite added after 3.39.
    const newer = [
      /(?<![.\w])unhex\s*\(/i,
      /(?<![.\w])octet_length\s*\(/i,
      /(?<![.\w])timediff\s*\(/i,
      /(?<![.\w])concat(?:_ws)?\s*\(/i,
      /(?<![.\w])string_agg\s*\(/i,
      /(?<![.\w])jsonb\w*\s*\(/i,
      /(?<![.\w])contentless_delete\b/i,
      /(?<![.\w])contentless_unindexed\b/i,
      /(?<![.\w])fts5_locale\b/i,
      /(?<![.\w])percentile\w*\s*\(/i,
      /(?<![.\w])median\s*\(/i,
    ];
    const dir = join(import.meta.dir, "..", "..", "src", "memory");
    const offenders: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      const text = readFileSync(join(dir, file), "utf8");
      for (const re of newer) if (re.test(text)) offenders.push(`${file}: ${re.source}`);
    }
    expect(offenders).toEqual([]);
  });
});

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { hashBody } from "../../src/memory/format/page.ts";
import { explicitProject } from "../../src/memory/format/project.ts";
import { forget } from "../../src/memory/pages/lifecycle.ts";
import { regenerate } from "../../src/memory/pages/navigation.ts";
import { rebuildIndex } from "../../src/memory/pages/rebuild.ts";
import { scanPages } from "../../src/memory/pages/store.ts";
import { verify } from "../../src/memory/pages/verify.ts";
import { enableType } from "../../src/memory/types/manage.ts";
import { hex, memStore, put, T0 } from "./helpers.ts";

function indexes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === "index.md") out[relative(root, p)] = readFileSync(p, "utf8");
    }
  };
  walk(root);
  return out;
}

describe("rebuild-index report", () => {
  test("it names the navigation defects it repaired, the content hashes it refreshed and the pages per folder", () => {
    using m = memStore();
    const project = explicitProject(hex("shop"), "shop", "shop");
    enableType(m.store, project, "decision", "sam");
    const kafka = put(m.store, { title: "Kafka", body: "Ordering." });
    put(m.store, { title: "Redis", body: "Cache." });
    put(m.store, { type: "decision", title: "Choose Kafka", scope: "project", project });
    // A hand edit of the body leaves the index's hash behind; a deleted index is a missing view.
    const edited = readFileSync(kafka.file_path, "utf8").replace("Ordering.", "Ordering by key.");
    writeFileSync(kafka.file_path, edited);
    rmSync(join(m.dir.path, "docs/global/entities/index.md"));
    writeFileSync(join(m.dir.path, "docs/global/index.md"), "# global\n\nstale\n");
    m.clock.now = T0 + 60_000;
    const r = rebuildIndex(m.store);
    expect(r.navigation_repaired).toEqual({ missing: 1, stale: 1 });
    expect(r.navigation_defects).toEqual([]);
    expect(r.content_hashes_refreshed).toBe(1);
    expect(r.refreshed).toEqual(["kafka"]);
    expect(r.folders).toEqual({ "global/entities": 2, "projects/shop/decision": 1 });
    expect(m.store.index().get("global", "", "kafka")?.content_hash).toBe(hashBody("Ordering by key."));
    // The stale front-matter hash is rewritten, as memex's rebuild does; the body is the hand edit, untouched.
    const rewritten = readFileSync(kafka.file_path, "utf8");
    expect(rewritten).toContain(`content_hash: "${hashBody("Ordering by key.")}"`);
    expect(rewritten).toContain('updated_at: "2026-11-30T12:01:00Z"');
    expect(rewritten.endsWith("\nOrdering by key.")).toBe(true);
    expect(verify(m.store).ok).toBe(true);
    const again = rebuildIndex(m.store);
    expect([again.content_hashes_refreshed, again.navigation_defects, again.navigation_repaired]).toEqual([0, [], {}]);
  });
});

describe("generated index.md", () => {
  test("the root declares okf_version, descendants are body-only, entries escape markup", () => {
    using m = memStore();
    put(m.store, { title: "Ruff *linter* <b>", description: "When [linting] Python." });
    put(m.store, { type: "preference", title: "Deploy on Fridays" });
    const idx = indexes(join(m.dir.path, "docs"));
    expect(idx["index.md"]).toBe(
      '---\nokf_version: "0.2"\n---\n# index\n\n## Subdirectories\n- [global/](global/index.md)\n',
    );
    expect(idx["global/index.md"]).toBe(
      "# global\n\n## Subdirectories\n- [entities/](entities/index.md)\n- [preferences/](preferences/index.md)\n",
    );
    expect(idx["global/entities/index.md"]).toBe(
      "# global/entities\n\n## Entities\n- [Ruff \\*linter\\* \\<b\\>](ruff-linter-b.md) — When \\[linting\\] Python.\n",
    );
  });

  test("splicing single writes and deletes gives the same bytes as a full render, and regenerating changes nothing", () => {
    using m = memStore();
    const project = explicitProject(hex("shop"), "shop", "shop");
    enableType(m.store, project, "decision", "sam");
    for (const t of ["Zulu", "Alpha", "Mike", "Echo"]) put(m.store, { title: t, description: `About ${t}.` });
    put(m.store, { type: "decision", title: "Choose Kafka", scope: "project", project });
    put(m.store, { title: "Alpha", slug: "alpha", description: "Changed." });
    forget(m.store, "mike", "hard");
    put(m.store, { type: "procedure", title: "Only one" });
    forget(m.store, "only-one", "hard");
    const spliced = indexes(join(m.dir.path, "docs"));
    regenerate(m.store, scanPages(m.store));
    expect(indexes(join(m.dir.path, "docs"))).toEqual(spliced);
    expect(spliced["global/index.md"]).not.toContain("procedures");
    expect(spliced["projects/shop/decision/index.md"]).toBe(
      "# projects/shop/decision\n\n## Decision\n- [Choose Kafka](choose-kafka.md)\n",
    );
    rebuildIndex(m.store, { force: true });
    expect(indexes(join(m.dir.path, "docs"))).toEqual(spliced);
  });

  test("a splice edits the index in place: no new copy is renamed over it (ext4 flushed a large one on every write)", () => {
    using m = memStore();
    for (const t of ["Alpha", "Mike", "Zulu"]) put(m.store, { title: t });
    const index = join(m.dir.path, "docs", "global", "entities", "index.md");
    const before = statSync(index).ino;
    put(m.store, { title: "Echo", description: "between the others" });
    forget(m.store, "mike", "hard");
    expect(statSync(index).ino).toBe(before);
    expect(readFileSync(index, "utf8")).toContain("- [Echo](echo.md) — between the others\n- [Zulu](zulu.md)\n");
    expect(readdirSync(join(m.dir.path, "docs", "global", "entities")).filter((n) => n.includes(".lock"))).toEqual([]);
  });

  test("a long run of writes, updates and deletes splices to exactly what a full render writes", () => {
    using m = memStore();
    let seed = 42;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const live: string[] = [];
    for (let i = 0; i < 120; i++) {
      const roll = next();
      if (roll < 0.2 && live.length > 0) {
        const slug = live.splice(Math.floor(next() * live.length), 1)[0] ?? "";
        forget(m.store, slug, "hard");
      } else if (roll < 0.4 && live.length > 0) {
        const slug = live[Math.floor(next() * live.length)] ?? "";
        put(m.store, { title: slug, slug, description: `Rewritten ${i} [x] *y*.` });
      } else {
        live.push(
          put(m.store, {
            title: `Page ${Math.floor(next() * 1000)} ${i % 7 === 0 ? "](z.md)" : ""}`,
            description: i % 3 ? `D ${i}` : "",
          }).slug,
        );
      }
    }
    const spliced = indexes(join(m.dir.path, "docs"));
    regenerate(m.store, scanPages(m.store));
    expect(indexes(join(m.dir.path, "docs"))).toEqual(spliced);
  });
});

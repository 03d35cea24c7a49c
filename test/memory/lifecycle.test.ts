import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { approve, forget, merge } from "../../src/memory/pages/lifecycle.ts";
import { readPage } from "../../src/memory/pages/store.ts";
import { writePage } from "../../src/memory/pages/write.ts";
import { recall } from "../../src/memory/recall/recall.ts";
import { memStore, P1, put } from "./helpers.ts";

const slugs = (r: { hits: { slug: string }[] }) => r.hits.map((h) => h.slug);

describe("forget", () => {
  test("hard deletes the file, its row and its links", () => {
    using m = memStore();
    const r = put(m.store, { title: "Gone", body: "Ostrich [[other]]." });
    expect(forget(m.store, "gone", "hard")).toMatchObject({ forgotten: true, mode: "hard" });
    expect(existsSync(r.file_path)).toBe(false);
    expect(m.store.index().get("global", "", "gone")).toBeUndefined();
    expect(m.store.index().backlinks("other")).toEqual([]);
    expect(slugs(recall(m.store, { query: "ostrich" }))).toEqual([]);
  });

  test("soft hides now, decay after one half-life (memex.toml's, else 30 days), archive retires in place", () => {
    using m = memStore({ "memex.toml": "[recency_decay]\nhalf_life_days = 7\n" });
    for (const t of ["Soft", "Decay", "Archive"]) put(m.store, { title: t, body: "Puffin." });
    expect(forget(m.store, "soft", "soft").valid_until).toBe("2026-11-30T12:00:00Z");
    expect(forget(m.store, "decay", "decay").valid_until).toBe("2026-12-07T12:00:00Z");
    forget(m.store, "archive", "archive");
    expect(slugs(recall(m.store, { query: "puffin" }))).toEqual(["decay"]);
    expect(readPage(m.store, m.store.index().get("global", "", "archive")?.file_path ?? "").status).toBe("archived");
    expect(() => forget(m.store, "missing", "hard")).toThrow("no wiki page for slug: 'missing'");
  });

  test("a slug in two scopes must be told apart", () => {
    using m = memStore();
    put(m.store, { title: "Twin" });
    put(m.store, { title: "Twin", scope: "project", project: { id: P1, label: "p", locator: "p" } });
    expect(() => forget(m.store, "twin", "soft")).toThrow(/^ambiguous wiki page for slug 'twin': scope='global'/);
    expect(forget(m.store, "twin", "soft", { scope: "global" }).forgotten).toBe(true);
  });
});

describe("approve and merge", () => {
  test("a model's knowledge lands pending; approve makes it recallable; a person's lands active", () => {
    using m = memStore();
    const model = writePage(m.store, {
      type: "preference",
      title: "Tabs",
      body: "Tabs not spaces.",
      scope: "global",
      author: "model",
    });
    const summary = writePage(m.store, {
      type: "summary",
      title: "Week",
      body: "Tabs discussion.",
      scope: "global",
      author: "model",
    });
    expect(model.status).toBe("pending");
    expect(summary.status).toBe("active");
    expect(slugs(recall(m.store, { query: "tabs" }))).toEqual(["week"]);
    expect(approve(m.store, "tabs").status).toBe("active");
    expect(slugs(recall(m.store, { query: "tabs" })).sort()).toEqual(["tabs", "week"]);
  });

  test("knowledge_approval = auto lets a model's knowledge through", () => {
    using m = memStore({ "memex.toml": '[governance]\nknowledge_approval = "auto"\n' });
    const r = writePage(m.store, { type: "preference", title: "Tabs", body: "x", scope: "global", author: "model" });
    expect(r.status).toBe("active");
  });

  test("merge appends the source body to the target and marks the source superseded with a link back", () => {
    using m = memStore();
    const t = put(m.store, { title: "Queue", body: "Kafka." });
    const s = put(m.store, { title: "Queue notes", body: "Partitions by key.", tags: ["ops"] });
    merge(m.store, "queue", "queue-notes");
    const target = readPage(m.store, t.file_path);
    const source = readPage(m.store, s.file_path);
    expect(target.body).toBe("Kafka.\n\n## Merged from [[queue-notes]]\n\nPartitions by key.");
    expect(target.supersedes).toEqual(["queue-notes"]);
    expect(target.tags).toEqual([]);
    expect(source.status).toBe("superseded");
    expect(source.links).toEqual([{ target: "queue", rel: "superseded-by" }]);
    expect(slugs(recall(m.store, { query: "partitions" }))).toEqual(["queue"]);
  });
});

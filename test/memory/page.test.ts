import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { PAGE_KEYS, parsePage, renderPage } from "../../src/memory/format/page.ts";
import { rebuildIndex } from "../../src/memory/pages/rebuild.ts";
import { readPage } from "../../src/memory/pages/store.ts";
import { verify } from "../../src/memory/pages/verify.ts";
import { recall } from "../../src/memory/recall/recall.ts";
import { FIXTURES, memStore, put, T0 } from "./helpers.ts";

const MEMEX_PAGE = join(FIXTURES, "memex-store/docs/global/entities/ruff-linter.md");

describe("front matter, byte for byte with memex", () => {
  test("a memex page reads and renders back to the same bytes", () => {
    for (const file of [MEMEX_PAGE, join(FIXTURES, "memex-store/docs/global/entities/python-3-12.md")]) {
      const text = readFileSync(file, "utf8");
      const page = parsePage(text, "x", file);
      const { slug, path, body, ...meta } = page;
      expect(renderPage(meta, body)).toBe(text);
    }
  });

  test("our pages carry every key, one per line, in memex's order", () => {
    using m = memStore();
    const r = put(m.store, {
      title: "Ruff linter",
      body: "Fast linter. [[python-3-12]]",
      tags: ["Tool", "lint"],
      importance: 1,
    });
    const text = readFileSync(r.file_path, "utf8");
    const keys = text
      .split("\n---\n")[0]
      ?.split("\n")
      .slice(1)
      .map((l) => l.split(":")[0]);
    expect(keys).toEqual([...PAGE_KEYS]);
    expect(text).toContain('okf_version: "0.2"\n');
    expect(text).toContain('tags: ["tool", "lint"]\n');
    expect(text).toContain("importance: 1.0\n");
    expect(text).toContain("links: []\n");
    expect(text).toContain("parent: null\n");
    expect(text.endsWith("---\n\nFast linter. [[python-3-12]]")).toBe(true);
  });

  test("the yaml package reads our front matter independently to the same values", () => {
    using m = memStore();
    const r = put(m.store, {
      title: 'Quotes "and" \\ backslashes: #not-a-comment',
      description: "When: colons, [brackets] and {braces} appear.",
      body: "Body",
      tags: ["a-b", "c"],
      links: [{ target: "other", rel: "depends-on" }],
      importance: 0.25,
      validUntil: "2027-01-01T00:00:00Z",
    });
    const text = readFileSync(r.file_path, "utf8");
    const yaml = parseYaml(text.slice(4, text.indexOf("\n---", 4))) as Record<string, unknown>;
    const page = readPage(m.store, r.file_path);
    expect(Object.keys(yaml)).toEqual([...PAGE_KEYS]);
    for (const key of PAGE_KEYS) {
      if (key === "okf_version") expect(yaml[key]).toBe("0.2");
      else expect(yaml[key]).toEqual(page[key] as unknown);
    }
  });

  test("content_hash is sha256 of the body; timestamp moves on every write, updated_at only when the body changes", () => {
    using m = memStore();
    const first = put(m.store, { title: "Deploys", body: "Fridays only." });
    m.clock.now = T0 + 60_000;
    put(m.store, { title: "Deploys", body: "Fridays only.", slug: first.slug, tags: ["new"] });
    let page = readPage(m.store, first.file_path);
    expect(page.content_hash).toBe(`sha256:${createHash("sha256").update("Fridays only.").digest("hex")}`);
    expect(page.timestamp).toBe("2026-11-30T12:01:00Z");
    expect(page.updated_at).toBe("2026-11-30T12:00:00Z");
    expect(page.tags).toEqual(["new"]);
    m.clock.now = T0 + 120_000;
    put(m.store, { title: "Deploys", body: "Thursdays now.", slug: first.slug });
    page = readPage(m.store, first.file_path);
    expect(page.updated_at).toBe("2026-11-30T12:02:00Z");
    expect(page.id).toBe(first.id);
    expect(page.created).toBe("2026-11-30T12:00:00Z");
  });

  test("an unknown key is a malformed page: named by verify, skipped by rebuild, never crashing recall", () => {
    using m = memStore();
    const good = put(m.store, { title: "Kafka", body: "We chose Kafka for ordering." });
    const bad = put(m.store, { title: "Kafka too", body: "Kafka again." });
    const text = readFileSync(bad.file_path, "utf8").replace("resource: null\n", 'resource: null\nowner: "sam"\n');
    writeFileSync(bad.file_path, text);
    const v = verify(m.store);
    const parse = v.checks.find((c) => c.check === "wiki-parseable");
    expect(parse?.ok).toBe(false);
    expect(parse?.detail).toContain("docs/global/entities/kafka-too.md");
    const r = rebuildIndex(m.store, { force: true });
    expect(r.nodes_errored).toBe(1);
    expect(r.errors[0]).toContain("line 7: unknown front matter key `owner`");
    const hits = recall(m.store, { query: "kafka" }).hits.map((h) => h.slug);
    expect(hits).toEqual([good.slug]);
  });

  test.each([
    ["a wrong okf_version", 'okf_version: "0.2"', 'okf_version: "0.3"', /okf_version/],
    ["importance out of range", "importance: 0.5", "importance: 2.0", /importance/],
    ["a bad status", 'status: "active"', 'status: "gone"', /status must be one of/],
    ["a bad timestamp", 'timestamp: "2026-11-30T12:00:00Z"', 'timestamp: "yesterday"', /timestamp/],
    ["a type in the wrong folder", 'type: "entity"', 'type: "preference"', /does not belong/],
  ])("%s is refused with a reason", (_, from, to, reason) => {
    using m = memStore();
    const r = put(m.store, { title: "Page" });
    writeFileSync(r.file_path, readFileSync(r.file_path, "utf8").replace(from, to));
    expect(() => readPage(m.store, r.file_path)).toThrow(reason);
  });
});

describe("descriptions", () => {
  test("one line of at most 512 UTF-8 bytes; longer or multi-line is refused before anything is written", () => {
    using m = memStore();
    const fits = "é".repeat(256);
    expect(put(m.store, { title: "Fits", description: fits }).slug).toBe("fits");
    expect(readPage(m.store, join(m.dir.path, "docs/global/entities/fits.md")).description).toBe(fits);
    expect(() => put(m.store, { title: "Too long", description: `${fits}e` })).toThrow(
      "description must stay within 512 UTF-8 bytes",
    );
    expect(() => put(m.store, { title: "Two lines", description: "when deploying\nand when not" })).toThrow(
      /description must be a single line/,
    );
    expect(recall(m.store, { query: "long lines" }).total_indexed).toBe(1);
    expect(existsSync(join(m.dir.path, "docs/global/entities/too-long.md"))).toBe(false);
    expect(existsSync(join(m.dir.path, "docs/global/entities/two-lines.md"))).toBe(false);
  });
});

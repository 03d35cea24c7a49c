import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rebuildIndex } from "../../src/memory/pages/rebuild.ts";
import { verify } from "../../src/memory/pages/verify.ts";
import { recall } from "../../src/memory/recall/recall.ts";
import { memStore, put, T0 } from "./helpers.ts";

const failing = (r: ReturnType<typeof verify>) => r.checks.filter((c) => !c.ok).map((c) => c.check);
const detail = (r: ReturnType<typeof verify>, check: string) => r.checks.find((c) => c.check === check)?.detail;

describe("verify", () => {
  test("a healthy store passes every check", () => {
    using m = memStore();
    put(m.store, { title: "A", body: "See [[b]]." });
    put(m.store, { title: "B" });
    const r = verify(m.store);
    expect(r.ok).toBe(true);
    expect(r.checks.map((c) => c.check)).toEqual([
      "wiki-parseable",
      "index-fresh",
      "links-resolve",
      "okf-parent-resolves",
      "okf-parent-acyclic",
      "okf-relations-resolve",
      "okf-validity-ordered",
      "okf-stale-in-window",
      "types-match-directory",
      "types-declared",
      "draft-types-pending",
      "navigation-consistent",
      "no-symlinks",
    ]);
  });

  test("a hand edit the index has not seen fails index-fresh until rebuild", () => {
    using m = memStore();
    const r = put(m.store, { title: "A", body: "Old." });
    writeFileSync(r.file_path, readFileSync(r.file_path, "utf8").replace("Old.", "New."));
    expect(failing(verify(m.store))).toEqual(["index-fresh"]);
    rebuildIndex(m.store);
    expect(verify(m.store).ok).toBe(true);
  });

  test("broken links, unresolved and cyclic parents, inverted windows and stale_after outside the window", () => {
    using m = memStore();
    put(m.store, { title: "Linker", body: "See [[nowhere]]." });
    put(m.store, { title: "Child", parent: "missing-parent" });
    put(m.store, { title: "Loop a", parent: "loop-b" });
    put(m.store, { title: "Loop b", parent: "loop-a" });
    put(m.store, { title: "Related", links: [{ target: "ghost", rel: "relates-to" }] });
    // Windows like these are refused on a write; a page can still carry one (by hand, or carried in whole).
    const kept = { window: "kept" as const };
    put(m.store, { title: "Inverted", validFrom: "2027-01-01T00:00:00Z", ...kept });
    const inverted = join(m.dir.path, "docs/global/entities/inverted.md");
    writeFileSync(inverted, readFileSync(inverted, "utf8").replace("valid_until: null", 'valid_until: "2026-01-01"'));
    put(m.store, {
      title: "Stale",
      validFrom: "2026-01-01",
      validUntil: "2026-06-01",
      staleAfter: "2027-01-01",
      ...kept,
    });
    rebuildIndex(m.store);
    const r = verify(m.store);
    expect(r.ok).toBe(false);
    expect(failing(r)).toEqual([
      "links-resolve",
      "okf-parent-resolves",
      "okf-parent-acyclic",
      "okf-relations-resolve",
      "okf-validity-ordered",
      "okf-stale-in-window",
    ]);
    expect(detail(r, "links-resolve")).toBe("1 broken links: linker");
    expect(detail(r, "okf-parent-acyclic")).toBe("2 parent cycles: loop-a, loop-b");
  });

  test("details stay bounded: a count and at most three names", () => {
    using m = memStore();
    for (let i = 0; i < 5; i++) put(m.store, { title: `L${i}`, body: "[[nowhere]]" });
    expect(detail(verify(m.store), "links-resolve")).toBe("5 broken links: l0, l1, l2");
  });

  test("missing, stale and orphaned navigation fail; rebuild repairs it; a hand-written index.md is never overwritten", () => {
    using m = memStore();
    const a = put(m.store, { title: "A" });
    put(m.store, { type: "preference", title: "P" });
    rmSync(join(m.dir.path, "docs/global/entities/index.md"));
    writeFileSync(join(m.dir.path, "docs/global/preferences/index.md"), "# global/preferences\n");
    rmSync(join(m.dir.path, "docs/projects"), { recursive: true, force: true });
    writeFileSync(join(m.dir.path, "docs/global/summaries/index.md"), "# global/summaries\n");
    const r = verify(m.store);
    expect(detail(r, "navigation-consistent")).toBe(
      "missing=1 stale=1 orphan=1: global/entities/index.md; global/preferences/index.md; global/summaries/index.md",
    );
    rebuildIndex(m.store);
    expect(verify(m.store).ok).toBe(true);
    const legacy = '---\nokf_version: "0.2"\ntype: "entity"\n---\n\nhand written\n';
    writeFileSync(join(m.dir.path, "docs/global/entities/index.md"), legacy);
    put(m.store, { title: "A2" });
    expect(readFileSync(join(m.dir.path, "docs/global/entities/index.md"), "utf8")).toBe(legacy);
    expect(detail(verify(m.store), "navigation-consistent")).toContain("collision=1");
    expect(a.slug).toBe("a");
  });

  test("--since reports recall and write evidence; --require-* turns its absence into failure", () => {
    using m = memStore();
    put(m.store, { title: "Old", body: "Lynx." });
    m.clock.now = T0 + 86_400_000;
    const since = "2026-12-01T00:00:00Z";
    let r = verify(m.store, { since, requireRecall: true, requireWrite: true });
    expect(r.ok).toBe(false);
    expect(r.warnings).toEqual([`no recall activity recorded since ${since}`, `no memory writes since ${since}`]);
    recall(m.store, { query: "lynx" });
    put(m.store, { title: "New" });
    r = verify(m.store, { since, requireRecall: true, requireWrite: true });
    expect([r.ok, r.recall_evidence, r.write_evidence]).toEqual([true, true, true]);
  });

  test("stale_after is advisory: a warning, never a failure", () => {
    using m = memStore();
    put(m.store, { title: "Aging", staleAfter: "2026-01-01T00:00:00Z" });
    const r = verify(m.store);
    expect(r.ok).toBe(true);
    expect(r.warnings).toEqual(["1 pages past stale_after: aging"]);
  });
});

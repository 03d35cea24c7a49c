import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { explicitProject } from "../../src/memory/format/project.ts";
import { info, status } from "../../src/memory/pages/status.ts";
import { readPage } from "../../src/memory/pages/store.ts";
import { ingestTranscript } from "../../src/memory/pages/transcripts.ts";
import { verify } from "../../src/memory/pages/verify.ts";
import { exportNodes, importNodes } from "../../src/memory/portability/export.ts";
import { recall } from "../../src/memory/recall/recall.ts";
import { addType, enableType, listTypes } from "../../src/memory/types/manage.ts";
import { run } from "../../src/seams/cli/index.ts";
import { fakeHome, tempDir, testContext } from "../support/index.ts";
import { hex, memStore, P1, put } from "./helpers.ts";

const SHOP = hex("shop");

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

describe("watch, status and info", () => {
  test("watch --once picks up a page edited by hand", async () => {
    const dir = home.join("watched");
    const write = testContext(home, {
      args: ["memory", "--dir", dir, "write", "--type", "entity", "--title", "Otter", "--body", "River animal."],
    });
    expect(await run(write.ctx)).toBe(0);
    const file = join(dir, "docs/global/entities/otter.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("River animal.", "Sea otters use kelp."));
    const w = testContext(home, { args: ["memory", "watch", "--once", "--json", "--dir", dir] });
    expect(await run(w.ctx)).toBe(0);
    expect(JSON.parse(w.io.stdout())).toMatchObject({ nodes_indexed: 1, nodes_errored: 0 });
    const r = testContext(home, { args: ["memory", "recall", "kelp", "--json", "--dir", dir] });
    await run(r.ctx);
    expect(JSON.parse(r.io.stdout()).hits[0].slug).toBe("otter");
  });

  test("status counts statuses, freshness and the last capture per harness; info counts what is held", () => {
    using m = memStore();
    put(m.store, { title: "A" });
    put(m.store, { title: "B", status: "pending" });
    ingestTranscript(m.store, {
      sessionId: "s1",
      jsonl: '{"role":"user","content":"x","turn":1}',
      source: "t",
      harness: "codex",
    });
    const s = status(m.store);
    expect(s.statuses).toEqual({ active: 2, pending: 1, superseded: 0, archived: 0 });
    expect(s.index).toMatchObject({ fresh: true, rows: 3, pages_on_disk: 3 });
    expect(s.last_capture).toEqual({ codex: "2026-11-30T12:00:00Z" });
    writeFileSync(
      join(m.dir.path, "docs/global/entities/hand.md"),
      readFileSync(join(m.dir.path, "docs/global/entities/a.md")),
    );
    expect(status(m.store).index).toMatchObject({ fresh: false, missing: 1 });
    const i = info(m.store);
    expect(i).toMatchObject({ pages: 4, by_type: { entity: 3, episode: 1 }, transcripts: 1 });
    expect(i.index.exists).toBe(true);
  });
});

describe("export and import", () => {
  test("an export imports into an empty store with the same pages, ids and projects", () => {
    using a = memStore();
    using b = memStore();
    using out = tempDir("memnox-export");
    const project = explicitProject(SHOP, "shop", "shop");
    enableType(a.store, project, "decision", "sam");
    const g = put(a.store, {
      title: "Kafka",
      body: "Ordering. [[queue]]",
      tags: ["q"],
      description: "When picking a queue.",
    });
    put(a.store, { type: "decision", title: "Choose Kafka", scope: "project", project });
    const e = exportNodes(a.store, out.join("nodes.json"));
    expect(e.nodes).toBe(2);
    expect(Object.keys(e.doc)).toEqual(["version", "exported_at", "types", "nodes"]);
    expect(e.doc.version).toBe("1.0");
    enableType(b.store, project, "decision", "sam");
    const r = importNodes(b.store, readFileSync(out.join("nodes.json"), "utf8"), "nodes.json");
    expect(r).toEqual({ imported: 2, skipped: [], errors: [], types_declared: 0, redacted: [] });
    const copy = readPage(b.store, join(b.dir.path, "docs/global/entities/kafka.md"));
    expect(copy).toMatchObject({
      id: g.id,
      tags: ["q"],
      description: "When picking a queue.",
      body: "Ordering. [[queue]]",
    });
    expect(
      recall(b.store, { query: "choose kafka", scope: { kind: "project", projectId: SHOP } }).hits[0]?.file_path,
    ).toBe(join(b.dir.path, "docs/projects/shop/decision/choose-kafka.md"));
  });

  test("invalid entries are skipped and named; the rest are written", () => {
    using m = memStore();
    const doc = {
      nodes: [
        { slug: "ok", type: "entity", title: "Ok", body: "fine", scope: "global" },
        { slug: "no-title", type: "entity", body: "x", scope: "global" },
        { slug: "undeclared", type: "policy", title: "P", body: "x", scope: "project", project_id: P1 },
        { slug: "bad-scope", type: "entity", title: "B", body: "x", scope: "team" },
        { type: "entity", title: "No slug", body: "x" },
        "not an object",
      ],
    };
    const r = importNodes(m.store, JSON.stringify(doc), "doc.json");
    expect(r.imported).toBe(1);
    expect(r.skipped).toEqual(["No slug"]);
    expect(r.errors).toEqual([
      "no-title: node title must be a non-empty string",
      "undeclared: undeclared type 'policy' for this project; run memex types add or memex types enable",
      "bad-scope: scope must be 'global' or 'project'",
      "non-object node entry skipped",
    ]);
    expect(() => importNodes(m.store, "{}", "doc.json")).toThrow("import document must contain a 'nodes' array");
    expect(() => importNodes(m.store, "{", "doc.json")).toThrow(/^cannot read import file: /);
  });

  test("the export carries the type declarations, so a custom type's pages import into a store that never had it", () => {
    using a = memStore();
    using b = memStore();
    using out = tempDir("memnox-export");
    const project = explicitProject(SHOP, "shop", "shop");
    addType(a.store, project, "access-matrix", "Who can edit what", "sam");
    enableType(a.store, project, "decision", "sam");
    put(a.store, { type: "access-matrix", title: "Billing editors", scope: "project", project });
    exportNodes(a.store, out.join("nodes.json"));
    const doc = JSON.parse(readFileSync(out.join("nodes.json"), "utf8"));
    expect(doc.types).toEqual([
      { scope: "project", project_id: SHOP, name: "access-matrix", kind: "custom", description: "Who can edit what" },
      {
        scope: "project",
        project_id: SHOP,
        name: "decision",
        kind: "catalogue",
        description: "what was chosen, when, and why",
      },
    ]);
    const r = importNodes(b.store, readFileSync(out.join("nodes.json"), "utf8"), "nodes.json");
    expect(r).toMatchObject({ imported: 1, types_declared: 2, skipped: [], errors: [] });
    expect(listTypes(b.store, project).find((t) => t.name === "access-matrix")).toMatchObject({
      kind: "custom",
      description: "Who can edit what",
      pages: 1,
    });
  });

  test("typed links on import read as memex reads them: titles slugged, relations normalized, bad ones reported", () => {
    using m = memStore();
    const page = (slug: string, links: unknown) => ({
      slug,
      type: "entity",
      title: slug,
      body: "x",
      scope: "global",
      links,
    });
    const doc = {
      nodes: [
        page("good", [{ target: "other", rel: "depends-on" }]),
        page("bad-target", [{ target: "Not A Slug", rel: "relates-to" }]),
        page("bad-rel", [{ target: "other", rel: "two words" }]),
        page("extra-key", [{ target: "other", rel: "x", weight: 2 }]),
        page("no-rel", [{ target: "other" }]),
        page("twice", [
          { target: "other", rel: "x" },
          { target: "other", rel: "x" },
        ]),
      ],
    };
    const r = importNodes(m.store, JSON.stringify(doc), "doc.json");
    expect(r.imported).toBe(4);
    expect(r.errors).toEqual([
      "extra-key: link has unsupported fields: ['weight']",
      "twice: links must be unique on (target, rel)",
    ]);
    expect(readPage(m.store, join(m.dir.path, "docs/global/entities/bad-target.md")).links).toEqual([
      { target: "not-a-slug", rel: "relates-to" },
    ]);
    expect(readPage(m.store, join(m.dir.path, "docs/global/entities/bad-rel.md")).links).toEqual([
      { target: "other", rel: "two-words" },
    ]);
    expect(existsSync(join(m.dir.path, "docs/global/entities/twice.md"))).toBe(false);
  });
});

describe("symlinks inside the store", () => {
  test("are refused on write and named by verify", () => {
    using m = memStore();
    using elsewhere = tempDir("memnox-elsewhere");
    const project = explicitProject(P1, "p", "p");
    put(m.store, { title: "Seed", scope: "project", project });
    mkdirSync(join(m.dir.path, "docs/projects/p"), { recursive: true });
    symlinkSync(elsewhere.path, join(m.dir.path, "docs/projects/p/procedures"));
    expect(() => put(m.store, { type: "procedure", title: "Escape", scope: "project", project })).toThrow(
      /is a symlink/,
    );
    const v = verify(m.store);
    expect(v.checks.find((c) => c.check === "no-symlinks")).toMatchObject({
      ok: false,
      detail: "1 symlinked paths: docs/projects/p/procedures",
    });
  });
});

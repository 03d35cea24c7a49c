// Links are indexed both ways: a page's backlinks name what mentions or links to it, in the namespace it resolves in.
import { describe, expect, test } from "bun:test";
import { explicitProject } from "../../src/memory/format/project.ts";
import { backlinks } from "../../src/memory/pages/backlinks.ts";
import { memStore, put } from "./helpers.ts";

const A = explicitProject("aaaaaaaaaaaaaaaaaaaaaaa1", "a", "a");
const B = explicitProject("bbbbbbbbbbbbbbbbbbbbbbb2", "b", "b");

describe("backlinks", () => {
  test("a [[slug]] mention and a typed link both point back, each with its relation", () => {
    using m = memStore();
    put(m.store, { title: "Python 3.12" });
    put(m.store, { title: "Ruff linter", body: "Fast linter. Needs [[Python 3.12]]." });
    put(m.store, { title: "uv", body: "Installer.", links: [{ target: "python-3-12", rel: "depends_on" }] });
    put(m.store, { title: "Unrelated", body: "Nothing here." });
    const r = backlinks(m.store, "python-3-12");
    expect(r.backlinks.map((b) => [b.slug, b.rel])).toEqual([
      ["ruff-linter", "mentions"],
      ["uv", "depends_on"],
    ]);
    expect(backlinks(m.store, "unrelated").backlinks).toEqual([]);
  });

  test("an edit that drops the mention drops the backlink", () => {
    using m = memStore();
    put(m.store, { title: "Kafka" });
    put(m.store, { title: "Queue choice", body: "We chose [[kafka]]." });
    expect(backlinks(m.store, "kafka").backlinks.map((b) => b.slug)).toEqual(["queue-choice"]);
    put(m.store, { title: "Queue choice", slug: "queue-choice", body: "We chose a queue." });
    expect(backlinks(m.store, "kafka").backlinks).toEqual([]);
  });

  test("a project's own page of that slug takes its mentions; a project without one links to the global page", () => {
    using m = memStore();
    put(m.store, { title: "Deploy" });
    put(m.store, { title: "Deploy", scope: "project", project: B });
    put(m.store, { title: "Release A", body: "See [[deploy]].", scope: "project", project: A });
    put(m.store, { title: "Release B", body: "See [[deploy]].", scope: "project", project: B });
    const global = backlinks(m.store, "deploy", { scope: "global" });
    expect(global.backlinks.map((b) => [b.slug, b.project_id])).toEqual([["release-a", "aaaaaaaaaaaaaaaaaaaaaaa1"]]);
    const own = backlinks(m.store, "deploy", { scope: "project", projectId: "bbbbbbbbbbbbbbbbbbbbbbb2" });
    expect(own.backlinks.map((b) => [b.slug, b.project_id])).toEqual([["release-b", "bbbbbbbbbbbbbbbbbbbbbbb2"]]);
  });
});

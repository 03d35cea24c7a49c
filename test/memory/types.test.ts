import { describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describeError } from "../../src/core/errors.ts";
import { explicitProject } from "../../src/memory/format/project.ts";
import { readPage } from "../../src/memory/pages/store.ts";
import { recall } from "../../src/memory/recall/recall.ts";
import {
  addType,
  enableType,
  listTypes,
  proposeType,
  removeType,
  suggestTypes,
} from "../../src/memory/types/manage.ts";
import { hex, memStore, put } from "./helpers.ts";

const project = explicitProject(hex("shop"), "shop", "shop");
const inProject = { scope: "project" as const, project };

describe("types", () => {
  test("an undeclared type is refused before anything is written, naming the remedy", () => {
    using m = memStore();
    let said = "";
    try {
      put(m.store, { type: "policy", title: "No PII", ...inProject });
    } catch (e) {
      said = describeError(e);
    }
    expect(said).toBe(
      "undeclared type 'policy' for this project; run memex types add or memex types enable (memnox memory types add policy, or memnox memory types enable policy for a catalogue type)",
    );
    expect(existsSync(join(m.dir.path, "docs/projects"))).toBe(false);
    expect(() => put(m.store, { type: "decision", title: "Global decision" })).toThrow(
      "undeclared type 'decision': global scope holds the built-in types only",
    );
  });

  test("enable turns on a catalogue type; the directory is the declaration and log.md its history", () => {
    using m = memStore();
    const t = enableType(m.store, project, "decision", "sam");
    expect(t).toMatchObject({
      name: "decision",
      kind: "catalogue",
      description: "what was chosen, when, and why",
      pages: 0,
    });
    expect(t.directory).toBe(join(m.dir.path, "docs/projects/shop/decision"));
    const r = put(m.store, {
      type: "decision",
      title: "Choose Kafka",
      body: "Kafka over RabbitMQ for ordering.",
      ...inProject,
    });
    expect(r.file_path).toBe(join(m.dir.path, "docs/projects/shop/decision/choose-kafka.md"));
    expect(readFileSync(join(t.directory, "log.md"), "utf8")).toBe(
      "2026-11-30T12:00:00Z declare decision by sam: what was chosen, when, and why\n",
    );
    const names = listTypes(m.store, project).map((x) => [x.name, x.kind, x.pages]);
    expect(names).toEqual([
      ["entity", "builtin", 0],
      ["preference", "builtin", 0],
      ["procedure", "builtin", 0],
      ["summary", "builtin", 0],
      ["episode", "builtin", 0],
      ["decision", "catalogue", 1],
    ]);
    expect(() => enableType(m.store, project, "access-matrix", "sam")).toThrow(
      "'access-matrix' is not a catalogue type; run memex types add",
    );
    expect(() => addType(m.store, project, "policy", "", "sam")).toThrow(
      "'policy' is a catalogue type; run memex types enable",
    );
  });

  test("add declares a custom type; declaring one twice is refused as already existing, and adds no second line", () => {
    using m = memStore();
    const t = addType(m.store, project, "access-matrix", "Who can edit what", "sam");
    expect(t).toMatchObject({ kind: "custom", description: "Who can edit what" });
    expect(() => addType(m.store, project, "access-matrix", "again", "sam")).toThrow(
      "type 'access-matrix' is already declared",
    );
    enableType(m.store, project, "rule", "sam");
    expect(() => enableType(m.store, project, "rule", "sam")).toThrow("type 'rule' is already declared");
    expect(readFileSync(join(m.dir.path, "docs/projects/shop/rule/log.md"), "utf8").match(/ declare /g)).toHaveLength(
      1,
    );
    expect(readFileSync(join(t.directory, "log.md"), "utf8").match(/ declare /g)).toHaveLength(1);
    for (const name of ["entities", "entity"])
      expect(() => addType(m.store, project, name, "", "sam")).toThrow(
        `type name '${name}' is already a built-in, catalogue, or reserved name`,
      );
  });

  test("a line of another shape in log.md is a note: it can neither forge nor hide a declaration", () => {
    using m = memStore();
    const t = addType(m.store, project, "runbook", "", "sam");
    appendFileSync(
      join(t.directory, "log.md"),
      "- someone withdrew runbook yesterday\n2026-11-30T13:00:00Z remove runbook\nremove runbook by sam\n2026-11-30T13:00:00Z remove other by sam\n",
    );
    expect(listTypes(m.store, project).find((x) => x.name === "runbook")?.kind).toBe("custom");
    put(m.store, { type: "runbook", title: "Restart", ...inProject });
  });

  test("remove refuses while pages exist, --force archives them, and withdrawal is a state that add reverses", () => {
    using m = memStore();
    enableType(m.store, project, "policy", "sam");
    const r = put(m.store, { type: "policy", title: "No PII in logs", ...inProject });
    expect(() => removeType(m.store, project, "policy", { force: false, by: "sam" })).toThrow(
      "type 'policy' holds 1 page(s); pass --force to archive them first",
    );
    const out = removeType(m.store, project, "policy", { force: true, by: "sam" });
    expect(out).toEqual({ removed: "policy", archived: 1 });
    expect(() => removeType(m.store, project, "policy", { force: true, by: "sam" })).toThrow(
      "type 'policy' is already withdrawn",
    );
    expect(() => removeType(m.store, project, "runbook", { force: true, by: "sam" })).toThrow(
      "type 'runbook' is not declared for this project",
    );
    expect(readPage(m.store, r.file_path).status).toBe("archived");
    expect(listTypes(m.store, project).find((x) => x.name === "policy")?.kind).toBe("withdrawn");
    expect(() => put(m.store, { type: "policy", title: "Another", ...inProject })).toThrow(/withdrawn/);
    expect(enableType(m.store, project, "policy", "sam").kind).toBe("catalogue");
    expect(
      readFileSync(join(m.dir.path, "docs/projects/shop/policy/log.md"), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(" ").slice(1).join(" ")),
    ).toEqual([
      "declare policy by sam: a principle that guides judgment",
      "remove policy by sam: archived=1",
      "declare policy by sam: a principle that guides judgment",
    ]);
  });

  test("a draft type's pages are pending, invisible to recall until accepted and approved", () => {
    using m = memStore();
    proposeType(m.store, project, "story-map", "consolidate", "nominated");
    expect(listTypes(m.store, project).find((x) => x.name === "story-map")?.kind).toBe("draft");
    const r = put(m.store, { type: "story-map", title: "Checkout journey", body: "Checkout steps.", ...inProject });
    expect(r.status).toBe("pending");
    expect(recall(m.store, { query: "checkout" }).hits).toEqual([]);
    expect(addType(m.store, project, "story-map", "Journeys", "sam").kind).toBe("custom");
  });

  test("suggest lists tags on at least --min-pages pages that are not types yet, with counts", () => {
    using m = memStore();
    enableType(m.store, project, "decision", "sam");
    for (const [i, tags] of [["billing", "decision"], ["billing"], ["billing", "ux"], ["ux"]].entries())
      put(m.store, { title: `Page ${i}`, tags, ...inProject });
    put(m.store, { title: "Global", tags: ["billing"] });
    const named = (tag: string, pages: number) => ({ tag, pages, command: `memnox memory types add ${tag}` });
    expect(suggestTypes(m.store, project)).toEqual([named("billing", 3)]);
    expect(suggestTypes(m.store, project, 2)).toEqual([named("billing", 3), named("ux", 2)]);
  });
});

// The checks the memex guide states, each refused before anything is written: the store is unchanged afterwards.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeError } from "../../src/core/errors.ts";
import { explicitProject } from "../../src/memory/format/project.ts";
import { approve, forget, merge } from "../../src/memory/pages/lifecycle.ts";
import { readPage } from "../../src/memory/pages/store.ts";
import { writePage } from "../../src/memory/pages/write.ts";
import { addType, enableType, listTypes, removeType } from "../../src/memory/types/manage.ts";
import { memStore, put } from "./helpers.ts";

const project = explicitProject("shop-1", "shop", "shop");
const inProject = { scope: "project" as const, project };

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return describeError(e);
  }
  return "";
}

/** Every page file in the store, so a test can show a refusal wrote nothing. */
function pageFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith(".md") && e.name !== "index.md" && e.name !== "log.md") out.push(e.name);
    }
  };
  walk(join(root, "docs"));
  return out.sort();
}

describe("write validation", () => {
  test("an impossible date is refused as not a valid date, a malformed one by its shape; nothing is written", () => {
    using m = memStore();
    expect(refusal(() => put(m.store, { title: "Feb", validFrom: "2026-02-30" }))).toBe(
      "valid_from is not a valid date: 2026-02-30",
    );
    expect(refusal(() => put(m.store, { title: "Feb", validUntil: "2026-02-29T10:00:00Z" }))).toMatch(
      /not a valid date/,
    );
    expect(refusal(() => put(m.store, { title: "Hour", staleAfter: "2026-03-01T24:00:00Z" }))).toMatch(
      /not a valid date/,
    );
    expect(refusal(() => put(m.store, { title: "Shape", validFrom: "next tuesday" }))).toMatch(
      /must be an ISO8601 UTC string like 2026-09-15T10:00:00Z/,
    );
    expect(pageFiles(m.dir.path)).toEqual([]);
    put(m.store, { title: "Leap", validFrom: "2028-02-29" });
    expect(pageFiles(m.dir.path)).toEqual(["leap.md"]);
  });

  test("duplicate tags (after lowercasing) and duplicate links are refused, not silently folded", () => {
    using m = memStore();
    expect(refusal(() => put(m.store, { title: "Tags", tags: ["a", "a"] }))).toMatch(/tags must be unique/);
    expect(refusal(() => put(m.store, { title: "Tags", tags: ["Deploy", "deploy"] }))).toMatch(/tags must be unique/);
    const twice = [
      { target: "x", rel: "relates-to" },
      { target: "x", rel: "relates-to" },
    ];
    expect(refusal(() => put(m.store, { title: "Links", links: twice }))).toMatch(/links must be unique/);
    expect(refusal(() => put(m.store, { title: "Sup", supersedes: ["a", "a"] }))).toMatch(/supersedes must be unique/);
    expect(pageFiles(m.dir.path)).toEqual([]);
    const ok = put(m.store, {
      title: "Links",
      links: [
        { target: "x", rel: "relates-to" },
        { target: "x", rel: "depends-on" },
      ],
    });
    expect(readPage(m.store, ok.file_path).links).toHaveLength(2);
  });

  test("a description that fits but grows past 512 bytes once redacted is refused, with the reason", () => {
    using m = memStore();
    // `redis://h` is 9 bytes and its marker `[REDACTED:db_url]` 17: forty of them fit as given and not as stored.
    const description = Array.from({ length: 40 }, () => ["redis", "://h"].join("")).join(" ");
    expect(new TextEncoder().encode(description).length).toBeLessThanOrEqual(512);
    expect(refusal(() => put(m.store, { title: "Cache", description }))).toBe(
      "description exceeds 512 UTF-8 bytes after secret redaction; shorten the description",
    );
    expect(pageFiles(m.dir.path)).toEqual([]);
  });

  test("a project_id that is not an opaque id, and a project_label that is a path or address, are refused", () => {
    using m = memStore();
    for (const id of ["github.com:acme/shop", "Shop", "a b", "../up", "x@y"])
      expect(refusal(() => explicitProject(id))).toMatch(/invalid project_id/);
    for (const label of ["acme/shop", "C:\\repo", "https://x", "me@host", "  "])
      expect(refusal(() => explicitProject("shop-1", label))).toMatch(/project_label must be a plain display name/);
    const derived = { id: "git-0123456789abcdef", label: "acme/shop", locator: "git-shop" };
    expect(refusal(() => put(m.store, { title: "P", scope: "project", project: derived }))).toMatch(/project_label/);
    expect(pageFiles(m.dir.path)).toEqual([]);
  });
});

describe("type validation", () => {
  test("a name outside the rule is refused naming the rule; declaring an existing type says it already exists", () => {
    using m = memStore();
    expect(refusal(() => addType(m.store, project, "Bad_Name", "", "sam"))).toMatch(
      /invalid type name `Bad_Name`.*lowercase letters, digits and `-`/,
    );
    expect(refusal(() => addType(m.store, project, "index", "", "sam"))).toMatch(/invalid type name/);
    expect(refusal(() => addType(m.store, project, "preference", "", "sam"))).toMatch(/already exists/);
    addType(m.store, project, "runbook", "How we restart things", "sam");
    expect(refusal(() => addType(m.store, project, "runbook", "again", "sam"))).toBe(
      "type `runbook` already exists for this project (custom) (memnox memory types list shows the project's types)",
    );
    enableType(m.store, project, "decision", "sam");
    expect(refusal(() => enableType(m.store, project, "decision", "sam"))).toMatch(/already exists/);
    expect(existsSync(join(m.dir.path, "docs/projects/shop/Bad_Name"))).toBe(false);
  });

  test("a multi-line type description is refused and no directory is made", () => {
    using m = memStore();
    expect(refusal(() => addType(m.store, project, "story-map", "Journeys\nand more", "sam"))).toMatch(/single line/);
    expect(existsSync(join(m.dir.path, "docs/projects/shop/story-map"))).toBe(false);
  });

  test("a stray directory whose name no type can have declares nothing: not listed, not writable", () => {
    using m = memStore();
    addType(m.store, project, "runbook", "", "sam");
    mkdirSync(join(m.dir.path, "docs/projects/shop/Notes Folder"), { recursive: true });
    writeFileSync(join(m.dir.path, "docs/projects/shop/story-map"), "a file, not a directory");
    const names = listTypes(m.store, project).map((t) => t.name);
    expect(names).toContain("runbook");
    expect(names).not.toContain("Notes Folder");
    expect(names).not.toContain("story-map");
    expect(refusal(() => put(m.store, { type: "story-map", title: "Journey", ...inProject }))).toMatch(
      /undeclared type `story-map`/,
    );
  });

  test("a removal line withdraws the type for a fresh reader: listed withdrawn, writes refused, add brings it back", () => {
    using m = memStore();
    addType(m.store, project, "runbook", "", "sam");
    removeType(m.store, project, "runbook", { force: false, by: "sam" });
    const log = readFileSync(join(m.dir.path, "docs/projects/shop/runbook/log.md"), "utf8");
    expect(log).toMatch(/^- \S+ withdrawn runbook kind=custom project=shop-1 by=sam$/m);
    const fresh = m.reopen();
    expect(listTypes(fresh, project).find((t) => t.name === "runbook")?.kind).toBe("withdrawn");
    expect(refusal(() => put(fresh, { type: "runbook", title: "Restart", ...inProject }))).toMatch(/withdrawn/);
    addType(fresh, project, "runbook", "", "sam");
    expect(put(fresh, { type: "runbook", title: "Restart", ...inProject }).status).toBe("active");
  });
});

describe("lifecycle errors", () => {
  test("`*` and other non-slugs are an invalid slug, never a glob or a path; a missing page says so", () => {
    using m = memStore();
    put(m.store, { title: "Keep me" });
    for (const slug of ["*", "../keep-me", "Keep-Me", ""]) {
      expect(refusal(() => forget(m.store, slug, "hard"))).toMatch(/^invalid slug/);
      expect(refusal(() => approve(m.store, slug))).toMatch(/^invalid slug/);
    }
    expect(refusal(() => forget(m.store, "gone", "hard"))).toMatch(/no memory page `gone`: the page is missing/);
    expect(refusal(() => merge(m.store, "keep-me", "gone"))).toMatch(/the page is missing/);
    expect(pageFiles(m.dir.path)).toEqual(["keep-me.md"]);
  });

  test("approving an active page is refused as already active; a pending one becomes active", () => {
    using m = memStore();
    put(m.store, { title: "Mine" });
    expect(refusal(() => approve(m.store, "mine"))).toMatch(/`mine` is already active/);
    writePage(m.store, { type: "preference", title: "Model", body: "Tabs.", scope: "global", author: "model" });
    expect(approve(m.store, "model").status).toBe("active");
  });

  test("merge keeps the target's body first and in order, then the source's, whatever was written first", () => {
    using m = memStore();
    put(m.store, { title: "Source", body: "Third.\n\nFourth." });
    const t = put(m.store, { title: "Target", body: "First.\n\nSecond.\n" });
    merge(m.store, "target", "source");
    expect(readPage(m.store, t.file_path).body).toBe("First.\n\nSecond.\n\nThird.\n\nFourth.");
    expect(refusal(() => merge(m.store, "target", "source"))).toMatch(/already superseded/);
  });
});

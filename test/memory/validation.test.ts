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
import { hex, memStore, put } from "./helpers.ts";

const SHOP = hex("shop");
const project = explicitProject(SHOP, "shop", "shop");
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
    expect(refusal(() => put(m.store, { title: "Feb", validFrom: "2026-02-30T10:00:00Z" }))).toBe(
      "valid_from is not a valid date: 2026-02-30T10:00:00Z",
    );
    expect(refusal(() => put(m.store, { title: "Feb", validUntil: "2026-02-29T10:00:00Z" }))).toMatch(
      /not a valid date/,
    );
    expect(refusal(() => put(m.store, { title: "Hour", staleAfter: "2026-03-01T24:00:00Z" }))).toMatch(
      /not a valid date/,
    );
    for (const shape of ["next tuesday", "2026-09-15", "2026-09-15T10:00:00.5Z", "2026-09-15T10:00:00+00:00"])
      expect(refusal(() => put(m.store, { title: "Shape", validFrom: shape }))).toBe(
        "valid_from must be an ISO8601 UTC string like 2026-09-15T10:00:00Z",
      );
    expect(pageFiles(m.dir.path)).toEqual([]);
    put(m.store, { title: "Leap", validFrom: "2028-02-29T00:00:00Z" });
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
    for (const id of ["github.com:acme/shop", "Shop", "a b", "../up", "x@y", "shop-1", "abc123", "A".repeat(24)])
      expect(refusal(() => explicitProject(id))).toMatch(
        /^project_id must be an opaque lowercase hexadecimal identifier/,
      );
    expect(explicitProject("0123456789abcdef01234567").id).toBe("0123456789abcdef01234567");
    for (const label of ["acme/shop", "C:\\repo", "https://x", "me@host", "  "])
      expect(refusal(() => explicitProject(SHOP, label))).toMatch(/^project_label must be a plain display name/);
    const derived = { id: hex("acme"), label: "acme/shop", locator: "git-shop" };
    expect(refusal(() => put(m.store, { title: "P", scope: "project", project: derived }))).toMatch(/project_label/);
    expect(pageFiles(m.dir.path)).toEqual([]);
  });
});

describe("type validation", () => {
  test("a name outside the rule is refused naming the rule; declaring an existing type says it already exists", () => {
    using m = memStore();
    expect(refusal(() => addType(m.store, project, "Bad_Name", "", "sam"))).toBe(
      "type name 'Bad_Name' must match [a-z][a-z0-9-]{0,63}",
    );
    for (const taken of ["index", "log", "preference", "entities", "subdirectories"])
      expect(refusal(() => addType(m.store, project, taken, "", "sam"))).toBe(
        `type name '${taken}' is already a built-in, catalogue, or reserved name`,
      );
    addType(m.store, project, "runbook", "How we restart things", "sam");
    expect(refusal(() => addType(m.store, project, "runbook", "again", "sam"))).toBe(
      "type 'runbook' is already declared (memnox memory types list shows the project's types)",
    );
    enableType(m.store, project, "decision", "sam");
    expect(refusal(() => enableType(m.store, project, "decision", "sam"))).toMatch(
      /^type 'decision' is already declared/,
    );
    expect(existsSync(join(m.dir.path, "docs/projects/shop/Bad_Name"))).toBe(false);
  });

  test("a multi-line type description is refused and no directory is made", () => {
    using m = memStore();
    expect(refusal(() => addType(m.store, project, "story-map", "Journeys\nand more", "sam"))).toBe(
      "declaration text must be one line of at most 512 bytes",
    );
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
      /^undeclared type 'story-map' for this project; run memex types add or memex types enable/,
    );
  });

  test("a removal line withdraws the type for a fresh reader: listed withdrawn, writes refused, add brings it back", () => {
    using m = memStore();
    addType(m.store, project, "runbook", "", "sam");
    removeType(m.store, project, "runbook", { force: false, by: "sam" });
    const log = readFileSync(join(m.dir.path, "docs/projects/shop/runbook/log.md"), "utf8");
    expect(log).toBe(
      "2026-11-30T12:00:00Z declare runbook by sam\n2026-11-30T12:00:00Z remove runbook by sam: archived=0\n",
    );
    const fresh = m.reopen();
    expect(listTypes(fresh, project).find((t) => t.name === "runbook")?.kind).toBe("withdrawn");
    expect(refusal(() => put(fresh, { type: "runbook", title: "Restart", ...inProject }))).toMatch(
      /^undeclared type 'runbook': withdrawn; run memex types add or memex types enable to re-declare it/,
    );
    addType(fresh, project, "runbook", "", "sam");
    expect(put(fresh, { type: "runbook", title: "Restart", ...inProject }).status).toBe("active");
  });
});

describe("lifecycle errors", () => {
  test("`*` and other non-slugs are an invalid slug, never a glob or a path; a missing page says so", () => {
    using m = memStore();
    put(m.store, { title: "Keep me" });
    for (const slug of ["*", "../keep-me", "Keep-Me", ""]) {
      expect(refusal(() => forget(m.store, slug, "hard"))).toMatch(/^invalid wiki slug: '/);
      expect(refusal(() => approve(m.store, slug))).toMatch(/^invalid wiki slug: '/);
    }
    expect(refusal(() => forget(m.store, "gone", "hard"))).toMatch(/^no wiki page for slug: 'gone'/);
    expect(refusal(() => merge(m.store, "keep-me", "gone"))).toMatch(/^no wiki page for slug: 'gone'/);
    expect(refusal(() => merge(m.store, "gone", "keep-me"))).toMatch(/^no wiki page for slug: 'gone'/);
    expect(pageFiles(m.dir.path)).toEqual(["keep-me.md"]);
  });

  test("approving an active page is refused as already active; a pending one becomes active", () => {
    using m = memStore();
    put(m.store, { title: "Mine" });
    expect(refusal(() => approve(m.store, "mine"))).toMatch(/^page 'mine' is 'active', not pending/);
    writePage(m.store, { type: "preference", title: "Model", body: "Tabs.", scope: "global", author: "model" });
    expect(approve(m.store, "model").status).toBe("active");
  });

  test("merge keeps the target's body first and in order, then the source's, whatever was written first", () => {
    using m = memStore();
    put(m.store, { title: "Source", body: "Third.\n\nFourth." });
    const t = put(m.store, { title: "Target", body: "First.\n\nSecond.\n" });
    merge(m.store, "target", "source");
    expect(readPage(m.store, t.file_path).body).toBe(
      "First.\n\nSecond.\n\n## Merged from [[source]]\n\nThird.\n\nFourth.",
    );
    expect(refusal(() => merge(m.store, "target", "source"))).toMatch(/already superseded/);
  });
});

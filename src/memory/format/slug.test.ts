import { describe, expect, test } from "bun:test";
import { isPageSlug, slugify, uniqueSlug, wikiLinks } from "./slug.ts";

describe("slugs", () => {
  test.each([
    ["Ruff linter", "ruff-linter"],
    ["  Deploy on Fridays!!  ", "deploy-on-fridays"],
    ["C++ / Rust -- FFI", "c-rust-ffi"],
    ["Ünïcödé", "n-c-d"],
    ["!!!", ""],
  ])("%s -> %s", (title, slug) => expect(slugify(title)).toBe(slug));

  test("at most 64 characters", () => {
    expect(slugify("a".repeat(100))).toHaveLength(64);
  });

  test("collisions get -2, -3, and index and log are never allocated", () => {
    const taken = new Set(["deploy", "deploy-2"]);
    expect(uniqueSlug("deploy", (s) => taken.has(s))).toBe("deploy-3");
    expect(uniqueSlug("fresh", (s) => taken.has(s))).toBe("fresh");
    expect(uniqueSlug("index", () => false)).toBe("index-2");
    expect(uniqueSlug("log", () => false)).toBe("log-2");
  });

  test("[[Ruff Linter]] and [[ruff-linter]] are one edge; order is kept", () => {
    expect(wikiLinks("See [[Ruff Linter]], [[python-3-12]] and [[ruff-linter]]. Not [single].")).toEqual([
      "ruff-linter",
      "python-3-12",
    ]);
  });

  test("page slugs are lowercase, digits and dashes", () => {
    expect(isPageSlug("ruff-linter")).toBe(true);
    expect(isPageSlug("../etc")).toBe(false);
    expect(isPageSlug("Upper")).toBe(false);
  });
});

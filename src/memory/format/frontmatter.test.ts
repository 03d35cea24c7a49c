import { describe, expect, test } from "bun:test";
import { FrontMatterError, floatText, parseFrontMatter, quote, renderFrontMatter, renderLine } from "./frontmatter.ts";

describe("front matter codec", () => {
  test("reads quoted strings, bare numbers, null, flow lists and inline mappings in file order", () => {
    const text = [
      "---",
      'title: "Say \\"hi\\" \\\\ there"',
      "importance: 0.8",
      "access_count: 3",
      "parent: null",
      'tags: ["a", "b, c"]',
      'links: [{target: "x", rel: "relates-to"}, {target: "y", rel: "depends-on"}]',
      "---",
      "",
      "Body [[x]]",
    ].join("\n");
    const { data, lineOf, body } = parseFrontMatter(text);
    expect([...data.keys()]).toEqual(["title", "importance", "access_count", "parent", "tags", "links"]);
    expect(data.get("title")).toBe('Say "hi" \\ there');
    expect(data.get("importance")).toBe(0.8);
    expect(data.get("access_count")).toBe(3);
    expect(data.get("parent")).toBeNull();
    expect(data.get("tags")).toEqual(["a", "b, c"]);
    expect(data.get("links")).toEqual([
      { target: "x", rel: "relates-to" },
      { target: "y", rel: "depends-on" },
    ]);
    expect(lineOf.get("tags")).toBe(6);
    expect(body).toBe("Body [[x]]");
  });

  test.each([
    ["no opening delimiter", "title: x\n---\n", /delimiter/],
    ["no closing delimiter", '---\ntitle: "x"\n', /closing/],
    ["an unquoted string", "---\ntitle: hello\n---\n", /line 2: .*double-quoted/],
    ["a duplicate key", '---\ntitle: "a"\ntitle: "b"\n---\n', /line 3: duplicate key `title`/],
    ["a block list", "---\ntags:\n  - a\n---\n", /line 2: field `tags`/],
    ["an unknown escape", '---\ntitle: "a\\n"\n---\n', /unknown escape/],
    ["an unquoted mapping value", "---\nlinks: [{target: x}]\n---\n", /must be quoted/],
    ["a boolean", "---\ndraft: true\n---\n", /unsupported value/],
  ])("refuses %s, naming the line", (_, text, message) => {
    expect(() => parseFrontMatter(text)).toThrow(FrontMatterError);
    expect(() => parseFrontMatter(text)).toThrow(message);
  });

  test("writes one key per line, floats the way memex's Python prints them, and the body after a blank line", () => {
    const lines = [
      renderLine("title", 'A "b"'),
      renderLine("importance", { raw: floatText(1) }),
      renderLine("ratio", { raw: floatText(0.25) }),
      renderLine("access_count", 0),
      renderLine("parent", null),
      renderLine("tags", []),
      renderLine("links", [{ target: "x", rel: "relates-to" }]),
    ];
    expect(renderFrontMatter(lines, "Body")).toBe(
      [
        "---",
        'title: "A \\"b\\""',
        "importance: 1.0",
        "ratio: 0.25",
        "access_count: 0",
        "parent: null",
        "tags: []",
        'links: [{target: "x", rel: "relates-to"}]',
        "---",
        "",
        "Body",
      ].join("\n"),
    );
    expect(quote("a\\b")).toBe('"a\\\\b"');
  });
});

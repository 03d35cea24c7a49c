import { describe, expect, test } from "bun:test";
import { lineDiff } from "../../../test/support/lines.ts";
import { applyEdits, parseDocument } from "./document.ts";
import type { Edit } from "./edits.ts";
import { nodeValue, ParseFailure, parseJsonc } from "./jsonc.ts";
import { appendJsonc, editJsonc, removeItemJsonc, removeJsonc, setJsonc } from "./jsonc-edit.ts";

const JSONC = `// Cursor's MCP servers
{
  /* the team's */
  "mcpServers": {
    "fs": {
      "command": "npx", // pinned
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/repo"],
    },
    "remote": { "url": "https://example.com/mcp" },
  },
  "other": [1, 2, 3,],
}
`;

describe("the JSONC reader", () => {
  test("reads comments and trailing commas into the same value JSON.parse would give without them", () => {
    expect(nodeValue(parseJsonc(JSONC))).toEqual({
      mcpServers: {
        fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/repo"] },
        remote: { url: "https://example.com/mcp" },
      },
      other: [1, 2, 3],
    });
  });

  test("a repeated key keeps its last value, and __proto__ is an ordinary key", () => {
    expect(nodeValue(parseJsonc('{"a": 1, "a": 2, "__proto__": {"x": 1}}'))).toEqual(
      JSON.parse('{"a": 2, "__proto__": {"x": 1}}'),
    );
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  test("names the line and column of what does not parse", () => {
    const bad = '{\n  "a": 1,\n  "b": [1, 2\n}\n';
    try {
      parseJsonc(bad);
      throw new Error("parsed");
    } catch (e) {
      expect(e).toBeInstanceOf(ParseFailure);
      expect((e as ParseFailure).line).toBe(4);
      expect((e as ParseFailure).column).toBe(1);
    }
    expect(() => parseJsonc('{"a": 1 /* open')).toThrow(/comment is not closed/);
    expect(() => parseJsonc('{"a": "tab\there"}')).toThrow(/control character/);
    expect(() => parseJsonc("{a: 1}")).toThrow(/quoted key/);
  });

  test("json5 mode reads unquoted keys, single quotes, hex and signed numbers", () => {
    const v = nodeValue(
      parseJsonc("{mcp: {servers: {fs: {command: 'npx', n: 0x10, m: +1, k: -.5}}}}", { json5: true }),
    );
    expect(v).toEqual({ mcp: { servers: { fs: { command: "npx", n: 16, m: 1, k: -0.5 } } } });
  });

  test("keeps a byte-order mark and reads past it", () => {
    expect(parseDocument("json", '\uFEFF{"a": 1}')).toEqual({ a: 1 });
    expect(applyEdits("json", '\uFEFF{"a": 1}', [{ op: "set", path: ["a"], value: 2 }], "f")).toBe('\uFEFF{"a": 2}');
  });
});

describe("span edits", () => {
  test("replacing values changes only their own lines and keeps comments, order and one-line style", () => {
    let out = setJsonc(JSONC, ["mcpServers", "fs", "command"], "/opt/memnox");
    out = setJsonc(out, ["mcpServers", "fs", "args"], ["mcp", "proxy", "--", "npx"]);
    expect(lineDiff(JSONC, out)).toEqual({
      removed: [
        '      "command": "npx", // pinned',
        '      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/repo"],',
      ],
      added: ['      "command": "/opt/memnox", // pinned', '      "args": ["mcp", "proxy", "--", "npx"],'],
    });
  });

  test("a multi-line array stays multi-line at the file's indentation", () => {
    const text = '{\n    "args": [\n        "a",\n        "b"\n    ]\n}\n';
    expect(setJsonc(text, ["args"], ["x", "y", "z"])).toBe(
      '{\n    "args": [\n        "x",\n        "y",\n        "z"\n    ]\n}\n',
    );
  });

  test("a new member follows the last one; with trailing commas it gets one too and no old line changes", () => {
    const out = setJsonc(JSONC, ["mcpServers", "memnox-session"], { command: "memnox", args: ["x"] });
    const diff = lineDiff(JSONC, out);
    expect(diff.removed).toEqual([]);
    expect(diff.added).toEqual([
      '    "memnox-session": {',
      '      "command": "memnox",',
      '      "args": [',
      '        "x"',
      "      ]",
      "    },",
    ]);
    expect(parseDocument("json", out)).toMatchObject({ mcpServers: { "memnox-session": { args: ["x"] } } });
  });

  test("without trailing commas the previous member gains one, and that is the only old line that changes", () => {
    const text = '{\n\t"mcpServers": {\n\t\t"a": {"command": "x"}\n\t}\n}';
    const out = setJsonc(text, ["mcpServers", "b"], "y");
    expect(out).toBe('{\n\t"mcpServers": {\n\t\t"a": {"command": "x"},\n\t\t"b": "y"\n\t}\n}');
  });

  test("into an empty object, a one-line object and through missing parents", () => {
    expect(setJsonc('{\n  "mcpServers": {}\n}\n', ["mcpServers", "a"], 1)).toBe(
      '{\n  "mcpServers": {\n    "a": 1\n  }\n}\n',
    );
    expect(setJsonc('{"a": {"b": 1}}', ["a", "c"], [1, 2])).toBe('{"a": {"b": 1, "c": [1, 2]}}');
    expect(setJsonc('{\n  "x": 1\n}', ["mcp", "servers", "s"], { command: "c" })).toBe(
      '{\n  "x": 1,\n  "mcp": {\n    "servers": {\n      "s": {\n        "command": "c"\n      }\n    }\n  }\n}',
    );
    expect(setJsonc("{}", ["a"], "b")).toBe('{\n  "a": "b"\n}');
  });

  test("refuses to edit inside something that is not an object", () => {
    expect(() => setJsonc('{"a": [1]}', ["a", "b"], 1)).toThrow(/`a` is not an object/);
    expect(() => setJsonc("[1]", ["a"], 1)).toThrow(/top level is not an object/);
  });

  test("removing a member takes its lines and fixes the comma it leaves behind", () => {
    const text = '{\n  "a": 1,\n  "b": {\n    "c": 2\n  }\n}\n';
    expect(removeJsonc(text, ["b"])).toBe('{\n  "a": 1\n}\n');
    expect(removeJsonc(text, ["a"])).toBe('{\n  "b": {\n    "c": 2\n  }\n}\n');
    expect(removeJsonc(removeJsonc(text, ["a"]), ["b"])).toBe("{}\n");
    expect(removeJsonc('{"a": 1, "b": 2, "c": 3}', ["b"])).toBe('{"a": 1, "c": 3}');
    expect(removeJsonc('{"a": 1, "b": 2}', ["b"])).toBe('{"a": 1}');
    expect(removeJsonc('{"a": 1, "b": 2}', ["a"])).toBe('{"b": 2}');
    expect(removeJsonc(text, ["nope", "x"])).toBe(text);
  });

  test("removal keeps the file's trailing-comma style and other members' comments", () => {
    const out = removeJsonc(JSONC, ["mcpServers", "remote"]);
    expect(lineDiff(JSONC, out)).toEqual({
      removed: ['    "remote": { "url": "https://example.com/mcp" },'],
      added: [],
    });
  });

  test("a setJsonc followed by removeJsonc of the new member gives the file back byte for byte", () => {
    for (const text of [JSONC, '{\n  "mcpServers": {\n    "a": {}\n  }\n}\n', '{\r\n  "mcpServers": {\r\n  }\r\n}']) {
      const added = setJsonc(text, ["mcpServers", "memnox-session"], { command: "m" });
      const back = removeJsonc(added, ["mcpServers", "memnox-session"]);
      expect(nodeValue(parseJsonc(back))).toEqual(nodeValue(parseJsonc(text)));
      if (text !== '{\r\n  "mcpServers": {\r\n  }\r\n}') expect(back).toBe(text);
    }
  });
});

const HOOKS = `{
  // the person's own hook stays first
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./check.sh" }] } // theirs
    ]
  }
}
`;

describe("list edits", () => {
  test("an item appended to a multi-line list gets its own line at the list's indentation; no old line changes", () => {
    const out = appendJsonc(HOOKS, ["hooks", "PreToolUse"], { matcher: "x", hooks: [] });
    expect(lineDiff(HOOKS, out)).toEqual({
      removed: ['      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./check.sh" }] } // theirs'],
      added: [
        '      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./check.sh" }] }, // theirs',
        "      {",
        '        "matcher": "x",',
        '        "hooks": []',
        "      }",
      ],
    });
    expect(parseDocument("json", out)).toMatchObject({
      hooks: { PreToolUse: [{ matcher: "Bash" }, { matcher: "x" }] },
    });
  });

  test("into a missing list, an empty one and a one-line one", () => {
    expect(appendJsonc('{"hooks": {"A": 1}}', ["hooks", "Stop"], "a")).toBe('{"hooks": {"A": 1, "Stop": ["a"]}}');
    expect(appendJsonc('{\n  "l": []\n}', ["l"], 1)).toBe('{\n  "l": [\n    1\n  ]\n}');
    expect(appendJsonc('{"l": ["a", "b"]}', ["l"], "c")).toBe('{"l": ["a", "b", "c"]}');
    expect(appendJsonc('{"l": ["a", "b",]}', ["l"], "c")).toBe('{"l": ["a", "b", "c",]}');
    expect(() => appendJsonc('{"l": {}}', ["l"], 1)).toThrow(/`l` is not a list/);
  });

  test("removing an item takes its lines and the comma it leaves; appending then removing gives the bytes back", () => {
    const added = appendJsonc(HOOKS, ["hooks", "PreToolUse"], { matcher: "memnox" });
    expect(removeItemJsonc(added, ["hooks", "PreToolUse"], 1)).toBe(HOOKS);
    expect(removeItemJsonc('{"l": ["a", "b", "c"]}', ["l"], 1)).toBe('{"l": ["a", "c"]}');
    expect(removeItemJsonc('{"l": ["a", "b"]}', ["l"], 1)).toBe('{"l": ["a"]}');
    expect(removeItemJsonc('{"l": ["a"]}', ["l"], 0)).toBe('{"l": []}');
    expect(removeItemJsonc('{\n  "l": [\n    1\n  ]\n}', ["l"], 0)).toBe('{\n  "l": []\n}');
    expect(removeItemJsonc('{"l": ["a"]}', ["l"], 5)).toBe('{"l": ["a"]}');
  });

  test("applyEdits reads list edits back like any other, and refuses them in TOML", () => {
    const edits: Edit[] = [
      { op: "removeItem", path: ["hooks", "PreToolUse"], index: 0 },
      { op: "append", path: ["hooks", "PreToolUse"], value: { matcher: "m" } },
      { op: "append", path: ["hooks", "Stop"], value: 1 },
    ];
    const out = applyEdits("json", HOOKS, edits, "/x/settings.json");
    expect(parseDocument("json", out)).toEqual({ hooks: { PreToolUse: [{ matcher: "m" }], Stop: [1] } });
    expect(() => applyEdits("toml", "a = 1\n", [{ op: "append", path: ["l"], value: 1 }], "/x/c.toml")).toThrow(
      /JSON only/,
    );
  });
});

describe("many edits at once", () => {
  test("gives the same text as making the edits one by one, with related paths kept in order", () => {
    const text = '{\n  "a": {"x": 1, "y": [1,\n    2]},\n  "b": {"x": "s"},\n  "d": true\n}\n';
    const edits: Edit[] = [
      { op: "set", path: ["a", "x"], value: 2 },
      { op: "set", path: ["a", "y"], value: ["p", "q"] },
      { op: "set", path: ["b", "x"], value: "t" },
      { op: "set", path: ["c"], value: { k: 1 } },
      { op: "remove", path: ["d"] },
      { op: "set", path: ["b"], value: { z: 0 } },
    ];
    let oneByOne = text;
    for (const e of edits)
      oneByOne = e.op === "set" ? setJsonc(oneByOne, e.path, e.value) : removeJsonc(oneByOne, e.path);
    expect(editJsonc(text, edits)).toBe(oneByOne);
    expect(parseDocument("json", oneByOne)).toEqual({ a: { x: 2, y: ["p", "q"] }, b: { z: 0 }, c: { k: 1 } });
  });
});

describe("read-back verification", () => {
  test("applyEdits refuses output that parses to something other than the original plus the change", () => {
    expect(applyEdits("json", '{"a": 1}', [{ op: "set", path: ["b"], value: 2 }], "/x/f.json")).toBe(
      '{"a": 1, "b": 2}',
    );
    expect(() => applyEdits("json", '{"a": [1]}', [{ op: "set", path: ["a", "b"], value: 2 }], "/x/f.json")).toThrow(
      /`a` is not an object/,
    );
  });
});

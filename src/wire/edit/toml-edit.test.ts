import { describe, expect, test } from "bun:test";
import { parse } from "smol-toml";
import { lineDiff } from "../../../test/support/lines.ts";
import { applyEdits, parseDocument, sameValue } from "./document.ts";
import { removeToml, renderToml, setToml } from "./toml-edit.ts";
import { scanToml } from "./toml-scan.ts";

const CODEX = `# Codex settings
model = "o4-mini"
approval_policy = "on-request"

[mcp_servers.fs]
command = "npx" # pinned by the team
args = [
  "-y",
  "@modelcontextprotocol/server-filesystem",
]
startup_timeout_sec = 20

[mcp_servers.fs.env]
API_KEY = "canary-toml-secret"

# remote one
[mcp_servers."docs.remote"]
url = "https://example.com/mcp"

[profiles.fast]
model = "gpt-5"
notes = """
[mcp_servers.fake]
command = "not a table"
"""
`;

describe("the TOML scanner", () => {
  test("finds headers and key lines, and is not fooled by a header inside a multi-line string", () => {
    const items = scanToml(CODEX);
    const headers = items.filter((i) => i.kind === "header").map((i) => i.path.join("."));
    expect(headers).toEqual(["mcp_servers.fs", "mcp_servers.fs.env", "mcp_servers.docs.remote", "profiles.fast"]);
    const args = items.find((i) => i.kind === "keyval" && i.path?.join(".") === "mcp_servers.fs.args");
    expect(
      args && CODEX.slice(args.kind === "keyval" ? args.valueStart : 0, args.kind === "keyval" ? args.valueEnd : 0),
    ).toBe('[\n  "-y",\n  "@modelcontextprotocol/server-filesystem",\n]');
  });

  test("keys under an array of tables are not addressable by path", () => {
    const items = scanToml('[[hooks.PreToolUse]]\nmatcher = "x"\n[hooks.PreToolUse.y]\nz = 1\n[a]\nb = 2\n');
    const paths = items.filter((i) => i.kind === "keyval").map((i) => (i.kind === "keyval" ? i.path : undefined));
    expect(paths).toEqual([undefined, undefined, ["a", "b"]]);
  });
});

describe("TOML edits", () => {
  test("setting command and args touches only their lines; a multi-line array stays multi-line", () => {
    let out = setToml(CODEX, ["mcp_servers", "fs", "command"], "/opt/memnox");
    out = setToml(out, ["mcp_servers", "fs", "args"], ["mcp", "proxy", "--", "npx", "-y"]);
    expect(lineDiff(CODEX, out)).toEqual({
      removed: ['command = "npx" # pinned by the team', '  "@modelcontextprotocol/server-filesystem",'],
      added: ['command = "/opt/memnox" # pinned by the team', '  "mcp",', '  "proxy",', '  "--",', '  "npx",'],
    });
    expect((parse(out).mcp_servers as Record<string, { args: string[] }>).fs?.args).toEqual([
      "mcp",
      "proxy",
      "--",
      "npx",
      "-y",
    ]);
  });

  test("a missing key goes under its table's last key line", () => {
    const out = setToml(CODEX, ["mcp_servers", "docs.remote", "enabled"], false);
    expect(lineDiff(CODEX, out)).toEqual({ removed: [], added: ["enabled = false"] });
    expect(out).toContain('url = "https://example.com/mcp"\nenabled = false\n');
  });

  test("inserting a table appends it as text and removing it gives the file back", () => {
    const out = setToml(CODEX, ["mcp_servers", "memnox-session"], { command: "/m", args: ["mcp", "session", "serve"] });
    expect(out.startsWith(CODEX)).toBe(true);
    expect(out.slice(CODEX.length)).toBe(
      '\n[mcp_servers.memnox-session]\ncommand = "/m"\nargs = ["mcp", "session", "serve"]\n',
    );
    expect(removeToml(out, ["mcp_servers", "memnox-session"])).toBe(`${CODEX}\n`);
  });

  test("replacing a table rewrites it and its sub-tables where it stood, leaving the rest byte-identical", () => {
    const out = setToml(CODEX, ["mcp_servers", "fs"], { command: "c", env: { K: "V" } });
    const start = CODEX.indexOf("[mcp_servers.fs]");
    const end = CODEX.indexOf("# remote one");
    expect(out).toBe(
      `${CODEX.slice(0, start)}[mcp_servers.fs]\ncommand = "c"\nenv = { K = "V" }\n\n${CODEX.slice(end)}`,
    );
  });

  test("dotted keys and inline tables are edited in their own form", () => {
    const dotted = '[mcp_servers]\nfs.command = "npx"\nfs.args = ["a"]\n';
    expect(setToml(dotted, ["mcp_servers", "fs", "command"], "m")).toBe(
      '[mcp_servers]\nfs.command = "m"\nfs.args = ["a"]\n',
    );
    expect(setToml('[mcp_servers]\nfs.command = "npx"\n', ["mcp_servers", "fs", "args"], ["x"])).toBe(
      '[mcp_servers]\nfs.command = "npx"\nfs.args = ["x"]\n',
    );
    const inline = 'mcp_servers = { fs = { command = "npx" } }\n';
    expect(setToml(inline, ["mcp_servers", "fs", "args"], ["x"])).toBe(
      'mcp_servers = { fs = { command = "npx", args = ["x"] } }\n',
    );
    expect(removeToml('mcp_servers = { fs = { command = "npx", args = [] } }\n', ["mcp_servers", "fs", "args"])).toBe(
      'mcp_servers = { fs = { command = "npx" } }\n',
    );
  });

  test("removing a key takes its whole line, a multi-line value included", () => {
    const out = removeToml(CODEX, ["mcp_servers", "fs", "args"]);
    expect(lineDiff(CODEX, out).added).toEqual([]);
    expect(lineDiff(CODEX, out).removed).toEqual([
      "args = [",
      '  "-y",',
      '  "@modelcontextprotocol/server-filesystem",',
      "]",
    ]);
  });

  test("strings are escaped the TOML way, including DEL and control characters", () => {
    expect(renderToml('a"b\\c\n\u007f\u0001')).toBe('"a\\"b\\\\c\\n\\u007f\\u0001"');
    expect(parse(`k = ${renderToml('a"b\\c\n\u007f\u0001 ü')}`).k).toBe('a"b\\c\n\u007f\u0001 ü');
    expect(renderToml([1, 2.5, true, Number.NaN, { "a.b": 1 }])).toBe('[1, 2.5, true, nan, { "a.b" = 1 }]');
    expect(() => renderToml(null)).toThrow(/no way to write a null/);
  });

  test("applyEdits reads every rewrite back, and a file that does not parse is named with its line", () => {
    const edits = [{ op: "set" as const, path: ["mcp_servers", "fs", "command"], value: "m" }];
    expect(applyEdits("toml", CODEX, edits, "config.toml")).toContain('command = "m" # pinned');
    expect(() => parseDocument("toml", "a = 1\nb = [1,\n")).toThrow(/unfinished array/);
    const arrayOfTables = '[[mcp_servers]]\ncommand = "x"\n';
    expect(() => applyEdits("toml", arrayOfTables, edits, "/h/.codex/config.toml")).toThrow(
      /refused to rewrite `\/h\/.codex\/config.toml`: reading it back did not give what it held plus the change/,
    );
  });

  test("local dates survive a rewrite and compare by their written form", () => {
    const text = "d = 1979-05-27\nt = 07:32:00\ndt = 1979-05-27 07:32:00+02:00\n";
    const out = applyEdits("toml", text, [{ op: "set", path: ["x"], value: 1 }], "f.toml");
    expect(out).toBe(`${text}x = 1\n`);
    expect(sameValue(parseDocument("toml", "d = 1979-05-27"), parseDocument("toml", "d = 1979-05-28"))).toBe(false);
  });
});

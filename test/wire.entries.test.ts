// Adding and removing one server entry in every editable client's real fixture file.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { candidateFiles } from "../src/wire/clients.ts";
import { applyEdits, parseDocument } from "../src/wire/edit/document.ts";
import { addServerEdits, removeServerEdits } from "../src/wire/entries.ts";
import { serversIn } from "../src/wire/read.ts";
import { fixturePath, lineDiff } from "./support/index.ts";

const HOME = fixturePath("homes", "mcp-clients");
const loc = { home: HOME, cwd: `${HOME}/project`, env: {} };
const session = { command: "/h/.memnox/app/memnox", args: ["mcp", "session", "serve"] };
const FILES = candidateFiles(loc).filter((f) => {
  try {
    readFileSync(f.path);
    return f.format !== "yaml" && !f.path.endsWith("project/.gemini/settings.json");
  } catch {
    return false;
  }
});

describe("one server entry, in each client's own shape", () => {
  test("the fixture home has an editable file for every client but Hermes", () => {
    expect(new Set(FILES.map((f) => f.client)).size).toBe(9);
  });

  for (const file of FILES) {
    test(`${file.client} ${file.path.slice(HOME.length + 1)}: added as a stdio server, removed without a trace`, () => {
      const text = readFileSync(file.path, "utf8");
      const format = file.format === "yaml" ? "json" : file.format;
      const added = applyEdits(format, text, addServerEdits(file, "added", session), file.path);
      // Only a line that gains a comma, or an empty `{}` that opens up, may change.
      for (const line of lineDiff(text, added).removed) expect(line).toMatch(/[^,]$/);
      for (const line of lineDiff(text, added).removed)
        expect(added).toContain(line.endsWith("{}") ? line.slice(0, -1) : `${line},`);
      const found = serversIn(file, parseDocument(format, added)).find((e) => e.name === "added");
      expect(found).toMatchObject({ transport: "stdio", command: session.command, args: session.args });
      const removed = applyEdits(format, added, removeServerEdits(file, "added"), file.path);
      expect(parseDocument(format, removed)).toEqual(parseDocument(format, text));
    });
  }

  test("Claude Code's per-project map, and the shape `claude mcp add` writes", () => {
    const file = FILES.find((f) => f.client === "claude-code" && f.scope === "user");
    if (!file) throw new Error("no ~/.claude.json fixture");
    const text = readFileSync(file.path, "utf8");
    const added = applyEdits("json", text, addServerEdits(file, "s", session, "/work/shop"), file.path);
    const doc = parseDocument("json", added) as { projects: Record<string, { mcpServers: Record<string, unknown> }> };
    expect(doc.projects["/work/shop"]?.mcpServers.s).toEqual({ type: "stdio", ...session, env: {} });
    expect(() => addServerEdits({ ...file, client: "hermes" }, "s", session)).toThrow(/does not edit Hermes/);
  });
});

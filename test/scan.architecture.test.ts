// Discovery sends nothing anywhere and loads the MCP SDK only when it probes.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const files = readdirSync(join(ROOT, "src/scan"))
  .filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))
  .map((n) => join(ROOT, "src/scan", n));

test("no module of src/scan can reach the network; status only knocks on the daemon's unix socket", () => {
  for (const f of files) {
    const src = readFileSync(f, "utf8");
    expect(/\bfetch\(|node:https?|WebSocket|Bun\.connect|node:dgram|node:tls/.test(src), f).toBe(false);
    if (/node:net/.test(src)) {
      expect(f.endsWith("status.ts"), f).toBe(true);
      expect(src).toContain("createConnection({ path: sock })");
    }
  }
});

test("only probe.ts loads the MCP SDK, and only by a dynamic import", () => {
  for (const f of files) {
    const src = readFileSync(f, "utf8");
    expect(/^\s*import[^;]*@modelcontextprotocol/m.test(src), f).toBe(false);
    if (src.includes("@modelcontextprotocol")) expect(f.endsWith("probe.ts"), f).toBe(true);
  }
});

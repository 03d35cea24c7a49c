// Probing a real MCP server (server-everything from node_modules) through a fixture config: initialize and
// tools/list, the tools classified, the cache written for --no-probe; a server that is not there is named, not fatal.
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Inventory } from "../src/scan/types.ts";
import { run } from "../src/seams/cli/index.ts";
import { fakeHome, fixturePath, testContext } from "./support/index.ts";
import { EVERYTHING } from "./support/mcp.ts";
import { CANARY } from "./support/scan-machine.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());
writeFileSync(
  home.join(".claude.json"),
  readFileSync(fixturePath("homes", "scan", "probe", ".claude.json"), "utf8").replace(
    "__EVERYTHING__",
    EVERYTHING[0] ?? "",
  ),
);

async function scan(args: string[]) {
  const { ctx, io } = testContext(home, { args: ["scan", "--json", ...args] });
  expect(await run(ctx)).toBe(0);
  return { inv: JSON.parse(io.stdout()) as Inventory, err: io.stderr() };
}

describe("probing", () => {
  test("starts the server, lists every tool, classifies each, and keeps them for --no-probe", async () => {
    const { inv, err } = await scan([]);
    const s = inv.mcpServers.find((x) => x.name === "everything");
    expect(s?.toolsFrom).toBe("probe");
    const tools = new Map(s?.tools?.map((t) => [t.name, t]));
    expect(tools.size).toBeGreaterThan(5);
    expect(tools.get("echo")?.class).toBe("read");
    expect(tools.get("get-env")?.class).toBe("read");
    expect(s?.envKeys).toEqual(["EVERYTHING_TOKEN"]);
    const cacheDir = home.join(".memnox", "mcp", "scan");
    const [cache] = readdirSync(cacheDir);
    expect(cache).toMatch(/^everything\.[0-9a-f]{16}\.json$/);
    const kept = readFileSync(join(cacheDir, cache ?? ""), "utf8");
    expect(kept).not.toContain(CANARY);
    expect(err + JSON.stringify(inv)).not.toContain(CANARY);
  });

  test("a server whose command is not there grants nothing and says why", async () => {
    const { inv } = await scan([]);
    expect(inv.mcpServers.find((x) => x.name === "gone")).toMatchObject({
      tools: null,
      toolsFrom: "none",
      toolsNote: "not listed: its command was not found",
    });
  });

  test("--no-probe starts nothing and reads the tools back from the cache", async () => {
    const { inv } = await scan(["--no-probe"]);
    expect(inv.probed).toBe(false);
    const s = inv.mcpServers.find((x) => x.name === "everything");
    expect(s?.toolsFrom).toBe("cache");
    expect(s?.tools?.some((t) => t.name === "echo")).toBe(true);
    expect(inv.mcpServers.find((x) => x.name === "gone")?.toolsNote).toBe("not probed (--no-probe) and nothing cached");
  });
});

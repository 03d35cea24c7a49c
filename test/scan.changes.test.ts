// `scan --save`, `--since`, `--from/--to` and `--fail-on write-capable`: what widened kept apart from what narrowed.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { KEEP_SNAPSHOTS, listSnapshots, saveSnapshot } from "../src/scan/snapshots.ts";
import type { Inventory } from "../src/scan/types.ts";
import { run } from "../src/seams/cli/index.ts";
import { testContext } from "./support/index.ts";
import { scanHome } from "./support/scan-machine.ts";

const home = scanHome(["claude-code", "tool-cache"]);
afterAll(() => home[Symbol.dispose]());
let now = Date.parse("2026-11-30T08:00:00.000Z");

async function cli(args: string[]) {
  const { ctx, io } = testContext(home, { args, now });
  const code = await run(ctx);
  return { code, out: io.stdout(), json: () => JSON.parse(io.stdout()) };
}

const HOUR = 3_600_000;

describe("what changed since the saved scan", () => {
  test("without a saved scan there is nothing to compare against, and it says how to keep one", async () => {
    await expect(cli(["scan", "--since", "1d", "--no-probe"])).rejects.toThrow(/no saved scan to compare against/);
  });

  test("--save keeps the scan in ~/.memnox/snapshots", async () => {
    const r = await cli(["scan", "--save", "--no-probe"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("kept as the baseline");
    expect(readdirSync(home.join(".memnox", "snapshots"))).toEqual(["scan-2026-11-30T08-00-00-000Z.json"]);
  });

  test("nothing moved: no change, exit 0 even with --fail-on", async () => {
    now += HOUR;
    const r = await cli(["scan", "--since", "30m", "--fail-on", "write-capable", "--no-probe"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("CHANGES SINCE 2026-11-30T08:00:00.000Z");
    expect(r.out).toContain("0 changes widen authority, 0 narrow it");
  });

  test("a new server with write tools and a new credential widen: --fail-on write-capable exits 1", async () => {
    now += HOUR;
    mkdirSync(home.join(".cursor"));
    writeFileSync(
      home.join(".cursor", "mcp.json"),
      '{ // added later\n "mcpServers": { "tracker": { "command": "tracker-mcp", "env": { "TRACKER_TOKEN": "x" } } } }\n',
    );
    writeFileSync(home.join(".npmrc"), "//registry.npmjs.org/:_authToken=abc\n");
    const r = await cli(["scan", "--since", "1h", "--fail-on", "write-capable", "--json", "--no-probe"]);
    expect(r.code).toBe(1);
    const out = r.json();
    expect(out.fails).toBe(true);
    const labels = out.changes.map(
      (c: { sign: string; kind: string; label: string }) => `${c.sign}${c.kind}:${c.label}`,
    );
    expect(labels).toContain("+agent:cursor");
    expect(labels).toContain("+server:tracker");
    expect(labels).toContain("+secret:npm token");
    expect(out.widened).toBeGreaterThanOrEqual(3);
    const human = await cli(["scan", "--since", "1h", "--fail-on", "write-capable", "--no-probe"]);
    expect(human.out).toMatch(/^\+ tracker «server» 4 tools, 3 write-capable {2}~\/\.cursor\/mcp\.json$/m);
    expect(human.out).toContain("--fail-on write-capable: something widened");
  });

  test("only narrowing (a server removed) never fails the build", async () => {
    const { ctx } = testContext(home, { args: [], now });
    const inv: Inventory = JSON.parse((await cli(["scan", "--json", "--no-probe"])).out);
    saveSnapshot(ctx.paths.snapshots, inv);
    now += HOUR;
    rmSync(home.join(".cursor"), { recursive: true, force: true });
    const r = await cli(["scan", "--since", "30m", "--fail-on", "write-capable", "--json", "--no-probe"]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.widened).toBe(0);
    expect(out.narrowed).toBeGreaterThan(0);
    expect(out.changes.every((c: { sign: string }) => c.sign === "-")).toBe(true);
  });

  test("--from and --to compare two saved scans without scanning", async () => {
    const r = await cli(["scan", "--from", "2026-11-30T08:30:00Z", "--to", "2026-11-30T10:30:00Z", "--json"]);
    expect(r.json().since).toBe("2026-11-30T08:00:00.000Z");
    expect(r.json().until).toBe("2026-11-30T10:00:00.000Z");
    expect(r.json().widened).toBeGreaterThan(0);
  });

  test("--fail-on takes only what it knows", async () => {
    await expect(cli(["scan", "--fail-on", "anything"])).rejects.toThrow(
      /`anything` is not something scan can fail on/,
    );
  });
});

test("the newest thirty saved scans are kept", () => {
  using h = scanHome(["claude-code"]);
  const { ctx } = testContext(h);
  const base = Date.parse("2026-01-01T00:00:00.000Z");
  for (let i = 0; i < KEEP_SNAPSHOTS + 3; i++) {
    saveSnapshot(ctx.paths.snapshots, { scannedAt: new Date(base + i * HOUR).toISOString() } as Inventory);
  }
  const kept = listSnapshots(ctx.paths.snapshots);
  expect(kept.length).toBe(KEEP_SNAPSHOTS);
  expect(kept[0]?.at).toBe(new Date(base + 3 * HOUR).toISOString());
});

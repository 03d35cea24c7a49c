// kept.json can exist before setup (a recorded `mcp session off`); only setup's own mark says setup ran.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { setupRan, writeKept } from "../src/wire/kept.ts";
import { setKeptSessionServer } from "../src/wire/session-server.ts";
import { tempDir } from "./support/index.ts";

const dir = tempDir("memnox-kept");
afterAll(() => dir[Symbol.dispose]());

test("an off recorded before setup does not make the machine look set up", () => {
  const file = join(dir.path, "kept.json");
  setKeptSessionServer(file, false);
  expect(setupRan(file)).toBe(false);
  writeKept(file, () => ({ setupAt: "2026-11-30T12:00:00.000Z" }));
  expect(setupRan(file)).toBe(true);
});

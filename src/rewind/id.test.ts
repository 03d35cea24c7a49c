import { expect, test } from "bun:test";
import { milestoneId } from "./id.ts";

test("ids are mst_, base-36 milliseconds and four hex digits, and sort by time", () => {
  const a = milestoneId(Date.parse("2026-09-05T05:27:28.234Z"), new Uint8Array([0x94, 0xe3]));
  expect(a).toMatch(/^mst_[0-9a-z]{8}94e3$/);
  const b = milestoneId(Date.parse("2026-09-05T05:27:29.000Z"), new Uint8Array([0, 0]));
  expect(b > a).toBe(true);
});

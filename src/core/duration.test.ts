import { expect, test } from "bun:test";
import { formatDuration, parseDuration } from "./duration.ts";

test.each([
  ["90s", 90_000],
  ["30m", 1_800_000],
  ["2h", 7_200_000],
  ["7d", 604_800_000],
  ["1.5h", 5_400_000],
])("parseDuration(%s)", (text, ms) => expect(parseDuration(text)).toBe(ms));

test.each(["", "2", "h", "-1h", "0m", "2 hours"])("parseDuration rejects %p", (text) => {
  expect(() => parseDuration(text)).toThrow(/duration/);
});

test.each([
  [6_960_000, "1h 56m"],
  [3_600_000, "1h"],
  [45_000, "45s"],
  [90_000_000, "1d 1h"],
  [-5, "0s"],
])("formatDuration(%d)", (ms, text) => expect(formatDuration(ms)).toBe(text));

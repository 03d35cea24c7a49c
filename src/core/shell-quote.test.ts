import { expect, test } from "bun:test";
import { isRecord } from "./record.ts";
import { shellQuote, shellWord } from "./shell-quote.ts";

test("a quoted word reads back as itself in the real sh, whatever it holds", () => {
  const words = ["plain", "", "two words", "it's", "$HOME", "`id`", "a\nb", "--flag=x,y", "'''"];
  const line = words.map(shellWord).join(" ");
  const r = Bun.spawnSync(["sh", "-c", `for w in ${line}; do printf '%s\\0' "$w"; done`]);
  expect(r.stdout.toString().split("\0").slice(0, -1)).toEqual(words);
  expect(shellWord("plain")).toBe("plain");
  expect(shellQuote("plain")).toBe("'plain'");
});

test("isRecord: an object, never null, a list or a TOML date", () => {
  expect([{}, { a: 1 }].every(isRecord)).toBe(true);
  expect([null, [], new Date(0), "x", 1, undefined].some(isRecord)).toBe(false);
});

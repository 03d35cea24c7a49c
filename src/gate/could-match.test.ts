import { expect, test } from "bun:test";
import { couldBe, isBare } from "./could-match.ts";

const P = ["/home/u/.memnox/**", "/**/.ssh/**", "/**/.env"];

test("an open target is a witness of each protected path it could be", () => {
  expect(couldBe("/home/u/$d/config.toml", P)).toEqual(["/home/u/.memnox/config.toml", "/home/u/.ssh/config.toml"]);
  expect(couldBe("$(cat list)", P).length).toBe(3);
  expect(couldBe("/home/u/.mem?ox/x", P)).toEqual(["/home/u/.memnox/x"]);
});

test("a target whose known part rules a pattern out is no witness of it", () => {
  expect(couldBe("/srv/app/$f.log", ["/home/u/.memnox/**"])).toEqual([]);
  expect(couldBe("/tmp/x-*.txt", ["/**/.env"])).toEqual([]);
});

test("bare: nothing known but where it is", () => {
  expect(isBare("$f", "/r", "/home/u")).toBe(true);
  expect(isBare("/r/$(cmd)", "/r", "/home/u")).toBe(true);
  expect(isBare("/home/u/$d/config.toml", "/r", "/home/u")).toBe(false);
});

import { describe, expect, test } from "bun:test";
import { estimateTokens, packToBudget } from "./pack.ts";

describe("token budget packing", () => {
  test("the estimate is len/4+1", () => {
    expect(estimateTokens("")).toBe(1);
    expect(estimateTokens("abcd")).toBe(2);
    expect(estimateTokens("x".repeat(400))).toBe(101);
  });

  test("the top hit is always kept whole, even over budget", () => {
    const r = packToBudget([500, 10], (n) => n, 100);
    expect(r.kept).toEqual([500]);
    expect(r.skipped).toEqual([10]);
  });

  test("a hit that does not fit is skipped for smaller ones after it", () => {
    const r = packToBudget([40, 70, 30, 20], (n) => n, 100);
    expect(r.kept).toEqual([40, 30, 20]);
    expect(r.skipped).toEqual([70]);
    expect(r.used).toBe(90);
  });
});

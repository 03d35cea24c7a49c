import { describe, expect, test } from "bun:test";
import { matchExpression, promptTokens, QueryError, queryTokens } from "./query.ts";

describe("query reduction", () => {
  test("only lowercase alphanumeric tokens reach FTS5, so operators and quotes are inert", () => {
    expect(queryTokens('deploy" OR title:* NEAR(x) -- ; DROP')).toEqual(["deploy", "or", "title", "near", "x", "drop"]);
    expect(matchExpression(["deploy", "near"], "AND")).toBe('"deploy" AND "near"');
  });

  test("stop words and scaffolding phrases go; duplicates go; order stays", () => {
    expect(queryTokens("How does the index handle a rebuild of the index?")).toEqual(["index", "rebuild"]);
    expect(queryTokens("switch from flake8 to ruff instead of pylint")).toEqual(["flake8", "ruff", "pylint"]);
    expect(queryTokens("how many workers")).toEqual(["workers"]);
  });

  test("a query of stop words only keeps them rather than searching nothing", () => {
    expect(queryTokens("what is the")).toEqual(["what", "is", "the"]);
  });

  test("bounded: no terms, more than 64 terms, or more than 1024 bytes are refused", () => {
    expect(() => queryTokens("!!! ???")).toThrow(QueryError);
    expect(() => queryTokens(Array.from({ length: 65 }, (_, i) => `w${i}`).join(" "))).toThrow(/maximum 64/);
    expect(() => queryTokens("x".repeat(1025))).toThrow(/1024/);
  });

  test("a prompt never throws: prose words dropped, at most 64 terms", () => {
    expect(promptTokens("Please can you tidy up the .env file and push it to main?")).toEqual([
      "tidy",
      "env",
      "file",
      "push",
      "main",
    ]);
    expect(promptTokens(Array.from({ length: 100 }, (_, i) => `word${i}`).join(" "))).toHaveLength(64);
    expect(promptTokens("")).toEqual([]);
  });
});

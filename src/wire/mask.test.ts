import { describe, expect, test } from "bun:test";
import { maskArgs, maskUrl, maskValue } from "./mask.ts";

describe("masking what is printed of a server", () => {
  test("values after secret-named flags, secret-named --flag=value and credential-shaped tokens", () => {
    expect(maskArgs(["--password", "hunter2", "--port", "5432", "--api-key=abc", "-y", "pkg"])).toEqual([
      "--password",
      "***",
      "--port",
      "5432",
      "--api-key=***",
      "-y",
      "pkg",
    ]);
    expect(maskArgs(["ghp_abcdefghijklmnopqrstuvwxyz0123", "sk-ant-api03-abcdefgh", "AKIAABCDEFGHIJKLMNOP"])).toEqual([
      "***",
      "***",
      "***",
    ]);
    expect(maskArgs(["--token", "--other"])).toEqual(["--token", "--other"]);
  });

  test("URLs keep their host and path; a password and secret-looking query values are masked", () => {
    expect(maskUrl("postgresql://me:s3cret@db:5432/app")).toBe("postgresql://me:***@db:5432/app");
    expect(maskUrl("https://x.dev/mcp?api_key=abc&team=7")).toBe("https://x.dev/mcp?api_key=***&team=7");
    expect(maskUrl("https://x.dev/mcp")).toBe("https://x.dev/mcp");
    expect(maskValue("GITHUB_TOKEN=abc")).toBe("GITHUB_TOKEN=***");
    expect(maskValue("Bearer abc.def")).toBe("Bearer ***");
    expect(maskValue("/work/shop")).toBe("/work/shop");
  });
});

import { describe, expect, test } from "bun:test";
import { clipped, MAX_ANSWER_CHARS, MAX_LINE_CHARS, MAX_LINES, maskCredentials } from "./answer.ts";

describe("credential-shaped text is masked", () => {
  test.each([
    ["GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"],
    ['{"password": "hunter2hunter2"}', "hunter2hunter2"],
    ["api_key: 9f8e7d6c5b4a", "9f8e7d6c5b4a"],
    ["curl -H 'Authorization: Bearer abc.def.ghi' https://x", "abc.def.ghi"],
    ["postgres://app:s3cret@db.internal:5432/app", "s3cret@db"],
    ["AKIAIOSFODNN7EXAMPLE in the log", "AKIAIOSFODNN7EXAMPLE"],
    ["sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz"],
    ["-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXk"],
    ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "dozjgNryP4"],
  ])("%s", (text, secret) => {
    expect(maskCredentials(text)).not.toContain(secret);
  });

  test("ordinary words stay as they are", () => {
    const line = "deny  git.push-force origin main · rule no-force-push: a token of trust is not a reason";
    expect(maskCredentials(line)).toBe(line);
  });
});

describe("answers are clipped", () => {
  test("a long line ends in an ellipsis at the line limit", () => {
    const out = clipped(["x".repeat(1000)]);
    expect(out.length).toBe(MAX_LINE_CHARS);
    expect(out.endsWith("…")).toBe(true);
  });

  test("a list keeps its head, a replay its tail, both say how much is not shown", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    const head = clipped(lines).split("\n");
    expect(head).toHaveLength(MAX_LINES);
    expect(head[0]).toBe("line 0");
    expect(head.at(-1)).toBe("… 41 more line(s) not shown");
    const tail = clipped(["header", ...lines], { keep: "tail", pinned: 1 }).split("\n");
    expect(tail).toHaveLength(MAX_LINES);
    expect(tail.slice(0, 2)).toEqual(["header", "… 42 earlier line(s) not shown"]);
    expect(tail.at(-1)).toBe("line 99");
  });

  test("the whole answer stays under its character cap, dropping whole lines", () => {
    const lines = Array.from({ length: 50 }, (_, i) => `${i} ${"y".repeat(200)}`);
    const out = clipped(lines, { keep: "tail" });
    expect(out.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    const shown = out.split("\n");
    expect(shown[0]).toMatch(/^… \d+ earlier line\(s\) not shown$/);
    expect(shown.at(-1)?.startsWith("49 ")).toBe(true);
  });
});

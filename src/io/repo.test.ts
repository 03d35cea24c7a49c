import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./repo.ts";

describe("repoRoot", () => {
  test("finds the checkout above, and stops where GIT_CEILING_DIRECTORIES says, as git does", () => {
    const top = mkdtempSync(join(tmpdir(), "repo-root-"));
    try {
      mkdirSync(join(top, ".git"));
      const home = join(top, "homes", "h1", "work");
      mkdirSync(home, { recursive: true });
      expect(repoRoot(home, {})).toBe(top);
      expect(repoRoot(home, { GIT_CEILING_DIRECTORIES: join(top, "homes") })).toBeUndefined();
      expect(repoRoot(top, { GIT_CEILING_DIRECTORIES: join(top, "homes") })).toBe(top);
      // git's own answer for the same place, so the two never disagree.
      const git = Bun.spawnSync(["git", "rev-parse", "--show-toplevel"], {
        cwd: home,
        env: { PATH: process.env.PATH ?? "", GIT_CEILING_DIRECTORIES: join(top, "homes") },
      });
      expect(git.exitCode).not.toBe(0);
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });
});

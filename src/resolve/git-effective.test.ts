import { describe, expect, test } from "bun:test";
import { effectiveGit, type GitSettings } from "./commands/git-effective.ts";

const settings = (pairs: Record<string, string | string[]>): GitSettings =>
  new Map(Object.entries(pairs).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));

describe("effectiveGit: what git runs once its settings apply", () => {
  test("an alias is replaced by its words, an alias of an alias too", () => {
    const s = settings({ "alias.p": "pp --force", "alias.pp": "push" });
    expect(effectiveGit(["git", "p", "origin", "main"], s)).toMatchObject({
      kind: "argv",
      argv: ["git", "push", "--force", "origin", "main"],
    });
  });

  test("a `!` alias is a shell line with the arguments after it", () => {
    expect(effectiveGit(["git", "x", "a b"], settings({ "alias.x": "!git push -f" }))).toMatchObject({
      kind: "line",
      line: "git push -f 'a b'",
    });
  });

  test("an alias never shadows a command git has", () => {
    expect(effectiveGit(["git", "status"], settings({ "alias.status": "push -f" }))).toMatchObject({
      argv: ["git", "status"],
    });
  });

  test("a `+` refspec or a mirror setting forces a plain push, to the remote the branch pushes to", () => {
    const s = settings({ "remote.up.push": "+refs/heads/*:refs/heads/*", "branch.main.pushremote": "up" });
    expect(effectiveGit(["git", "push"], s, "main")).toMatchObject({ argv: ["git", "push", "--force", "up"] });
    expect(effectiveGit(["git", "push"], settings({ "remote.origin.mirror": "true" }))).toMatchObject({
      argv: ["git", "push", "--mirror", "origin"],
    });
    expect(effectiveGit(["git", "push", "origin", "main"], settings({}))).toMatchObject({
      argv: ["git", "push", "origin", "main"],
    });
  });

  test("global options stay in front", () => {
    expect(effectiveGit(["git", "-C", "/r", "p"], settings({ "alias.p": "push -f" }))).toMatchObject({
      argv: ["git", "-C", "/r", "push", "-f"],
    });
  });
});

import { describe, expect, test } from "bun:test";
import type { Action } from "../core/action.ts";
import { argvDestroys, isWorkDestroying } from "./destroying.ts";

const act = (name: string): Action => ({ name, class: "destructive", targets: [], arguments: {} });

describe("isWorkDestroying, by action name", () => {
  const cases: [string, boolean][] = [
    ["filesystem.delete", true],
    ["git.reset-hard", true],
    ["git.clean", true],
    ["git.clean-dry-run", false],
    ["git.checkout-paths", true],
    ["git.checkout-force", true],
    ["git.switch-force", true],
    ["git.restore", true],
    ["git.cleanup", false],
    ["filesystem.write", false],
    ["filesystem.read", false],
    ["git.push-force", false],
    ["shell.execute", false],
  ];
  for (const [name, want] of cases) test(`${name} -> ${want}`, () => expect(isWorkDestroying([act(name)])).toBe(want));
  test("any one of several", () => expect(isWorkDestroying([act("shell.execute"), act("git.clean")])).toBe(true));
  test("none", () => expect(isWorkDestroying([])).toBe(false));
});

describe("the raw argv refines what names cannot say", () => {
  const cases: [string[], boolean][] = [
    [["rm", "x"], true],
    [["/bin/rm", "-rf", "build"], true],
    [["mv", "a", "b"], false],
    [["mv", "a", "b", "dir/"], true],
    [["mv", "-f", "a", "b"], false],
    [["mv", "-t", "dir", "a", "b"], true],
    [["mv", "--target-directory=dir", "a"], false],
    [["mv", "--", "-a", "-b", "c"], true],
    [["git", "reset", "--hard"], true],
    [["git", "reset", "--soft", "HEAD~1"], false],
    [["git", "-C", "repo", "reset", "--hard", "HEAD"], true],
    [["git", "clean", "-fd"], true],
    [["git", "clean", "-n"], false],
    [["git", "checkout", "--", "."], true],
    [["git", "checkout", "."], true],
    [["git", "checkout", "main"], false],
    [["git", "restore", "."], true],
    [["git", "restore", "--staged", "."], false],
    [["git", "restore", "--staged", "--worktree", "."], true],
    [["git", "switch", "--discard-changes", "main"], true],
    [["git", "status"], false],
    [["ls", "-la"], false],
  ];
  for (const [argv, want] of cases) test(`${argv.join(" ")} -> ${want}`, () => expect(argvDestroys(argv)).toBe(want));

  test("a mv's source deletes do not count unless it moves three or more paths", () => {
    const mvActions = [act("filesystem.write"), act("filesystem.delete")];
    expect(isWorkDestroying(mvActions, ["mv", "a", "b"])).toBe(false);
    expect(isWorkDestroying(mvActions, ["mv", "a", "b", "c"])).toBe(true);
  });
  test("the argv the resolver keeps on an action counts a mv's paths the same way", () => {
    const mv = (...argv: string[]): Action => ({ ...act("filesystem.delete"), arguments: { argv } });
    expect(isWorkDestroying([act("filesystem.write"), mv("mv", "a", "b")])).toBe(false);
    expect(isWorkDestroying([mv("mv", "a", "b", "dir")])).toBe(true);
    expect(isWorkDestroying([mv("mv", "a", "b"), mv("rm", "c")])).toBe(true);
  });
  test("with argv that destroys nothing, the action names still decide", () => {
    expect(isWorkDestroying([act("git.reset-hard")], ["git", "reset", "--keep"])).toBe(true);
  });
});

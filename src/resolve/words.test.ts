import { expect, test } from "bun:test";
import { commandWords } from "./words.ts";

test.each([
  ["git push origin main", ["git", "push", "origin", "main"]],
  [`git commit -m 'a "quoted" message'`, ["git", "commit", "-m", 'a "quoted" message']],
  ["git log --format=%H\\ x", ["git", "log", "--format=%H x"]],
] as const)("%s", (line, words) => expect(commandWords(line)).toEqual([...words]));

test.each([
  "git push && rm -rf /",
  "git $(echo push)",
  "X=1 git push",
  "git push > out",
  "git push | cat",
  "git 'unterminated",
])("not one plain command: %s", (line) => expect(commandWords(line)).toBeUndefined());

import { expect, test } from "bun:test";
import { parseShellArgs } from "./args.ts";

test.each([
  [["-c", "ls -la"], "ls -la", ["-c", "X"]],
  [["-c", "-l", "git status"], "git status", ["-c", "-l", "X"]],
  [["-lc", "echo hi", "argv0", "one"], "echo hi", ["-lc", "X", "argv0", "one"]],
  [["-o", "pipefail", "-c", "a | b"], "a | b", ["-o", "pipefail", "-c", "X"]],
  [["-e", "-c", "make"], "make", ["-e", "-c", "X"]],
] as const)("%p", (args, command, rebuilt) => {
  const p = parseShellArgs(args);
  expect(p.command).toBe(command);
  expect(p.withCommand("X")).toEqual([...rebuilt]);
});

test.each([[[]], [["script.sh"]], [["-l"]], [["-c"]]] as const)("no command in %p", (args) => {
  expect(parseShellArgs(args).command).toBeUndefined();
});

import { describe, expect, test } from "bun:test";
import { route } from "./route.ts";

describe("route", () => {
  test.each([
    ["memnox", ["status"], "cli", ["status"], undefined],
    ["/home/u/.memnox/app/memnox", ["--help"], "cli", ["--help"], undefined],
    [
      "memnox-mcp-proxy",
      ["--name", "fs", "--", "npx", "x"],
      "mcp-proxy",
      ["--name", "fs", "--", "npx", "x"],
      undefined,
    ],
    ["/usr/local/bin/memnox-session", [], "session", [], undefined],
    ["memnox-shell", ["-c", "ls"], "shell", ["-c", "ls"], undefined],
    ["/h/.memnox/bin/memnox-bash", ["-c", "-l", "ls"], "shell", ["-c", "-l", "ls"], undefined],
    ["memnox-zsh", ["-c", "ls"], "shell", ["-c", "ls"], undefined],
    ["/home/u/.memnox/bin/git", ["push"], "shim", ["push"], "git"],
    ["gh", ["pr", "merge", "1"], "shim", ["pr", "merge", "1"], "gh"],
    ["memnox", ["hook", "claude-code", "PreToolUse"], "hook", ["claude-code", "PreToolUse"], undefined],
    ["memnox", ["shim", "/usr/bin/git", "status"], "shim", ["status"], "git"],
    ["memnox", ["shim"], "cli", ["shim"], undefined],
    ["memnox", ["shell", "-c", "ls"], "shell", ["-c", "ls"], undefined],
    ["memnox", ["daemon", "--status"], "daemon", ["--status"], undefined],
    [
      "memnox",
      ["wall", "/h/.memnox/guard/sessions/s.json", "--", "/bin/sh"],
      "wall",
      ["/h/.memnox/guard/sessions/s.json", "--", "/bin/sh"],
      undefined,
    ],
    ["memnox", ["mcp", "proxy", "--name", "x", "--", "srv"], "mcp-proxy", ["--name", "x", "--", "srv"], undefined],
    ["memnox", ["mcp", "session", "serve"], "session", [], undefined],
    ["memnox", ["mcp", "wrap"], "cli", ["mcp", "wrap"], undefined],
    ["memnox-linux-x64", ["status"], "cli", ["status"], undefined],
    ["bun", ["policy", "test", "ls"], "cli", ["policy", "test", "ls"], undefined],
  ] as const)("%s %p", (argv0, args, face, outArgs, name) => {
    const r = route(argv0, args);
    expect(r.face).toBe(face);
    expect(r.args).toEqual([...outArgs]);
    expect(r.name).toBe(name);
  });
});

import { describe, expect, test } from "bun:test";
import { isSessionServer, unwrapCommand, wrapCommand } from "./wrapping.ts";

describe("wrapped entries", () => {
  test("wrap and unwrap are inverse for the compiled binary and for bun running the source", () => {
    for (const launcher of [["/h/.memnox/app/memnox"], ["/usr/bin/bun", "/src/memnox/bin/memnox.ts"]]) {
      const w = wrapCommand(launcher, "fs", "npx", ["-y", "pkg", "--", "x"]);
      expect(w.command).toBe(launcher[0] as string);
      expect(unwrapCommand(w.command, w.args)).toEqual({ name: "fs", command: "npx", args: ["-y", "pkg", "--", "x"] });
    }
    expect(wrapCommand(["/m"], "a", "srv", [])).toEqual({
      command: "/m",
      args: ["mcp", "proxy", "--name", "a", "--", "srv"],
    });
  });

  test("the memnox-mcp-proxy name is recognised too; anything else is not memnox's wrapping", () => {
    expect(unwrapCommand("/x/memnox-mcp-proxy", ["--name", "s", "--", "node", "a.js"])).toEqual({
      name: "s",
      command: "node",
      args: ["a.js"],
    });
    expect(unwrapCommand("npx", ["mcp", "proxy", "--name", "s", "--", "x"])).toBeUndefined();
    expect(unwrapCommand("/m/memnox", ["mcp", "proxy", "--name", "s"])).toBeUndefined();
    expect(unwrapCommand("/m/memnox", ["mcp", "proxy", "--name", "s", "--"])).toBeUndefined();
    expect(unwrapCommand("/m/memnox", ["mcp", "session", "serve"])).toBeUndefined();
  });

  test("memnox's session server is known by its name, its face name or its subcommand", () => {
    expect(isSessionServer("memnox-session", "anything")).toBe(true);
    expect(isSessionServer("s", "/h/.memnox/bin/memnox-session")).toBe(true);
    expect(isSessionServer("s", "/h/.memnox/app/memnox", ["mcp", "session", "serve"])).toBe(true);
    expect(isSessionServer("s", "bun", ["/src/bin/memnox.ts", "mcp", "session", "serve"])).toBe(true);
    expect(isSessionServer("s", "npx", ["mcp", "session", "serve"])).toBe(false);
    expect(isSessionServer("s", undefined)).toBe(false);
  });
});

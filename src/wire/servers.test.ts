import { describe, expect, test } from "bun:test";
import { readEntry } from "./servers.ts";

const at = { path: ["mcpServers"], scope: "user" as const };
const transport = (raw: unknown) => readEntry("s", raw, at)?.transport;

describe("reading one server entry", () => {
  test("the transport each client means", () => {
    expect(transport({ type: "stdio", command: "npx" })).toBe("stdio");
    expect(transport({ command: "npx", args: ["-y"] })).toBe("stdio");
    expect(transport({ type: "http", url: "https://x" })).toBe("http");
    expect(transport({ type: "sse", url: "https://x" })).toBe("sse");
    expect(transport({ url: "https://x" })).toBe("http");
    expect(transport({ httpUrl: "https://x" })).toBe("http");
    expect(transport({ serverUrl: "https://x" })).toBe("http");
    expect(transport({ type: "streamableHttp", url: "https://x" })).toBe("http");
    expect(transport({ url: "https://x", transport: "streamable-http" })).toBe("http");
    expect(transport({ url: "https://x", command: "npx" })).toBe("http");
    expect(transport({ source: "extension", settings: {} })).toBe("unknown");
    expect(transport({ command: "npx", args: [1, 2] })).toBe("unknown");
    expect(readEntry("s", "not an object", at)).toBeUndefined();
  });

  test("env keys only, Codex's env_vars included, and Zed's nested command", () => {
    const codex = readEntry("s", { command: "c", env: { A: "secret" }, env_vars: ["B"] }, at);
    expect(codex?.envKeys).toEqual(["A", "B"]);
    expect(JSON.stringify(codex)).not.toContain("secret");
    const zed = readEntry("z", { command: { path: "/bin/z", args: ["--stdio"], env: { K: "v" } } }, at);
    expect(zed).toMatchObject({
      command: "/bin/z",
      args: ["--stdio"],
      envKeys: ["K"],
      commandPath: ["command", "path"],
      argsPath: ["command", "args"],
      path: ["mcpServers", "z"],
    });
    expect(readEntry("d", { command: "c", disabled: true }, at)?.disabled).toBe(true);
    expect(readEntry("e", { command: "c", enabled: false }, at)?.disabled).toBe(true);
  });
});

// The session face as an agent starts it: a separate process on stdio, by its own name and as a subcommand.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { fakeHome, gitRepo, runSource } from "./support/index.ts";

const ROOT = join(import.meta.dir, "..");
const home = fakeHome();
const repo = gitRepo({ "README.md": "hi\n" });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

async function connect(argv0: string, args: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, "bin", "memnox.ts"), ...args],
    env: home.env({ MEMNOX_ARGV0: argv0, ...env }),
    cwd: repo.path,
    stderr: "pipe",
  });
  const client = new Client({ name: "agent", version: "1" });
  await client.connect(transport);
  return client;
}

const text = (r: unknown) => (r as { content: { text: string }[] }).content.map((c) => c.text).join("\n");

test.each([
  ["memnox-session", []],
  ["memnox", ["mcp", "session", "serve"]],
] as const)(
  "started as %s %p it serves the five tools over stdio",
  async (argv0, args) => {
    const client = await connect(argv0, [...args], { MEMNOX_SESSION: "ses_face" });
    expect(client.getServerVersion()?.name).toBe("memnox-session");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["decisions", "replay", "rewind", "status", "why"]);
    const status = await client.callTool({ name: "status", arguments: {} });
    expect(text(status)).toContain("Memnox is watching this session in observe mode");
    const decisions = await client.callTool({ name: "decisions", arguments: { command: "git push --force" } });
    expect(text(decisions)).toContain("git.push-force");
    await client.close();
  },
  20_000,
);

test("an argument is a usage error, before any MCP is spoken", async () => {
  const r = await runSource("memnox-session", ["--verbose"], { env: home.env() });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("memnox-session takes no arguments, not `--verbose`");
  expect(r.stdout).toBe("");
});

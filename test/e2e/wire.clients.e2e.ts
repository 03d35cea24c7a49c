// The real agent CLIs read what `memnox mcp wrap` wrote, and `unwrap` gives their files back byte for byte.
// Claude Code, Codex and Gemini CLI from node_modules, each on a temporary HOME, against the compiled binary.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { McpReport } from "../../src/wire/mcp-wrap.ts";
import { compiledBinary, fakeHome, runBinary } from "../support/index.ts";

const BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");
const EVERYTHING = realpathSync(join(BIN, "mcp-server-everything"));
// Each agent CLI takes one to three seconds to start; these tests run several of them in turn.
const SLOW = { timeout: 60_000 };

interface Ran {
  readonly code: number;
  readonly stdout: string;
  /** stdout then stderr: the CLIs differ in where they print their listings. */
  readonly out: string;
}

async function agent(cli: string, args: string[], env: Record<string, string>, cwd: string): Promise<Ran> {
  const child = Bun.spawn([join(BIN, cli), ...args], { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout: out, out: out + err };
}

function mustRun(r: Ran, what: string): string {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.out}`);
  return r.stdout;
}

describe("real agent CLIs over wrapped configs", () => {
  test(
    "claude, codex and gemini list the wrapped servers, and unwrap restores their files exactly",
    async () => {
      using home = fakeHome();
      const project = home.join("proj");
      mkdirSync(project);
      const env = home.env({ DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" });
      const memnox = await compiledBinary();

      await Promise.all([
        (async () => {
          mustRun(
            await agent("claude", ["mcp", "add", "fs", "--", EVERYTHING, "stdio"], env, project),
            "claude mcp add",
          );
          const user = ["mcp", "add", "-e", "API_KEY=canary-e2e-1", "--scope", "user", "ev", "--", "node", "ev.js"];
          mustRun(await agent("claude", user, env, project), "claude mcp add --scope user");
        })(),
        agent("codex", ["mcp", "add", "cx", "--env", "K=canary-e2e-2", "--", "node", "srv.js", "a"], env, project).then(
          (r) => mustRun(r, "codex mcp add"),
        ),
        agent("gemini", ["mcp", "add", "-s", "user", "gm", "node", "gm.js", "--flag"], env, project).then((r) =>
          mustRun(r, "gemini mcp add"),
        ),
      ]);
      // Claude Code adds its own keys on a first run in a new home; let it, so the snapshot is the settled file.
      mustRun(await agent("claude", ["mcp", "list"], env, project), "claude mcp list");
      const files = [".claude.json", ".codex/config.toml", ".gemini/settings.json"].map((f) => home.join(f));
      const before = files.map((f) => readFileSync(f, "utf8"));

      const wrap = await runBinary("memnox", ["mcp", "wrap", "--json"], { env, cwd: project });
      expect(wrap.code).toBe(0);
      const report = JSON.parse(wrap.stdout) as McpReport;
      expect(report.launcher).toEqual([memnox]);
      expect(report.files.map((f) => [f.file, f.status])).toEqual(files.map((f) => [f, "changed"]));
      expect(wrap.stdout + wrap.stderr).not.toContain("canary");

      const [claude, codex, gemini] = await Promise.all([
        agent("claude", ["mcp", "list"], env, project),
        agent("codex", ["mcp", "list", "--json"], env, project),
        agent("gemini", ["mcp", "list"], env, project),
      ]);
      expect(claude.out).toContain(`fs: ${memnox} mcp proxy --name fs -- ${EVERYTHING} stdio - `);
      expect(claude.out).toContain(`ev: ${memnox} mcp proxy --name ev -- node ev.js - `);
      const listed = JSON.parse(mustRun(codex, "codex mcp list")) as {
        name: string;
        transport: { command: string; args: string[]; env: Record<string, string> };
      }[];
      expect(listed.map((s) => [s.name, s.transport.command, s.transport.args, Object.keys(s.transport.env)])).toEqual([
        ["cx", memnox, ["mcp", "proxy", "--name", "cx", "--", "node", "srv.js", "a"], ["K"]],
      ]);
      expect(gemini.out).toContain(`gm: ${memnox} mcp proxy --name gm -- node gm.js --flag (stdio)`);

      const unwrap = await runBinary("memnox", ["mcp", "unwrap", "--json"], { env, cwd: project });
      expect(unwrap.code).toBe(0);
      const back = JSON.parse(unwrap.stdout) as McpReport;
      expect(back.files.map((f) => f.status)).toEqual(["restored", "restored", "restored"]);
      expect(files.map((f) => readFileSync(f, "utf8"))).toEqual(before);
      const again = await agent("claude", ["mcp", "list"], env, project);
      expect(again.out).toContain(`ev: node ev.js - `);
    },
    SLOW,
  );

  test(
    "when Claude Code rewrites ~/.claude.json after wrap, unwrap removes only the wrapping and Claude reads the rest",
    async () => {
      using home = fakeHome();
      const project = home.join("proj");
      mkdirSync(project);
      const env = home.env({ DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" });
      mustRun(
        await agent("claude", ["mcp", "add", "--scope", "user", "ev", "--", "node", "ev.js"], env, project),
        "add",
      );
      expect((await runBinary("memnox", ["mcp", "wrap"], { env, cwd: project })).code).toBe(0);
      const later = ["mcp", "add", "--scope", "user", "later", "--", "node", "later.js"];
      mustRun(await agent("claude", later, env, project), "claude mcp add after wrap");

      const unwrap = await runBinary("memnox", ["mcp", "unwrap", "--json"], { env, cwd: project });
      const report = JSON.parse(unwrap.stdout) as McpReport;
      expect(report.files.map((f) => [f.file, f.status])).toEqual([[home.join(".claude.json"), "removed"]]);
      const text = readFileSync(home.join(".claude.json"), "utf8");
      const claude = JSON.parse(text) as { mcpServers: Record<string, { command: string; args: string[] }> };
      expect(text).toBe(JSON.stringify(claude, null, 2));
      expect(claude.mcpServers.ev).toMatchObject({ command: "node", args: ["ev.js"] });
      expect(claude.mcpServers.later).toMatchObject({ command: "node", args: ["later.js"] });
      const listed = await agent("claude", ["mcp", "list"], env, project);
      expect(listed.out).toContain("ev: node ev.js - ");
      expect(listed.out).toContain("later: node later.js - ");
    },
    SLOW,
  );
});

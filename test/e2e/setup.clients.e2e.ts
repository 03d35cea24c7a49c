// The acceptance test for setup's config edits: real Claude Code, Codex and Gemini CLI from node_modules on a
// temporary HOME. After `memnox setup --yes` (the compiled binary) each still reads every server it had, now through
// the proxy, beside memnox-session and memnox's hooks; after `memnox uninstall` their files are byte-identical.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, fakeHome, runBinary } from "../support/index.ts";

const BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");
const EVERYTHING = realpathSync(join(BIN, "mcp-server-everything"));
const SLOW = { timeout: 120_000 };

async function agent(cli: string, args: string[], env: Record<string, string>, cwd: string) {
  const child = Bun.spawn([join(BIN, cli), ...args], { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`${cli} ${args.join(" ")} exited ${code}: ${out}${err}`);
  return { stdout: out, out: out + err };
}

describe("setup and uninstall under the real agent CLIs", () => {
  test(
    "claude, codex and gemini read every server through the proxy after setup; uninstall gives their files back exactly",
    async () => {
      using home = fakeHome();
      const project = home.join("proj");
      mkdirSync(project);
      const env = home.env({ DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" });
      await agent(
        "claude",
        ["mcp", "add", "--scope", "user", "ev", "-e", "API_KEY=canary-real-801", "--", EVERYTHING, "stdio"],
        env,
        project,
      );
      await agent("codex", ["mcp", "add", "cx", "--env", "K=canary-real-802", "--", "node", "srv.js"], env, project);
      await agent("gemini", ["mcp", "add", "-s", "user", "gm", "node", "gm.js"], env, project);
      await agent("claude", ["mcp", "list"], env, project);
      const files = [".claude.json", ".codex/config.toml", ".gemini/settings.json"].map((f) => home.join(f));
      const before = files.map((f) => readFileSync(f, "utf8"));

      const memnox = await compiledBinary();
      // memnox finds the agents by their settings folders here, so a developer's own PATH cannot add one.
      const own = { ...env, PATH: `${(process.env.PATH ?? "").split(":")[0]}:/usr/bin:/bin` };
      const setup = await runBinary("memnox", ["setup", "--yes", "--json"], { env: own, cwd: project });
      expect(setup.code).toBe(0);
      expect(setup.stdout + setup.stderr).not.toContain("canary");
      const report = JSON.parse(setup.stdout);
      const app = join(home.memnoxHome, "app", "memnox");
      expect(report.app).toMatchObject({ status: "copied", path: app });
      expect(report.hooks.map((h: { agent: string; status: string }) => [h.agent, h.status])).toEqual([
        ["claude-code", "added"],
        ["codex", "added"],
        ["gemini-cli", "added"],
      ]);
      expect(memnox).not.toBe(app);

      const [claude, codex, gemini] = await Promise.all([
        agent("claude", ["mcp", "list"], env, project),
        agent("codex", ["mcp", "list", "--json"], env, project),
        agent("gemini", ["mcp", "list"], env, project),
      ]);
      expect(claude.out).toContain(`ev: ${app} mcp proxy --name ev -- ${EVERYTHING} stdio - ✔ Connected`);
      expect(claude.out).toContain(`memnox-session: ${app} mcp session serve`);
      const listed = JSON.parse(codex.stdout) as { name: string; transport: { command: string; args: string[] } }[];
      expect(listed.map((s) => [s.name, s.transport.command, s.transport.args])).toEqual([
        ["cx", app, ["mcp", "proxy", "--name", "cx", "--", "node", "srv.js"]],
        ["memnox-session", app, ["mcp", "session", "serve"]],
      ]);
      expect(gemini.out).toContain(`gm: ${app} mcp proxy --name gm -- node gm.js (stdio)`);
      expect(gemini.out).toContain(`memnox-session: ${app} mcp session serve (stdio)`);

      const uninstall = await runBinary("memnox", ["uninstall", "--json"], { env: own, cwd: project });
      expect(uninstall.code).toBe(0);
      expect(files.map((f) => readFileSync(f, "utf8"))).toEqual(before);
      expect(existsSync(home.join(".claude", "settings.json"))).toBe(false);
      expect(existsSync(home.join(".codex", "hooks.json"))).toBe(false);
      // The binary stays until --purge, so `memnox uninstall --purge` still runs; then it goes.
      expect(existsSync(app)).toBe(true);
      expect((await runBinary("memnox", ["uninstall", "--purge"], { env: own, cwd: project })).code).toBe(0);
      expect(existsSync(app)).toBe(false);
      const again = await agent("claude", ["mcp", "list"], env, project);
      expect(again.out).toContain(`ev: ${EVERYTHING} stdio - ✔ Connected`);
    },
    SLOW,
  );
});

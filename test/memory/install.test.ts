// `memnox memory install | uninstall <harness>`: what lands in each harness's files, that a second run changes
// nothing, that every rewrite is backed up, and that uninstall gives back exactly what was there.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeError } from "../../src/core/errors.ts";
import { SNIPPETS, VERIFY_WORKFLOW } from "../../src/seams/cli/commands/memory/_harness.ts";
import { run } from "../../src/seams/cli/index.ts";
import { type FakeHome, fakeHome, testContext } from "../support/index.ts";

const homes: FakeHome[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) h[Symbol.dispose]();
});

function setup() {
  const home = fakeHome();
  homes.push(home);
  const project = home.join("project");
  mkdirSync(project, { recursive: true });
  const cli = async (args: string[], env: Record<string, string> = {}) => {
    const { ctx, io } = testContext(home, { args, cwd: project, env });
    const code = await run(ctx);
    return { code, out: io.stdout(), err: io.stderr() };
  };
  const json = async <T>(args: string[]) => {
    const r = await cli([...args, "--json"]);
    expect(r.code).toBe(0);
    return JSON.parse(r.out) as T;
  };
  const read = (p: string) => readFileSync(p, "utf8");
  return { home, project, cli, json, read };
}

interface Report {
  files_written: string[];
  files_merged: string[];
  files_removed: string[];
  files_updated: string[];
  notes: string[];
}

const LAUNCH = `${process.execPath} ${join(import.meta.dir, "..", "..", "bin", "memnox.ts")}`;

describe("memory install claude", () => {
  test("hooks, the MCP server and the guidance merge into existing files; a second install changes nothing", async () => {
    const { home, project, json, read } = setup();
    const settings = home.join(".claude/settings.json");
    mkdirSync(home.join(".claude"), { recursive: true });
    const original = `{\n  // my theme\n  "theme": "dark",\n  "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "notify-me" }] }] }\n}\n`;
    writeFileSync(settings, original);
    writeFileSync(join(project, "CLAUDE.md"), "# House rules\n\nTabs.\n");
    const r = await json<Report>(["memory", "install", "claude"]);
    expect(r.files_merged).toEqual([settings, join(project, "CLAUDE.md")]);
    expect(r.files_written).toContain(home.join(".claude.json"));
    const s = read(settings);
    expect(s).toContain("// my theme");
    const doc = JSON.parse(s.replace("  // my theme\n", ""));
    expect(doc.theme).toBe("dark");
    expect(doc.hooks.Stop).toEqual([{ hooks: [{ type: "command", command: "notify-me" }] }]);
    expect(doc.hooks.SessionStart[0].hooks[0].command).toBe(`${LAUNCH} memory hook session-start`);
    expect(doc.hooks.UserPromptSubmit[0].hooks[0].command).toBe(`${LAUNCH} memory hook prompt`);
    expect(doc.hooks.SessionEnd[0].hooks[0].command).toBe(`${LAUNCH} memory hook transcript --harness claude`);
    const mcp = JSON.parse(read(home.join(".claude.json"))).mcpServers["memnox-memory"];
    expect(mcp).toMatchObject({ type: "stdio", command: process.execPath });
    expect(mcp.args.slice(-2)).toEqual(["memory", "serve-mcp"]);
    expect(read(join(project, "CLAUDE.md"))).toBe(`# House rules\n\nTabs.\n\n${SNIPPETS.claude}`);
    // The store is initialised with a memex.toml that rides Claude Code's own model.
    expect(read(home.join(".memnox/memory/memex.toml"))).toContain('provider = "claude"');
    const before = [read(settings), read(home.join(".claude.json")), read(join(project, "CLAUDE.md"))];
    const again = await json<Report>(["memory", "install", "claude"]);
    expect([again.files_written, again.files_merged]).toEqual([[], []]);
    expect([read(settings), read(home.join(".claude.json")), read(join(project, "CLAUDE.md"))]).toEqual(before);
    // Backed up before the first change: the manifest names the original copy, byte for byte.
    const manifest = JSON.parse(read(home.join(".memnox/backup/manifest.json")));
    const entry = Object.values(manifest.files as Record<string, { path: string; copy: string }>).find(
      (e) => e.path === settings,
    );
    expect(entry && read(entry.copy)).toBe(original);
  });

  test("uninstall gives the files back byte for byte; keeps a person's later edits and the memory data", async () => {
    const { home, project, cli, json, read } = setup();
    mkdirSync(home.join(".claude"), { recursive: true });
    const settings = home.join(".claude/settings.json");
    writeFileSync(settings, '{ "theme": "dark" }\n');
    writeFileSync(join(project, "CLAUDE.md"), "# House rules\n");
    await json(["memory", "install", "claude"]);
    expect((await cli(["memory", "write", "--type", "entity", "--title", "Kept", "--body", "x"])).code).toBe(0);
    const r = await json<Report>(["memory", "uninstall", "claude"]);
    expect(read(settings)).toBe('{ "theme": "dark" }\n');
    expect(read(join(project, "CLAUDE.md"))).toBe("# House rules\n");
    expect(existsSync(home.join(".claude.json"))).toBe(false);
    expect(r.files_removed).toContain(home.join(".claude.json"));
    expect(existsSync(home.join(".memnox/memory/docs/global/entities/kept.md"))).toBe(true);
    // After a person edits the file, only memnox memory's entries come out.
    await json(["memory", "install", "claude"]);
    const edited = JSON.parse(read(settings));
    edited.model = "opus";
    writeFileSync(settings, JSON.stringify(edited, null, 2));
    await json(["memory", "uninstall", "claude"]);
    expect(JSON.parse(read(settings))).toEqual({ theme: "dark", model: "opus" });
  });

  test("--no-mcp skips the server; an unknown harness is a usage error naming the choices", async () => {
    const { home, cli, json } = setup();
    const r = await json<Report>(["memory", "install", "claude", "--no-mcp"]);
    expect(r.notes).toContain("MCP: skipped (--no-mcp)");
    expect(existsSync(home.join(".claude.json"))).toBe(false);
    const bad = await cli(["memory", "install", "cursorish"]).catch((e: unknown) => e);
    expect(describeError(bad)).toBe(
      "unknown harness `cursorish` (memnox memory install claude|codex|pi|copilot|custom)",
    );
  });
});

describe("memory install codex", () => {
  test("notify in the root table, the MCP server and the AGENTS.md contract; uninstall restores the config", async () => {
    const { home, project, json, read } = setup();
    mkdirSync(home.join(".codex"), { recursive: true });
    const config = home.join(".codex/config.toml");
    const original = 'model = "gpt-5"\n\n[profiles.fast]\nmodel = "o4-mini"\n';
    writeFileSync(config, original);
    await json(["memory", "install", "codex"]);
    const text = read(config);
    const toml = Bun.TOML.parse(text) as { notify: string[]; model: string; mcp_servers: Record<string, unknown> };
    expect(toml.notify.slice(-5)).toEqual(["memory", "hook", "transcript", "--harness", "codex"]);
    expect(toml.model).toBe("gpt-5");
    expect(toml.mcp_servers["memnox-memory"]).toMatchObject({ command: process.execPath });
    expect(read(join(project, "AGENTS.md"))).toBe(SNIPPETS.codex);
    expect((await json<Report>(["memory", "install", "codex"])).files_merged).toEqual([]);
    await json(["memory", "uninstall", "codex"]);
    expect(read(config)).toBe(original);
    expect(existsSync(join(project, "AGENTS.md"))).toBe(false);
  });

  test("a notify program of the person's own is never replaced: left, and the install says how to chain it", async () => {
    const { home, json, read } = setup();
    mkdirSync(home.join(".codex"), { recursive: true });
    writeFileSync(home.join(".codex/config.toml"), 'notify = ["my-notifier"]\n');
    const r = await json<Report>(["memory", "install", "codex"]);
    expect(r.notes.some((n) => n.startsWith("config.toml already has a notify program; left it"))).toBe(true);
    expect((Bun.TOML.parse(read(home.join(".codex/config.toml"))) as { notify: string[] }).notify).toEqual([
      "my-notifier",
    ]);
  });

  test("Codex's notify argument (its thread id) finds the rollout and captures it", async () => {
    const { home, cli, json } = setup();
    const day = home.join(".codex/sessions/2026/10/03");
    mkdirSync(day, { recursive: true });
    const thread = "0199a1b2-c3d4-7e5f-8a9b-c0d1e2f3a4b5";
    writeFileSync(
      join(day, `rollout-2026-10-03T14-00-00-${thread}.jsonl`),
      readFileSync(join(import.meta.dir, "..", "..", "fixtures", "memory", "harness", "codex.jsonl")),
    );
    const payload = JSON.stringify({ type: "agent-turn-complete", "thread-id": thread, "turn-id": "1", cwd: "/x" });
    const r = await cli(["memory", "hook", "transcript", "--harness", "codex", payload]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ session_id: thread, harness: "codex" });
    const sessions = await json<{ session_id: string }[]>(["memory", "sessions"]);
    expect(sessions.map((s) => s.session_id)).toEqual([thread]);
  });
});

describe("memory install pi, copilot and custom", () => {
  test("pi: the extension injects memory on the first turn and each prompt, and captures the session at shutdown", async () => {
    const { home, cli, json, read } = setup();
    await cli(["memory", "write", "--type", "preference", "--title", "Prefer ruff", "--body", "lint with ruff always"]);
    await json(["memory", "install", "pi"]);
    const file = home.join(".pi/agent/extensions/memnox-memory.ts");
    expect(read(file)).toContain('"memory", "hook", "session-start"');
    // Load the extension as pi would, with a stand-in for pi's API, and fire its events.
    const handlers = new Map<string, (event: unknown, ctx?: unknown) => Promise<unknown>>();
    const saved = { HOME: process.env.HOME, MEMNOX_HOME: process.env.MEMNOX_HOME };
    Object.assign(process.env, home.env());
    try {
      const mod = (await import(file)) as { default: (pi: unknown) => void };
      mod.default({
        on: (name: string, fn: (event: unknown, ctx?: unknown) => Promise<unknown>) => handlers.set(name, fn),
      });
      const first = (await handlers.get("before_agent_start")?.({ prompt: "ruff please", systemPrompt: "BASE" })) as {
        systemPrompt: string;
      };
      expect(first.systemPrompt.startsWith("BASE\n\n## Memory (memnox)")).toBe(true);
      expect(first.systemPrompt).toContain("=== memex MEMORY ===");
      expect(first.systemPrompt).toContain("1. Prefer ruff (preference)");
      const later = await handlers.get("before_agent_start")?.({ prompt: "quantum chromodynamics", systemPrompt: "B" });
      expect(later).toBeUndefined();
      const session = join(import.meta.dir, "..", "..", "fixtures", "memory", "harness", "pi.jsonl");
      await handlers.get("session_shutdown")?.({}, { sessionManager: { getSessionFile: () => session } });
    } finally {
      Object.assign(process.env, saved);
    }
    const sessions = await json<{ session_id: string; harness: string }[]>(["memory", "sessions"]);
    expect(sessions.map((s) => [s.session_id, s.harness])).toEqual([["pi-7f3a", "pi"]]);
    await json(["memory", "uninstall", "pi"]);
    expect(existsSync(file)).toBe(false);
  });

  test("copilot: instructions, the verify workflow and .vscode/mcp.json; a workflow someone changed stays", async () => {
    const { project, json, read } = setup();
    const r = await json<Report>(["memory", "install", "copilot"]);
    const workflow = join(project, ".github/workflows/memnox-memory-verify.yml");
    expect(read(workflow)).toBe(VERIFY_WORKFLOW);
    expect(read(join(project, ".github/copilot-instructions.md"))).toBe(SNIPPETS.copilot);
    expect(JSON.parse(read(join(project, ".vscode/mcp.json"))).servers["memnox-memory"].type).toBe("stdio");
    expect(r.notes).toContain("MCP: .vscode/mcp.json (VS Code agent mode)");
    writeFileSync(workflow, `${VERIFY_WORKFLOW}# mine now\n`);
    const u = await json<Report>(["memory", "uninstall", "copilot"]);
    expect(read(workflow)).toContain("# mine now");
    expect(u.notes).toContain(`${workflow} changed since install; left untouched`);
    expect(existsSync(join(project, ".vscode/mcp.json"))).toBe(false);
    expect(existsSync(join(project, ".github/copilot-instructions.md"))).toBe(false);
  });

  test("custom initialises the store only: its tree and a starter memex.toml, never overwritten", async () => {
    const { home, json, read } = setup();
    const r = await json<Report>(["memory", "install", "custom"]);
    const toml = home.join(".memnox/memory/memex.toml");
    expect(r.files_written).toEqual([toml]);
    expect(read(toml)).toContain("[llm]");
    for (const d of ["docs/global", "docs/projects", "transcripts", "logs"])
      expect(existsSync(home.join(`.memnox/memory/${d}`))).toBe(true);
    writeFileSync(toml, "[llm]\nmodel = 'mine'\n");
    expect((await json<Report>(["memory", "install", "custom"])).notes).toContain(
      "memex.toml already present; left untouched",
    );
    expect(read(toml)).toBe("[llm]\nmodel = 'mine'\n");
    expect(existsSync(home.join(".claude/settings.json"))).toBe(false);
    expect((await json<Report>(["memory", "harness", "uninstall", "custom"])).notes[0]).toBe(
      "no adapter to remove; memory data retained",
    );
  });
});

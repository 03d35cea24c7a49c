// `memnox mcp wrap` / `unwrap` over a fake home holding every client's real config format.
import { describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../src/seams/cli/index.ts";
import { type ClientFile, candidateFiles } from "../src/wire/clients.ts";
import { parseDocument } from "../src/wire/edit/document.ts";
import type { McpReport } from "../src/wire/mcp-wrap.ts";
import { serversIn } from "../src/wire/read.ts";
import type { ServerEntry } from "../src/wire/servers.ts";
import { wrapCommand } from "../src/wire/wrapping.ts";
import { type FakeHome, fakeHome, fixturePath, fixtureTree, lineDiff, testContext } from "./support/index.ts";

const FILES = [
  ".claude.json",
  "project/.mcp.json",
  "dotfiles/claude_desktop_config.json",
  ".cursor/mcp.json",
  "project/.cursor/mcp.json",
  ".codex/config.toml",
  ".gemini/settings.json",
  "project/.gemini/settings.json",
  ".codeium/windsurf/mcp_config.json",
  ".config/Code/User/mcp.json",
  "project/.vscode/mcp.json",
  ".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
  ".config/zed/settings.json",
  ".hermes/config.yaml",
  ".openclaw/openclaw.json",
];

function clientsHome(): FakeHome {
  return fakeHome({
    ...fixtureTree("homes", "mcp-clients"),
    ".claude.json": { content: readFileSync(fixturePath("homes", "mcp-clients", ".claude.json")), mode: 0o600 },
    ".config/Claude/claude_desktop_config.json": { symlink: "../../dotfiles/claude_desktop_config.json" },
  });
}

function snapshot(home: FakeHome): Record<string, string> {
  return Object.fromEntries(FILES.map((f) => [f, readFileSync(home.join(f), "utf8")]));
}

async function mcp(home: FakeHome, args: string[]) {
  const { ctx, io } = testContext(home, { args: ["mcp", ...args], cwd: home.join("project") });
  const code = await run(ctx);
  return { code, out: io.stdout(), launcher: [...ctx.selfArgv] };
}

async function mcpJson(home: FakeHome, args: string[]) {
  const r = await mcp(home, [...args, "--json"]);
  return { ...r, report: JSON.parse(r.out) as McpReport };
}

const rel = (home: FakeHome, p: string) => p.slice(home.path.length + 1);

function fileStatuses(home: FakeHome, r: McpReport): Record<string, string> {
  return Object.fromEntries(r.files.map((f) => [rel(home, f.file), f.status]));
}

function serverStatuses(r: McpReport): Record<string, string> {
  return Object.fromEntries(r.files.flatMap((f) => f.servers.map((s) => [`${f.client}:${s.server.name}`, s.status])));
}

function entriesOf(home: FakeHome, text: string, relPath: string): Map<string, ServerEntry> {
  const loc = { home: home.path, cwd: home.join("project"), env: home.env() };
  const real =
    relPath === "dotfiles/claude_desktop_config.json" ? ".config/Claude/claude_desktop_config.json" : relPath;
  const file = candidateFiles(loc).find((f) => f.path === home.join(real)) as ClientFile;
  if (file.format === "yaml" || relPath === "project/.gemini/settings.json") return new Map();
  return new Map(serversIn(file, parseDocument(file.format, text)).map((e) => [e.path.join("/"), e]));
}

function withoutCommand(e: ServerEntry | undefined): Partial<ServerEntry> {
  const { command: _command, args: _args, ...rest } = e ?? ({} as ServerEntry);
  return rest;
}

/** A removed line belongs to a command or an argument list: the key line, an item, or the closing bracket. */
const COMMAND_OR_ARGS = /"?(?:command|path)"?\s*[:=]|"?args"?\s*[:=]|^\s*(?:"[^"]*"|'[^']*'),?\s*$|^\s*\],?\s*$/;

describe("mcp wrap", () => {
  test("repoints every stdio server, lists remote ones, and leaves memnox-session, Hermes and a broken file alone", async () => {
    using home = clientsHome();
    const before = snapshot(home);
    const { code, report, launcher } = await mcpJson(home, ["wrap"]);
    expect(code).toBe(1);
    expect(fileStatuses(home, report)).toEqual({
      ".claude.json": "changed",
      "project/.mcp.json": "changed",
      ".config/Claude/claude_desktop_config.json": "changed",
      ".cursor/mcp.json": "changed",
      "project/.cursor/mcp.json": "unchanged",
      ".codex/config.toml": "changed",
      ".gemini/settings.json": "changed",
      "project/.gemini/settings.json": "unparsable",
      ".codeium/windsurf/mcp_config.json": "changed",
      ".config/Code/User/mcp.json": "changed",
      "project/.vscode/mcp.json": "changed",
      ".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json": "changed",
      ".config/zed/settings.json": "changed",
      ".hermes/config.yaml": "left-alone",
      ".openclaw/openclaw.json": "changed",
    });
    expect(serverStatuses(report)).toEqual({
      "claude-code:github": "wrapped",
      "claude-code:linear": "remote",
      "claude-code:memnox-session": "self",
      "claude-code:postgres": "wrapped",
      "claude-code:everything": "wrapped",
      "claude-desktop:memory": "wrapped",
      "cursor:filesystem": "wrapped",
      "cursor:context7": "remote",
      "cursor:sentry": "wrapped",
      "codex:docs": "wrapped",
      "codex:figma": "remote",
      "codex:shell-tools": "wrapped",
      "gemini-cli:sqlite": "wrapped",
      "gemini-cli:remote-http": "remote",
      "windsurf:browser": "wrapped",
      "windsurf:stripe": "remote",
      "vscode:gh": "wrapped",
      "vscode:remote": "remote",
      "vscode:playwright": "wrapped",
      "cline:weather": "wrapped",
      "cline:hosted": "remote",
      "zed:postgres-context-server": "no-command",
      "zed:mcp-time": "wrapped",
      "zed:old-style": "wrapped",
      "hermes:fs": "left-alone",
      "hermes:remote": "left-alone",
      "openclaw:notes": "wrapped",
    });
    const broken = report.files.find((f) => f.status === "unparsable");
    expect(broken?.problem).toEqual({ message: "expected `,` or `}`", line: 5, column: 7 });

    const after = snapshot(home);
    for (const f of FILES) {
      const wasEntries = entriesOf(home, before[f] as string, f);
      const nowEntries = entriesOf(home, after[f] as string, f);
      for (const [key, was] of wasEntries) {
        const now = nowEntries.get(key);
        const status = report.files.flatMap((r) => r.servers).find((s) => s.server.name === was.name)?.status;
        if (status !== "wrapped") {
          expect(now, `${f} ${key}`).toEqual(was);
          continue;
        }
        const wrapped = wrapCommand(launcher, was.name, was.command as string, was.args ?? []);
        expect({ command: now?.command, args: now?.args }, `${f} ${key}`).toEqual(wrapped);
        expect(withoutCommand(now)).toEqual(withoutCommand(was));
      }
      const diff = lineDiff(before[f] as string, after[f] as string);
      for (const line of diff.removed) expect(line, `${f}: ${line}`).toMatch(COMMAND_OR_ARGS);
    }
    for (const untouched of ["project/.gemini/settings.json", ".hermes/config.yaml", "project/.cursor/mcp.json"]) {
      expect(after[untouched]).toBe(before[untouched] as string);
    }
  });

  test("writes go through a symlink to its target and keep a 0600 file's mode", async () => {
    using home = clientsHome();
    await mcp(home, ["wrap"]);
    expect(statSync(home.join(".claude.json")).mode & 0o777).toBe(0o600);
    expect(lstatSync(home.join(".config/Claude/claude_desktop_config.json")).isSymbolicLink()).toBe(true);
    expect(readFileSync(home.join("dotfiles/claude_desktop_config.json"), "utf8")).toContain('"proxy"');
    const backups = join(home.memnoxHome, "backup");
    const manifest = JSON.parse(readFileSync(join(backups, "manifest.json"), "utf8")) as {
      files: Record<string, { copy: string; path: string }>;
    };
    const desktop = manifest.files[home.join("dotfiles/claude_desktop_config.json")];
    expect(desktop?.path).toBe(home.join(".config/Claude/claude_desktop_config.json"));
    expect(statSync(desktop?.copy as string).mode & 0o777).toBe(0o600);
  });

  test("running it twice changes nothing: same bytes, same backups", async () => {
    using home = clientsHome();
    await mcp(home, ["wrap"]);
    const once = snapshot(home);
    const manifest = readFileSync(join(home.memnoxHome, "backup", "manifest.json"), "utf8");
    const { report } = await mcpJson(home, ["wrap"]);
    expect(snapshot(home)).toEqual(once);
    expect(readFileSync(join(home.memnoxHome, "backup", "manifest.json"), "utf8")).toBe(manifest);
    expect(report.files.filter((f) => f.status === "changed")).toEqual([]);
    expect(report.counts.wrapped).toBeUndefined();
    expect(report.counts["already-wrapped"]).toBe(16);
  });

  test("--dry-run says what would change and writes nothing, not even a backup", async () => {
    using home = clientsHome();
    const before = snapshot(home);
    const { report } = await mcpJson(home, ["wrap", "--dry-run"]);
    expect(report.files.filter((f) => f.status === "would-change")).toHaveLength(12);
    expect(snapshot(home)).toEqual(before);
    expect(() => statSync(join(home.memnoxHome, "backup"))).toThrow();
  });

  test("the human form names each file, what happened and the broken file's line, and prints no secret", async () => {
    using home = clientsHome();
    const { out } = await mcp(home, ["wrap"]);
    expect(out).toContain("Codex  ~/.codex/config.toml  changed (backup ~/.memnox/backup/config.toml.");
    expect(out).toContain(
      "Gemini CLI  ~/project/.gemini/settings.json  left alone, it does not parse (line 5, column 7",
    );
    expect(out).toContain("Hermes  ~/.hermes/config.yaml  left alone: Hermes keeps its servers in YAML");
    expect(out).toContain("--password ***");
    expect(out).toContain("16 wrapped, 7 remote and not wrapped");
    const json = (await mcp(home, ["wrap", "--json"])).out;
    const unwrap = (await mcp(home, ["unwrap"])).out + (await mcp(home, ["unwrap", "--json"])).out;
    for (const text of [out, json, unwrap]) expect(text).not.toMatch(/canary/i);
  });

  test("--client limits the run; an unknown client is a usage error naming the choices", async () => {
    using home = clientsHome();
    const before = snapshot(home);
    const { report } = await mcpJson(home, ["wrap", "--client", "codex,zed"]);
    expect(report.files.map((f) => f.client)).toEqual(["codex", "zed"]);
    expect(snapshot(home)[".claude.json"]).toBe(before[".claude.json"] as string);
    await expect(mcp(home, ["wrap", "--client", "emacs"])).rejects.toThrow(/unknown client `emacs`/);
  });
});

test("on a machine with no MCP client config, wrap says so and changes nothing", async () => {
  using home = fakeHome();
  expect((await mcpJson(home, ["wrap"])).report.files).toEqual([]);
  expect((await mcp(home, ["wrap"])).out).toBe("found no MCP client config on this machine\n");
});

describe("mcp unwrap", () => {
  test("restores every file byte for byte when nothing changed since memnox wrote it", async () => {
    using home = clientsHome();
    const before = snapshot(home);
    await mcp(home, ["wrap"]);
    const { code, report } = await mcpJson(home, ["unwrap"]);
    expect(code).toBe(0);
    expect(new Set(report.files.map((f) => f.status))).toEqual(new Set(["restored"]));
    expect(report.files).toHaveLength(12);
    expect(snapshot(home)).toEqual(before);
    expect(statSync(home.join(".claude.json")).mode & 0o777).toBe(0o600);
    expect(lstatSync(home.join(".config/Claude/claude_desktop_config.json")).isSymbolicLink()).toBe(true);
    const manifest = JSON.parse(readFileSync(join(home.memnoxHome, "backup", "manifest.json"), "utf8"));
    expect(manifest).toEqual({ version: 1, files: {} });
  });

  test("after the agent rewrote the file, removes only memnox's wrapping and keeps everything else", async () => {
    using home = clientsHome();
    const before = snapshot(home);
    await mcp(home, ["wrap"]);
    // Claude Code rewrites ~/.claude.json whole, as JSON.stringify(…, null, 2) with its own new keys.
    const claude = JSON.parse(readFileSync(home.join(".claude.json"), "utf8"));
    claude.numStartups = 13;
    claude.projects["/work/new"] = { allowedTools: [], hasTrustDialogAccepted: false };
    writeFileSync(home.join(".claude.json"), JSON.stringify(claude, null, 2));
    // A person adds a server to Codex and edits a comment in Cursor's file.
    const codex = `${readFileSync(home.join(".codex/config.toml"), "utf8")}\n[mcp_servers.added]\ncommand = "added-mcp"\n`;
    writeFileSync(home.join(".codex/config.toml"), codex);
    const cursor = readFileSync(home.join(".cursor/mcp.json"), "utf8").replace("kept by hand", "kept by Ana");
    writeFileSync(home.join(".cursor/mcp.json"), cursor);

    const { report } = await mcpJson(home, ["unwrap"]);
    const statuses = fileStatuses(home, report);
    expect([statuses[".claude.json"], statuses[".codex/config.toml"], statuses[".cursor/mcp.json"]]).toEqual([
      "removed",
      "removed",
      "removed",
    ]);
    expect(Object.values(statuses).filter((s) => s === "restored")).toHaveLength(9);

    const original = JSON.parse(before[".claude.json"] as string);
    expect(readFileSync(home.join(".claude.json"), "utf8")).toBe(
      JSON.stringify(
        { ...claude, mcpServers: original.mcpServers, projects: unwrappedProjects(claude, original) },
        null,
        2,
      ),
    );
    const codexNow = readFileSync(home.join(".codex/config.toml"), "utf8");
    expect(codexNow).toBe(`${before[".codex/config.toml"]}\n[mcp_servers.added]\ncommand = "added-mcp"\n`);
    expect(readFileSync(home.join(".cursor/mcp.json"), "utf8")).toBe(
      (before[".cursor/mcp.json"] as string).replace("kept by hand", "kept by Ana"),
    );
    expect(statSync(home.join(".claude.json")).mode & 0o777).toBe(0o600);
    const human = (await mcp(home, ["unwrap"])).out;
    expect(human).toBe("nothing memnox wrapped is left\n");
  });

  test("a wrapped file somebody broke since is named and left as it is; the others are restored", async () => {
    using home = clientsHome();
    const before = snapshot(home);
    await mcp(home, ["wrap"]);
    const broken = `${readFileSync(home.join(".cursor/mcp.json"), "utf8")}}`;
    writeFileSync(home.join(".cursor/mcp.json"), broken);
    const { code, report } = await mcpJson(home, ["unwrap"]);
    expect(code).toBe(1);
    const cursor = report.files.find((f) => f.file === home.join(".cursor/mcp.json"));
    expect(cursor?.status).toBe("unparsable");
    expect(cursor?.problem?.message).toBe("unexpected text after the end of the document");
    expect(readFileSync(home.join(".cursor/mcp.json"), "utf8")).toBe(broken);
    expect(snapshot(home)[".codex/config.toml"]).toBe(before[".codex/config.toml"] as string);
  });

  test("wrap and unwrap flip kept.json's wrapNewMcpServers where setup wrote one, and never create it", async () => {
    using home = clientsHome();
    await mcp(home, ["wrap"]);
    expect(() => statSync(join(home.memnoxHome, "kept.json"))).toThrow();
    writeFileSync(join(home.memnoxHome, "kept.json"), JSON.stringify({ agents: ["claude-code"] }));
    expect((await mcpJson(home, ["wrap"])).report.kept).toBe("updated");
    expect(JSON.parse(readFileSync(join(home.memnoxHome, "kept.json"), "utf8"))).toEqual({
      agents: ["claude-code"],
      wrapNewMcpServers: true,
    });
    await mcp(home, ["unwrap"]);
    expect(JSON.parse(readFileSync(join(home.memnoxHome, "kept.json"), "utf8")).wrapNewMcpServers).toBe(false);
  });
});

describe("where the files are and which memnox they start", () => {
  test("CODEX_HOME and CLAUDE_CONFIG_DIR move those clients' files; the stable copy is preferred when setup made it", async () => {
    using home = fakeHome({
      "codex-home/config.toml": '[mcp_servers.a]\ncommand = "a-mcp"\n',
      "claude-dir/.claude.json": '{"mcpServers": {"b": {"command": "b-mcp", "args": []}}}',
      ".memnox/app/memnox": { content: "#!/bin/sh\n", mode: 0o755 },
    });
    const env = { CODEX_HOME: home.join("codex-home"), CLAUDE_CONFIG_DIR: home.join("claude-dir") };
    const { ctx, io } = testContext(home, { args: ["mcp", "wrap", "--json"], env });
    await run(ctx);
    const report = JSON.parse(io.stdout()) as McpReport;
    expect(report.launcher).toEqual([join(home.memnoxHome, "app", "memnox")]);
    expect(report.files.map((f) => rel(home, f.file))).toEqual(["claude-dir/.claude.json", "codex-home/config.toml"]);
    expect(readFileSync(home.join("codex-home/config.toml"), "utf8")).toBe(
      `[mcp_servers.a]\ncommand = "${join(home.memnoxHome, "app", "memnox")}"\nargs = ["mcp", "proxy", "--name", "a", "--", "a-mcp"]\n`,
    );
  });

  test("an entry wrapped with a memnox binary that is gone is repointed at this one", async () => {
    const stale = { command: "/gone/memnox", args: ["mcp", "proxy", "--name", "s", "--", "s-mcp", "--x"] };
    using home = fakeHome({ ".cursor/mcp.json": JSON.stringify({ mcpServers: { s: stale } }, null, 2) });
    mkdirSync(join(home.memnoxHome, "app"), { recursive: true });
    writeFileSync(join(home.memnoxHome, "app", "memnox"), "#!/bin/sh\n", { mode: 0o755 });
    const { report } = await mcpJson(home, ["wrap"]);
    expect(serverStatuses(report)).toEqual({ "cursor:s": "repointed" });
    const now = JSON.parse(readFileSync(home.join(".cursor/mcp.json"), "utf8")).mcpServers.s;
    expect(now).toEqual({ ...stale, command: join(home.memnoxHome, "app", "memnox") });
  });
});

function unwrappedProjects(now: Record<string, unknown>, original: Record<string, unknown>): unknown {
  const projects = { ...(now.projects as Record<string, Record<string, unknown>>) };
  const shop = (original.projects as Record<string, Record<string, unknown>>)["/work/shop"];
  projects["/work/shop"] = { ...projects["/work/shop"], mcpServers: shop?.mcpServers };
  return projects;
}

import { describe, expect, test } from "bun:test";
import { CLIENT_IDS, candidateFiles } from "./clients.ts";

const loc = (env: Record<string, string> = {}) => ({ home: "/h", cwd: "/h/repo", env });
const paths = (env: Record<string, string> = {}, ids = CLIENT_IDS) => candidateFiles(loc(env), ids).map((f) => f.path);

describe("where each client keeps its servers", () => {
  test("every client the issue lists, in user and project scope", () => {
    const files = candidateFiles(loc());
    expect(new Set(files.map((f) => f.client))).toEqual(new Set(CLIENT_IDS));
    expect(
      paths({}, ["claude-code", "cursor", "codex", "gemini-cli", "windsurf", "zed", "hermes", "openclaw"]),
    ).toEqual([
      "/h/.claude.json",
      "/h/repo/.mcp.json",
      "/h/.cursor/mcp.json",
      "/h/repo/.cursor/mcp.json",
      "/h/.codex/config.toml",
      "/h/repo/.codex/config.toml",
      "/h/.gemini/settings.json",
      "/h/repo/.gemini/settings.json",
      "/h/.codeium/windsurf/mcp_config.json",
      "/h/.config/zed/settings.json",
      "/h/repo/.zed/settings.json",
      "/h/.hermes/config.yaml",
      "/h/.openclaw/openclaw.json",
    ]);
    expect(paths({}, ["vscode"])).toContain("/h/repo/.vscode/mcp.json");
    expect(paths({}, ["vscode"])).toContain("/h/Library/Application Support/Code/User/mcp.json");
    expect(paths({}, ["claude-desktop"])).toEqual([
      "/h/Library/Application Support/Claude/claude_desktop_config.json",
      "/h/.config/Claude/claude_desktop_config.json",
    ]);
    expect(paths({}, ["cline"])).toContain(
      "/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
    );
  });

  test("the environment moves them where the clients themselves look", () => {
    const env = {
      CLAUDE_CONFIG_DIR: "/c",
      CODEX_HOME: "/x",
      GEMINI_CLI_HOME: "/g",
      XDG_CONFIG_HOME: "/xdg",
      HERMES_HOME: "/hm",
      OPENCLAW_STATE_DIR: "/oc",
    };
    const got = paths(env);
    for (const p of ["/c/.claude.json", "/x/config.toml", "/g/.gemini/settings.json", "/xdg/zed/settings.json"]) {
      expect(got).toContain(p);
    }
    expect(got).toContain("/hm/config.yaml");
    expect(got).toContain("/oc/openclaw.json");
    expect(paths({ OPENCLAW_CONFIG_PATH: "/etc/oc.json5" }, ["openclaw"])).toEqual(["/etc/oc.json5"]);
  });

  test("a project file that is also the user file is read once, as the user's", () => {
    const files = candidateFiles({ home: "/h", cwd: "/h", env: {} }, ["gemini-cli"]);
    expect(files).toEqual([{ client: "gemini-cli", path: "/h/.gemini/settings.json", scope: "user", format: "json" }]);
  });
});

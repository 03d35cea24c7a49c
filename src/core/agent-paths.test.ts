import { describe, expect, test } from "bun:test";
import { credentialPlaces } from "../scan/credentials.ts";
import { skillPlaces } from "../scan/skills.ts";
import {
  claudeDir,
  claudeSettings,
  claudeState,
  codexConfig,
  codexHooks,
  geminiDir,
  geminiSettings,
} from "./agent-paths.ts";

describe("where each agent keeps its configuration", () => {
  test("under the home by default", () => {
    expect([claudeDir("/h", {}), claudeState("/h", {}), claudeSettings("/h", {})]).toEqual([
      "/h/.claude",
      "/h/.claude.json",
      "/h/.claude/settings.json",
    ]);
    expect([codexConfig("/h", {}), codexHooks("/h", {})]).toEqual(["/h/.codex/config.toml", "/h/.codex/hooks.json"]);
    expect([geminiDir("/h/", {}), geminiSettings("/", {})]).toEqual(["/h/.gemini", "/.gemini/settings.json"]);
  });

  test("where the agent's own variable moves it", () => {
    const env = { CLAUDE_CONFIG_DIR: "/c", CODEX_HOME: "/x", GEMINI_CLI_HOME: "/g" };
    expect([claudeDir("/h", env), claudeState("/h", env), claudeSettings("/h", env)]).toEqual([
      "/c",
      "/c/.claude.json",
      "/c/settings.json",
    ]);
    expect([codexConfig("/h", env), codexHooks("/h", env)]).toEqual(["/x/config.toml", "/x/hooks.json"]);
    expect(geminiSettings("/h", env)).toBe("/g/.gemini/settings.json");
  });

  test("the places kept unreadable and watched follow the moved folders too", () => {
    const env = { CLAUDE_CONFIG_DIR: "/c", CODEX_HOME: "/x", GEMINI_CLI_HOME: "/g" };
    const unreadable = credentialPlaces({ home: "/h", cwd: "/w", env }).map((p) => p.path);
    expect(unreadable).toContain("/c/.credentials.json");
    expect(unreadable).toContain("/x/auth.json");
    expect(unreadable).toContain("/g/.gemini/oauth_creds.json");
    expect(unreadable).not.toContain("/h/.claude/.credentials.json");
    expect(skillPlaces("/h", env)).toContain("/g/.gemini/commands");
  });
});

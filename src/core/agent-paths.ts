// THE table of where each agent keeps its own configuration, from the home and the variables that move it
// (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME). Pure: paths are joined as text.

type Env = Readonly<Record<string, string | undefined>>;

const under = (dir: string, name: string) => `${dir.replace(/\/+$/, "")}/${name}`;

/** Claude Code's folder: settings, skills, agents, commands, transcripts, shell snapshots. */
export const claudeDir = (home: string, env: Env): string => env.CLAUDE_CONFIG_DIR || under(home, ".claude");
/** Claude Code's state file (MCP servers, per-project servers, folder trust): beside its folder, not inside it. */
export const claudeState = (home: string, env: Env): string => under(env.CLAUDE_CONFIG_DIR || home, ".claude.json");
/** Claude Code's user settings (hooks, permissions, model). */
export const claudeSettings = (home: string, env: Env): string => under(claudeDir(home, env), "settings.json");

/** Codex's home: config.toml, hooks.json, auth.json, sessions, skills. */
export const codexHome = (home: string, env: Env): string => env.CODEX_HOME || under(home, ".codex");
export const codexConfig = (home: string, env: Env): string => under(codexHome(home, env), "config.toml");
export const codexHooks = (home: string, env: Env): string => under(codexHome(home, env), "hooks.json");

/** Gemini CLI's folder: settings, commands, extensions, tmp (its sessions). */
export const geminiDir = (home: string, env: Env): string => under(env.GEMINI_CLI_HOME || home, ".gemini");
export const geminiSettings = (home: string, env: Env): string => under(geminiDir(home, env), "settings.json");

/** The same agents' files inside a project, relative to its root. */
export const PROJECT_FILES = {
  claudeSettings: ".claude/settings.json",
  claudeLocalSettings: ".claude/settings.local.json",
  codexConfig: ".codex/config.toml",
  geminiSettings: ".gemini/settings.json",
} as const;

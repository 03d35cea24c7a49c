// What agents run on beyond their config: skills and subagents they were taught, commands and plugins somebody
// installed, and the instruction files (CLAUDE.md, AGENTS.md, GEMINI.md) that steer them, in the home and in the
// repository. Each is named, placed and hashed by content, so a new or changed one can be told from one accepted.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { claudeDir, codexHome, geminiDir } from "../core/agent-paths.ts";
import type { Env } from "../ports/index.ts";

type SkillKind = "skill" | "subagent" | "command" | "plugin" | "extension" | "prompt" | "instructions" | "config";

export interface SkillItem {
  /** `<agent>:<kind>:<where>:<name>`, stable across scans; what `--accept` and skills.json key on. */
  readonly id: string;
  readonly agent: "claude-code" | "codex" | "gemini-cli" | "cursor" | "any";
  readonly kind: SkillKind;
  readonly name: string;
  readonly path: string;
  readonly where: "home" | "repository";
  /** `sha256:` of the content (a folder: every file's path and content). */
  readonly hash: string;
}

const MAX_FILES = 400;
const MAX_BYTES = 2 * 1024 * 1024;

function entries(dir: string): { name: string; dir: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isFile())
      .map((d) => ({ name: d.name, dir: d.isDirectory() }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch {
    return [];
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Content hash of a file, or of a folder's files (paths and bytes, sorted, bounded). */
function contentHash(path: string): string {
  const h = new Bun.CryptoHasher("sha256");
  if (isFile(path)) {
    h.update(readFileSync(path));
    return `sha256:${h.digest("hex")}`;
  }
  let files = 0;
  let bytes = 0;
  const walk = (dir: string) => {
    for (const e of entries(dir)) {
      if (files >= MAX_FILES || bytes >= MAX_BYTES || e.name === ".git" || e.name === "node_modules") continue;
      const p = join(dir, e.name);
      if (e.dir) walk(p);
      else {
        const data = readFileSync(p);
        files += 1;
        bytes += data.length;
        h.update(relative(path, p)).update("\u0000").update(data).update("\u0000");
      }
    }
  };
  walk(path);
  return `sha256:${h.digest("hex")}`;
}

interface Found {
  readonly agent: SkillItem["agent"];
  readonly kind: SkillKind;
  readonly name: string;
  readonly path: string;
}

/** Each folder in `dir` (a skill, a plugin, an extension). */
function folders(dir: string, agent: Found["agent"], kind: SkillKind): Found[] {
  return entries(dir)
    .filter((e) => e.dir && !e.name.startsWith("."))
    .map((e) => ({ agent, kind, name: e.name, path: join(dir, e.name) }));
}

/** Each file in `dir` ending `ext`, its name without it. */
function filesIn(dir: string, agent: Found["agent"], kind: SkillKind, ext: string): Found[] {
  return entries(dir)
    .filter((e) => !e.dir && e.name.endsWith(ext))
    .map((e) => ({ agent, kind, name: e.name.slice(0, -ext.length), path: join(dir, e.name) }));
}

function file(path: string, agent: Found["agent"], kind: SkillKind, name: string): Found[] {
  return isFile(path) ? [{ agent, kind, name, path }] : [];
}

/** Claude Code plugins: every folder holding `.claude-plugin/plugin.json`, a few levels under plugins/. */
function plugins(dir: string, depth = 0): Found[] {
  if (depth > 3) return [];
  if (isFile(join(dir, ".claude-plugin", "plugin.json")))
    return [{ agent: "claude-code", kind: "plugin", name: dir.slice(dir.lastIndexOf("/") + 1), path: dir }];
  return entries(dir)
    .filter((e) => e.dir && !e.name.startsWith("."))
    .flatMap((e) => plugins(join(dir, e.name), depth + 1));
}

function inHome(home: string, env: Env): Found[] {
  const claude = claudeDir(home, env);
  const codex = codexHome(home, env);
  const gemini = geminiDir(home, env);
  return [
    ...folders(join(claude, "skills"), "claude-code", "skill"),
    ...filesIn(join(claude, "agents"), "claude-code", "subagent", ".md"),
    ...filesIn(join(claude, "commands"), "claude-code", "command", ".md"),
    ...plugins(join(claude, "plugins")),
    ...file(join(claude, "CLAUDE.md"), "claude-code", "instructions", "CLAUDE.md"),
    ...folders(join(codex, "skills"), "codex", "skill"),
    ...filesIn(join(codex, "prompts"), "codex", "prompt", ".md"),
    ...file(join(codex, "AGENTS.md"), "codex", "instructions", "AGENTS.md"),
    ...filesIn(join(gemini, "commands"), "gemini-cli", "command", ".toml"),
    ...folders(join(gemini, "extensions"), "gemini-cli", "extension"),
    ...file(join(gemini, "GEMINI.md"), "gemini-cli", "instructions", "GEMINI.md"),
  ];
}

function inRepository(root: string): Found[] {
  return [
    ...folders(join(root, ".claude", "skills"), "claude-code", "skill"),
    ...filesIn(join(root, ".claude", "agents"), "claude-code", "subagent", ".md"),
    ...filesIn(join(root, ".claude", "commands"), "claude-code", "command", ".md"),
    ...file(join(root, "CLAUDE.md"), "claude-code", "instructions", "CLAUDE.md"),
    ...file(join(root, ".claude", "CLAUDE.md"), "claude-code", "instructions", ".claude/CLAUDE.md"),
    ...file(join(root, "CLAUDE.local.md"), "claude-code", "instructions", "CLAUDE.local.md"),
    ...folders(join(root, ".codex", "skills"), "codex", "skill"),
    ...folders(join(root, ".agents", "skills"), "any", "skill"),
    ...file(join(root, "AGENTS.md"), "any", "instructions", "AGENTS.md"),
    ...filesIn(join(root, ".gemini", "commands"), "gemini-cli", "command", ".toml"),
    ...file(join(root, "GEMINI.md"), "gemini-cli", "instructions", "GEMINI.md"),
  ];
}

/** Everything agents run on here: the home's, and the repository's at `root` when there is one. */
export function findSkills(o: { home: string; env: Env; root?: string | undefined }): SkillItem[] {
  const at = (where: SkillItem["where"], f: Found): SkillItem => ({
    id: `${f.agent}:${f.kind}:${where}:${where === "repository" ? relative(o.root ?? "", f.path) : f.name}`,
    ...f,
    where,
    hash: contentHash(f.path),
  });
  return [
    ...inHome(o.home, o.env).map((f) => at("home", f)),
    ...(o.root && o.root !== o.home ? inRepository(o.root).map((f) => at("repository", f)) : []),
  ];
}

/** The folders and files to watch for a skill arriving (the daemon wakes on them). */
export function skillPlaces(home: string, env: Env): string[] {
  const claude = claudeDir(home, env);
  const codex = codexHome(home, env);
  return [
    join(claude, "skills"),
    join(claude, "agents"),
    join(claude, "commands"),
    join(claude, "plugins"),
    join(codex, "skills"),
    join(codex, "prompts"),
    join(geminiDir(home, env), "commands"),
    join(geminiDir(home, env), "extensions"),
  ];
}

/** Twelve hex of a `sha256:` hash, for people. */
export function shortHash(hash: string): string {
  return hash.slice(7, 19);
}

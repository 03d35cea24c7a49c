// A project's agent configuration read at a session's start for what disables, shadows or runs around memnox:
// hooks switched off or of someone else's, settings that change how every command runs, commands the agent itself
// runs (helpers, status lines, plugins), project MCP servers it approved for itself, skills and commands whose shell
// lines run with no tool call, subagents carrying hooks or servers of their own. Each finding names its file and the
// hash of its content, so a person's review of exactly that content (`memnox skills --accept`) lets it through.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { isRecord } from "../core/record.ts";
import { readSkills, skillState } from "../state/skills.ts";

interface ConfigFinding {
  /** `<agent>:config:<file relative to the root>`: stable, what acceptance keys on. */
  readonly id: string;
  readonly agent: "claude-code" | "gemini-cli" | "cursor";
  readonly path: string;
  /** `sha256:` of the file: an accepted finding whose file changed is a finding again. */
  readonly hash: string;
  /** What it does, in words for the person and the agent. */
  readonly what: string;
}

/** Variables that change how every later command runs, or where memnox and the agent keep their settings. */
const STEERING_VARS = new Set([
  "CLAUDE_CODE_SHELL_PREFIX",
  "CLAUDE_CODE_SHELL",
  "CLAUDE_CONFIG_DIR",
  "SHELL",
  "BASH_ENV",
  "ENV",
  "ZDOTDIR",
  "PATH",
  "HOME",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "DYLD_INSERT_LIBRARIES",
  "NODE_OPTIONS",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PERL5OPT",
  "PERL5LIB",
  "RUBYOPT",
  "PROMPT_COMMAND",
]);
const steering = (k: string) => STEERING_VARS.has(k) || /^(MEMNOX_|GIT_)/.test(k);

/** Settings whose value is a command Claude Code runs itself, outside any tool call. */
const HELPERS = ["apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "otelHeadersHelper"];

/** A word of a simple command line: bare safe characters or one single-quoted piece, nothing a shell expands. */
const SIMPLE_WORD = /^(?:[A-Za-z0-9_@%+=:,./-]+|'[^']*')+$/;

/** Exactly memnox's hook: `<memnox…> [script] hook <agent> <event>`, as a plain line or as the exec form. */
export function isMemnoxHook(command: unknown, args?: unknown): boolean {
  if (typeof command !== "string") return false;
  const words = Array.isArray(args)
    ? [command, ...args.map(String)]
    : command.split(" ").every((w) => SIMPLE_WORD.test(w))
      ? command.split(" ").map((w) => w.replace(/'/g, ""))
      : undefined;
  if (!words || words.length < 4 || words[words.length - 3] !== "hook") return false;
  const program = words[0] ?? "";
  const base = program.slice(program.lastIndexOf("/") + 1);
  return base.startsWith("memnox") || (base === "bun" && (words[1] ?? "").endsWith("memnox.ts"));
}

function read(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? readFileSync(path, "utf8") : undefined;
  } catch {
    return undefined;
  }
}

function sha256(text: string): string {
  return `sha256:${new Bun.CryptoHasher("sha256").update(text).digest("hex")}`;
}

function entries(dir: string): { name: string; dir: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((d) => ({ name: d.name, dir: d.isDirectory() }));
  } catch {
    return [];
  }
}

/** Markdown files under `dir`, a few levels deep (commands nest in folders, a skill is a folder). */
function markdown(dir: string, depth = 0): string[] {
  if (depth > 3) return [];
  return entries(dir).flatMap((e) =>
    e.dir ? markdown(join(dir, e.name), depth + 1) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
  );
}

/** Every handler of a settings file's `hooks` that is not memnox's own, as `event: command`. */
function foreignHooks(hooks: unknown): string[] {
  if (!isRecord(hooks)) return [];
  const out: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    for (const g of Array.isArray(groups) ? groups : []) {
      const handlers = isRecord(g) && Array.isArray(g.hooks) ? g.hooks : [g];
      for (const h of handlers) {
        if (!isRecord(h)) continue;
        if (h.type !== undefined && h.type !== "command") out.push(`${event}: a ${String(h.type)} hook`);
        else if (!isMemnoxHook(h.command, h.args)) out.push(`${event}: ${String(h.command ?? "")}`.slice(0, 120));
      }
    }
  }
  return out;
}

function claudeSettings(doc: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (doc.disableAllHooks === true) out.push("switches every hook off (disableAllHooks), memnox's among them");
  if (doc.allowManagedHooksOnly === false) out.push("asks for every hook but the managed ones back");
  for (const h of foreignHooks(doc.hooks)) out.push(`runs a hook of its own, outside the gate (${h})`);
  if (isRecord(doc.env)) {
    const vars = Object.keys(doc.env).filter(steering);
    if (vars.length) out.push(`sets ${vars.join(", ")}, which change how every command runs`);
  }
  for (const k of HELPERS) if (typeof doc[k] === "string") out.push(`runs ${k} (\`${String(doc[k])}\`) itself`);
  if (isRecord(doc.statusLine) && doc.statusLine.type === "command") out.push("runs a status line command itself");
  if (isRecord(doc.enabledPlugins) && Object.values(doc.enabledPlugins).some((v) => v === true))
    out.push("turns plugins on, whose hooks, commands and servers come with them");
  if (doc.extraKnownMarketplaces !== undefined) out.push("adds plugin marketplaces");
  if (doc.enableAllProjectMcpServers === true) out.push("approves every MCP server the project names, for itself");
  if (Array.isArray(doc.enabledMcpjsonServers) && doc.enabledMcpjsonServers.length > 0)
    out.push(`approves the project's MCP servers ${doc.enabledMcpjsonServers.join(", ")} for itself`);
  return out;
}

/** Front matter keys of a markdown file, by name only. */
function frontKeys(text: string): string[] {
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  return m ? [...(m[1] ?? "").matchAll(/^([A-Za-z][\w-]*)\s*:/gm)].map((k) => k[1] ?? "") : [];
}

/** `!`cmd`` in a skill or command: a shell line Claude Code runs while expanding it, with no tool call. */
const BANG = /!`[^`\n]+`/;

function finding(
  root: string,
  agent: ConfigFinding["agent"],
  path: string,
  text: string,
  what: string[],
): ConfigFinding[] {
  if (what.length === 0) return [];
  return [{ id: `${agent}:config:${relative(root, path)}`, agent, path, hash: sha256(text), what: what.join("; ") }];
}

function claudeFindings(root: string): ConfigFinding[] {
  const out: ConfigFinding[] = [];
  for (const name of ["settings.json", "settings.local.json"]) {
    const path = join(root, ".claude", name);
    const text = read(path);
    if (text === undefined) continue;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      out.push(
        ...finding(root, "claude-code", path, text, ["cannot be read as JSON, so what it switches off is unknown"]),
      );
      continue;
    }
    if (isRecord(doc)) out.push(...finding(root, "claude-code", path, text, claudeSettings(doc)));
  }
  for (const kind of ["skills", "commands"]) {
    for (const path of markdown(join(root, ".claude", kind))) {
      const text = read(path) ?? "";
      const what: string[] = [];
      if (BANG.test(text)) what.push("holds shell lines that run when it is expanded, with no tool call for the gate");
      if (frontKeys(text).includes("hooks")) what.push("carries hooks of its own");
      out.push(...finding(root, "claude-code", path, text, what));
    }
  }
  for (const path of markdown(join(root, ".claude", "agents"))) {
    const text = read(path) ?? "";
    const keys = frontKeys(text);
    const what = [
      ...(keys.includes("hooks") ? ["a subagent carrying hooks of its own"] : []),
      ...(keys.includes("mcpServers") ? ["a subagent starting MCP servers of its own"] : []),
    ];
    out.push(...finding(root, "claude-code", path, text, what));
  }
  return out;
}

function geminiFindings(root: string): ConfigFinding[] {
  const out: ConfigFinding[] = [];
  const path = join(root, ".gemini", "settings.json");
  const text = read(path);
  if (text !== undefined) {
    try {
      const doc: unknown = JSON.parse(text);
      const what = isRecord(doc)
        ? foreignHooks(doc.hooks).map((h) => `runs a hook of its own, outside the gate (${h})`)
        : [];
      if (isRecord(doc) && isRecord(doc.hooksConfig) && doc.hooksConfig.enabled === false)
        what.push("switches hooks off, memnox's among them");
      out.push(...finding(root, "gemini-cli", path, text, what));
    } catch {
      out.push(
        ...finding(root, "gemini-cli", path, text, ["cannot be read as JSON, so what it switches off is unknown"]),
      );
    }
  }
  return out;
}

function cursorFindings(root: string): ConfigFinding[] {
  const path = join(root, ".cursor", "hooks.json");
  const text = read(path);
  if (text === undefined) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return finding(root, "cursor", path, text, ["cannot be read as JSON, so what it switches off is unknown"]);
  }
  const what = isRecord(doc)
    ? foreignHooks(doc.hooks).map((h) => `runs a hook of its own, outside the gate (${h})`)
    : [];
  return finding(root, "cursor", path, text, what);
}

/** What a project at `root` holds that disables, shadows or runs around memnox, for `agent` (every agent: all). */
export function projectConfigFindings(root: string, agent?: string): ConfigFinding[] {
  const all = [...claudeFindings(root), ...geminiFindings(root), ...cursorFindings(root)];
  return agent ? all.filter((f) => f.agent === agent) : all;
}

/** The findings a person has not accepted exactly as they are now (skills.json, by content hash). */
export function openConfigFindings(root: string, agent: string, skillsFile: string): ConfigFinding[] {
  const accepted = readSkills(skillsFile);
  return projectConfigFindings(root, agent).filter((c) => skillState(accepted, c.id, c.hash) !== "accepted");
}

// Which agents carry memnox's hook, read from the file each one reads its hooks from (the entries each
// hooks/<agent>.ts documents), and whether the agent will run it yet: a hook it skips is not called hooked.
import { join } from "node:path";
import type { Locations } from "../wire/clients.ts";
import { parseDocument } from "../wire/edit/document.ts";
import { isFile, type Trail } from "./trail.ts";

export type HookState = "hooked" | "installed-inactive" | "not-installed";

export interface AgentHook {
  readonly agent: string;
  readonly file: string;
  readonly state: HookState;
  /** What the agent still needs before it runs the hook, or where it runs it. */
  readonly note?: string;
}

interface HookFile {
  readonly agent: string;
  readonly files: (loc: Locations) => readonly string[];
  /** Installed but held back by the agent's own trust until a person acts. */
  readonly until?: string;
  readonly note?: string;
}

const h = (loc: Locations, ...p: string[]) => join(loc.home, ...p);
const codexHome = (loc: Locations) => loc.env.CODEX_HOME || h(loc, ".codex");

export const HOOK_FILES: readonly HookFile[] = [
  {
    agent: "claude-code",
    files: (l) => [join(l.env.CLAUDE_CONFIG_DIR || h(l, ".claude"), "settings.json")],
    note: "in folders whose trust dialog was accepted",
  },
  {
    agent: "codex",
    files: (l) => [join(codexHome(l), "hooks.json"), join(codexHome(l), "config.toml")],
    until: "a person trusts it in Codex's /hooks",
  },
  { agent: "gemini-cli", files: (l) => [join(l.env.GEMINI_CLI_HOME || l.home, ".gemini", "settings.json")] },
  { agent: "cursor", files: (l) => [h(l, ".cursor", "hooks.json")] },
  { agent: "windsurf", files: (l) => [h(l, ".codeium", "windsurf", "hooks.json"), h(l, ".codeium", "hooks.json")] },
];

function strings(v: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 12) return out;
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out, depth + 1);
  else if (typeof v === "object" && v !== null) for (const x of Object.values(v)) strings(x, out, depth + 1);
  return out;
}

/** Whether a parsed hooks document runs `memnox … hook <agent>` anywhere under its `hooks`. */
export function carriesHook(doc: unknown, agent: string): boolean {
  const hooks = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>).hooks : undefined;
  const re = new RegExp(`memnox[\\w.-]*['"]?\\s+hook\\s+${agent.replace(/-/g, "\\-")}(\\s|$)`);
  return strings(hooks).some((s) => re.test(s));
}

function parsed(trail: Trail, path: string): unknown {
  const text = trail.text(path);
  if (text === undefined) return undefined;
  try {
    return parseDocument(path.endsWith(".toml") ? "toml" : "json", text);
  } catch {
    return undefined;
  }
}

/** For each agent in `agents` that takes hooks: where its hook goes, and whether memnox's is there and live. */
export function hookStates(trail: Trail, loc: Locations, agents: readonly string[]): AgentHook[] {
  return HOOK_FILES.filter((d) => agents.includes(d.agent)).map((d): AgentHook => {
    const files = d.files(loc);
    const hit = files.find((f) => isFile(f) && carriesHook(parsed(trail, f), d.agent));
    if (!hit) return { agent: d.agent, file: files[0] ?? "", state: "not-installed" };
    if (d.until) return { agent: d.agent, file: hit, state: "installed-inactive", note: `not active until ${d.until}` };
    return { agent: d.agent, file: hit, state: "hooked", ...(d.note ? { note: d.note } : {}) };
  });
}

// The paths that decide whether agents here are governed: memnox's own home, the hook and MCP configs it keeps,
// a repository's rule file, git's hooks. A write there from an agent's seat is refused (or asked, where a person
// often means it), whatever rule files say: a check of memnox's own, like the project boundary. Pure.
import type { Action } from "../core/action.ts";
import {
  claudeDir,
  claudeSettings,
  claudeState,
  codexConfig,
  codexHooks,
  geminiSettings,
} from "../core/agent-paths.ts";
import type { Effect } from "../core/effect.ts";
import { pathMatcher } from "../policy/engine/index.ts";
import type { Env } from "../ports/index.ts";
import type { Finding } from "./combine.ts";

interface ProtectedPath {
  /** An absolute glob (`**` any depth, `*` within a segment, `{a,b}`), home already expanded. */
  readonly pattern: string;
  readonly effect: Exclude<Effect, "allow">;
  readonly why: string;
}

const WHY = {
  memnox: "these files decide whether agents on this machine are governed (its settings, rules, ledger and keys)",
  agent: "this file holds the hooks or MCP servers memnox keeps an agent behind, and an agent does not rewire itself",
  project: "this file can add hooks, permissions or MCP servers to an agent, so a person looks at the change first",
  rules: "this repository's rules are changed in a diff a person reviews, not by the agent they govern",
  gitHooks: "git hooks run on every commit and push, and memnox's pre-push hook is one of them",
  milestones: "memnox's milestones are what memnox rewind brings work back from",
  binary:
    "this is memnox itself, the program every hook and interceptor runs, and an agent does not disable its own guard",
  python:
    "python runs a .pth file's import lines, and sitecustomize or usercustomize, at every start, in every project: code that outlives the session",
  site: "modules here are imported in place of the ones a project installed, in every python run of this account",
  persistence:
    "what is written here runs again later, unattended (a service, a login item, a directory hook), outliving the session",
  shadow: "a program here runs in place of the one of the same name further down PATH, for every later command",
  packedRefs: "this file holds the repository's branches, tags and memnox's milestones, which git itself rewrites",
} as const;

interface ProtectedPlaces {
  readonly home: string;
  /** MEMNOX_HOME as this process uses it. */
  readonly root: string;
  readonly env: Env;
}

/** Every protected pattern for this machine, most specific first. */
export function protectedPaths(at: ProtectedPlaces): ProtectedPath[] {
  const h = at.home.replace(/\/+$/, "");
  const e = at.env;
  const config = e.XDG_CONFIG_HOME || `${h}/.config`;
  const mac = `${h}/Library/Application Support`;
  const claude = claudeDir(h, e);
  const roots = [...new Set([at.root.replace(/\/+$/, ""), `${h}/.memnox`])];
  const deny = (why: string) => (pattern: string) => ({ pattern, effect: "deny" as const, why });
  const ask = (why: string) => (pattern: string) => ({ pattern, effect: "ask" as const, why });
  // Wherever `memnox` and its faces resolve: the links install.sh puts in ~/.local/bin, and every PATH directory.
  const binDirs = [...new Set([`${h}/.local/bin`, ...(e.PATH ?? "").split(":").filter((d) => d.startsWith("/"))])];
  const userBase = e.PYTHONUSERBASE || `${h}/.local`;
  const sites = [`${userBase}/lib/python*/site-packages`, `${h}/Library/Python/*/lib/python/site-packages`];
  return [
    ...roots.flatMap((r) => [r, `${r}/**`]).map(deny(WHY.memnox)),
    ...binDirs
      .flatMap((d) => [`${d.replace(/\/+$/, "")}/memnox`, `${d.replace(/\/+$/, "")}/memnox-*`])
      .map(deny(WHY.binary)),
    ...sites.flatMap((d) => [`${d}/*.pth`, `${d}/sitecustomize.py`, `${d}/usercustomize.py`]).map(deny(WHY.python)),
    ...[
      claudeSettings(h, e),
      `${claude}/settings.local.json`,
      claudeState(h, e),
      codexHooks(h, e),
      codexConfig(h, e),
      geminiSettings(h, e),
      `${h}/.cursor/hooks.json`,
      `${h}/.cursor/mcp.json`,
      `${h}/.codeium/windsurf/hooks.json`,
      `${h}/.codeium/windsurf/mcp_config.json`,
      `{${config},${mac}}/Claude/claude_desktop_config.json`,
      `{${config},${mac}}/*/User/mcp.json`,
      `{${config},${mac}}/*/User/globalStorage/*/settings/*.json`,
      `${config}/zed/settings.json`,
      `${e.HERMES_HOME || `${h}/.hermes`}/config.yaml`,
      `${e.OPENCLAW_STATE_DIR || `${h}/.openclaw`}/openclaw.json`,
    ].map(deny(WHY.agent)),
    ...["memnox.policies.toml", "memnox.policies.yaml"].map((n) => `/**/${n}`).map(ask(WHY.rules)),
    ...sites.map((d) => `${d}/**`).map(ask(WHY.site)),
    ...[
      `${config}/systemd/user`,
      `${config}/systemd/user/**`,
      `${h}/.local/share/systemd/user/**`,
      `${config}/autostart/**`,
      `${config}/environment.d/**`,
      `${h}/Library/LaunchAgents/**`,
      `${config}/direnv/direnvrc`,
      `${config}/direnv/lib/**`,
      `${h}/.direnvrc`,
      `${h}/.pam_environment`,
      // The person's tools run what these name at their next start (npm's node-options, yarnPath, bun's preload).
      ...[".npmrc", ".yarnrc", ".yarnrc.yml", ".bunfig.toml", ".vimrc", ".exrc", ".tmux.conf", ".gdbinit"].map(
        (n) => `${h}/${n}`,
      ),
      ...[".psqlrc", ".sqliterc", ".irbrc", ".pryrc", ".Rprofile"].map((n) => `${h}/${n}`),
      `${config}/nvim/**`,
    ].map(ask(WHY.persistence)),
    ...[`${h}/.local/bin/*`, `${h}/bin/*`].map(ask(WHY.shadow)),
    ...["/**/.git/refs/memnox", "/**/.git/refs/memnox/**"].map(deny(WHY.milestones)),
    ...["/**/.git/hooks", "/**/.git/hooks/**"].map(ask(WHY.gitHooks)),
    ask(WHY.packedRefs)("/**/.git/packed-refs"),
    ...[
      "/**/.claude/settings.json",
      "/**/.claude/settings.local.json",
      "/**/.mcp.json",
      "/**/.cursor/mcp.json",
      "/**/.cursor/hooks.json",
      "/**/.gemini/settings.json",
      "/**/.codex/config.toml",
      "/**/.windsurf/hooks.json",
      "/**/.vscode/mcp.json",
      "/**/.zed/settings.json",
    ].map(ask(WHY.project)),
  ];
}

export interface Protection {
  readonly list: readonly ProtectedPath[];
  readonly matches: PathTest;
}

/** The protected set for this machine, each pattern compiled when a target is first tested against it. */
export function protection(at: ProtectedPlaces): Protection {
  const compiled = new Map<string, (v: string) => boolean>();
  let list: readonly ProtectedPath[] | undefined;
  return {
    // Built on first use: most calls write nothing, and a read never consults it.
    get list() {
      list ??= protectedPaths(at);
      return list;
    },
    matches: (path, pattern) => {
      let m = compiled.get(pattern);
      if (!m) {
        m = pathMatcher(pattern);
        compiled.set(pattern, m);
      }
      return path.startsWith("/") && m(path);
    },
  };
}

/** Git settings whose change turns memnox's git hooks off or points them elsewhere. */
const HOOK_SETTINGS = new Set(["core.hookspath"]);

type PathTest = (path: string, pattern: string) => boolean;

/** A write or delete of a protected path, or a change to where git finds its hooks, from an agent's seat. */
export function protectedFindings(action: Action, protect: Protection): Finding[] {
  if (action.name === "git.config-set" || action.name === "git.config-unset") {
    const key = action.targets.find((t) => HOOK_SETTINGS.has(t.toLowerCase()));
    if (!key) return [];
    return [
      {
        action,
        effect: "ask",
        source: "protected",
        reason: `${key} decides which hooks git runs, and memnox's pre-push hook is one of them; a person changes it`,
      },
    ];
  }
  if (action.name !== "filesystem.write" && action.name !== "filesystem.delete") return [];
  const out: Finding[] = [];
  // Only a write or a delete reads the list, which is built on first use.
  const { list, matches } = protect;
  for (const target of action.targets) {
    const hit = list.find((p) => matches(target, p.pattern));
    if (!hit) continue;
    out.push({
      action,
      effect: hit.effect,
      source: "protected",
      reason: `${target} is protected: ${hit.why}${hit.effect === "ask" ? "; a person says yes first" : ", so an agent's write there is refused"}`,
    });
    if (hit.effect === "deny") break;
  }
  return out;
}

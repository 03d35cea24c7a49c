// What the machine's agent wall is built from: the rules in force (what they deny reading and writing outright),
// the credential places the scan knows, every agent's own configuration, start-up files, persistence places, the
// checkouts' local remotes. Gathered here (setup, protect --wall, the daemon when a rule file changes), then the
// pure builder, the one planner, and the files the applier reads.
import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { settingsHooks } from "../../../hooks/claude-code.ts";
import { shellWord } from "../../core/shell-quote.ts";
import { readJsonIfExists } from "../../io/files.ts";
import { repoRoot } from "../../io/repo.ts";
import type { Context } from "../../ports/context.ts";
import { linkTarget } from "../../wire/links.ts";
import { sessionEntry } from "../../wire/session-server.ts";
import {
  type AgentWallFile,
  archOf,
  localRemotes,
  namedIn,
  placeholderFile,
  writeAgentPlan,
  writeAgentWall,
} from "../agent.ts";
import { findPerl } from "../applier.ts";
import {
  AGENT_CONFIG,
  type AgentWallInput,
  agentWall,
  beneath,
  PERSISTENCE,
  SHELL_STARTUP,
  serverSockets,
  sourcedPaths,
  TEMPS,
  type WallPath,
} from "../description.ts";
import { physical } from "../disk.ts";
import { claims, costs } from "../held.ts";
import { abiCap, makePlaceholder, namespacesWork, probeKernel } from "../probe.ts";
import { deniedPaths, keptFiles, secretPaths } from "./gather.ts";

type Ctx = Pick<Context, "paths" | "env" | "cwd" | "selfArgv" | "clock">;

/** Qa in Claude Code: how it quotes an MCP server's argv into the one word its shell prefix receives. */
function claudeQuoted(argv: readonly string[]): string {
  return argv
    .map((w) => (w === "" ? "''" : /^[A-Za-z0-9_./:=@+,-]+$/.test(w) ? w : `'${w.replaceAll("'", `'"'"'`)}'`))
    .join(" ");
}

/** memnox's own commands as an agent's settings name them, which the applier starts outside the wall. */
function exemptCommands(ctx: Ctx): string[] {
  const launcher = linkTarget(ctx).map(shellWord).join(" ");
  const hooks = Object.values(settingsHooks(launcher)).flatMap((items) =>
    items.flatMap((i) => ((i as { hooks?: { command?: string }[] }).hooks ?? []).map((h) => h.command ?? "")),
  );
  const session = sessionEntry(ctx, "claude-code");
  return [...new Set([...hooks, claudeQuoted([session.command, ...session.args])])].filter(Boolean);
}

/** git's global hook and template folders, wherever the global settings point them. */
function gitGlobalPlaces(home: string): string[] {
  let text = "";
  try {
    text = readFileSync(join(home, ".gitconfig"), "utf8");
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:hooksPath|templateDir)\s*=\s*(.+?)\s*$/gim)) {
    const v = (m[1] ?? "").replace(/^"|"$/g, "");
    const p = v.startsWith("~/") ? join(home, v.slice(2)) : v;
    if (isAbsolute(p)) out.push(physical(p));
  }
  return out;
}

/** Files the start-up files source (`. "$HOME/.cargo/env"`, nvm's script), and what those source, two deep. */
function sourcedByStartup(home: string): string[] {
  const seen = new Set<string>();
  let level = SHELL_STARTUP.map((n) => join(home, n));
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const file of level) {
      let text: string;
      try {
        const st = statSync(file);
        if (!st.isFile() || st.size > 256 * 1024) continue;
        text = readFileSync(file, "utf8");
      } catch {
        continue;
      }
      for (const p of sourcedPaths(text, home)) {
        if (seen.has(p) || seen.size >= 64) continue;
        seen.add(p);
        next.push(p);
      }
    }
    level = next;
  }
  return [...seen];
}

/** The checkouts memnox has met: the one here, and every one it put git hooks in. */
function knownCheckouts(ctx: Ctx): string[] {
  const here = repoRoot(ctx.cwd, ctx.env);
  const hooked = readJsonIfExists(ctx.paths.gitHooks) as { repositories?: { repository?: unknown }[] } | undefined;
  const listed = (hooked?.repositories ?? [])
    .map((r) => r.repository)
    .filter((p): p is string => typeof p === "string");
  return [...new Set([...(here ? [here] : []), ...listed])];
}

/** procfs names processes, not places: a path under it stands for the process that gathered it, gone by then. */
const inProc = (p: WallPath) => p.path === "/proc" || p.path.startsWith("/proc/");

/**
 * Outside the home, a place this account cannot read (or write) already is held by the system's own permissions:
 * carving it too would only cost a rule for every sibling on the way down (/etc's hundred and more) on every command.
 * A place not there yet is kept: it may be made later.
 */
function heldByAccount(home: string, mode: number): (p: WallPath) => boolean {
  return (p) => {
    if (beneath(p.path, home)) return false;
    try {
      accessSync(p.path, mode);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "EACCES" || (e as NodeJS.ErrnoException).code === "EPERM";
    }
  };
}

function agentWallInput(ctx: Ctx): AgentWallInput {
  const home = physical(ctx.paths.home);
  const at = (names: readonly string[], why: string): WallPath[] =>
    names.map((n) => ({ path: physical(join(home, n)), why }));
  const own = [ctx.env.CLAUDE_CONFIG_DIR, ctx.env.CODEX_HOME, ctx.env.GEMINI_CLI_HOME].filter(
    (p): p is string => typeof p === "string" && isAbsolute(p),
  );
  const reads = deniedPaths(ctx, "filesystem.read");
  const writes = deniedPaths(ctx, "filesystem.write");
  const temps = [...TEMPS, ...(ctx.env.TMPDIR ? [ctx.env.TMPDIR] : [])].filter((t) => existsSync(t)).map(physical);
  const unreadable = heldByAccount(home, constants.R_OK);
  const unwritable = heldByAccount(home, constants.W_OK);
  return {
    home,
    memnoxRoot: physical(ctx.paths.root),
    memnoxKeys: [physical(join(ctx.paths.keys, "ledger-ed25519.key"))],
    secrets: [...secretPaths(ctx, false), ...reads.denied].filter((p) => !inProc(p) && !unreadable(p)),
    unexpressed: [...reads.unexpressed, ...writes.unexpressed],
    protectedPaths: [
      ...at(AGENT_CONFIG, "an agent's own settings, hooks, skills and commands"),
      ...own.map((p) => ({ path: physical(p), why: "an agent's own settings, hooks, skills and commands" })),
      ...at(SHELL_STARTUP, "a shell start-up file"),
      ...sourcedByStartup(home).map((p) => ({ path: physical(p), why: "a file a shell start-up file runs" })),
      ...at(PERSISTENCE, "a place whose content runs later"),
      ...keptFiles(ctx).map((k) => ({ ...k, why: "the hooks or MCP servers memnox keeps an agent behind" })),
      ...gitGlobalPlaces(home).map((path) => ({ path, why: "git's global hooks or templates" })),
      ...knownCheckouts(ctx)
        .flatMap(localRemotes)
        .map((path) => ({ path, why: REMOTE_WHY })),
      ...writes.denied,
      // One inside temp cannot be carved out of it without costing temp itself: it is left to the rules.
    ].filter((p) => !temps.some((t) => beneath(p.path, t)) && !inProc(p) && !unwritable(p)),
    temps: [...new Set(temps)],
    servers: serverSockets({
      home,
      uid: process.getuid?.() ?? 0,
      user: ctx.env.USER ?? ctx.env.LOGNAME ?? "",
      runtime: ctx.env.XDG_RUNTIME_DIR || `/run/user/${process.getuid?.() ?? 0}`,
      tmuxTmp: ctx.env.TMUX_TMPDIR || "/tmp",
    }),
    names: { globs: reads.names, found: knownCheckouts(ctx).flatMap((r) => namedIn(r, reads.names)) },
    system: [
      { path: "/dev", why: "device files (terminals and the null devices stay writable)" },
      { path: "/proc", why: "the kernel's process and setting files" },
    ].filter((p) => !unwritable(p)),
  };
}

/** The reason local remotes are held for: the ones sessions added are kept when the wall is written again. */
const REMOTE_WHY = "another repository (a checkout's local remote)";

/** Write the machine's agent wall (description and plan) from the rules in force; what it holds, in claims. */
export async function writeMachineAgentWall(ctx: Ctx, before?: AgentWallFile): Promise<AgentWallFile> {
  const probed = await probeKernel(process.platform, abiCap(ctx.env.MEMNOX_WALL_ABI));
  const arch = archOf(process.arch);
  const perl = findPerl();
  const namespaces = probed.kind === "landlock" && namespacesWork(perl, arch, ctx.paths.root);
  // What covers a hidden file must be there before the plan names it.
  if (namespaces) makePlaceholder(perl, arch, placeholderFile(ctx.paths));
  const kernel = probed.kind === "landlock" ? { ...probed, namespaces } : probed;
  const input = agentWallInput(ctx);
  const remotes = (before?.wall.unwritable ?? []).filter((u) => u.why === REMOTE_WHY);
  const wall = agentWall({ ...input, protectedPaths: [...input.protectedPaths, ...remotes] });
  const draft: AgentWallFile = {
    version: 1,
    writtenAt: new Date(ctx.clock.now()).toISOString(),
    kernel,
    wall,
    claims: claims(wall, kernel),
    costs: [],
    exempt: exemptCommands(ctx),
  };
  const plan = arch ? writeAgentPlan(ctx.paths, draft, arch) : undefined;
  const file = { ...draft, costs: costs(wall, plan) };
  writeAgentWall(ctx.paths, file);
  return file;
}

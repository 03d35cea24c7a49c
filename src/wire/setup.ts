// `memnox setup` after the question: every seam wired, each step through the module that owns it, idempotent, and
// what a person took out on purpose (kept.json) left out. Nothing here reaches the network.

import { AGENTS, type AgentName } from "../../hooks/types.ts";
import type { Mode } from "../core/effect.ts";
import type { Context } from "../ports/context.ts";
import type { VerbTable } from "../resolve/types.ts";
import { readConfig, sealCurrentMode, setSetting } from "../state/config.ts";
import { type AgentShellReport, codexShellOn } from "./agent-shell.ts";
import { detectAgents } from "./agents.ts";
import { noteCreatedFile } from "./created.ts";
import { startBackgroundDaemon, stopDaemon } from "./daemon-background.ts";
import {
  installDaemonService as installService,
  uninstallDaemonService as uninstallService,
} from "./daemon-service.ts";
import { type HookReport, installAgentHook } from "./hooks/install.ts";
import { type InterceptorReport, installInterceptors, type PathPosition } from "./interceptors.ts";
import { type Kept, readKept, writeKept } from "./kept.ts";
import { pathLine, profileFile } from "./login-path.ts";
import { type McpReport, wrapMcpServers } from "./mcp-wrap.ts";
import { type BaselineResult, type TeamRulesResult, writeBaseline, writeTeamRules } from "./protect/baseline.ts";
import { type SessionServerReport, sessionServerKeptOff, sessionServerOn } from "./session-server.ts";

export interface Step {
  readonly step: string;
  readonly status: "done" | "unchanged" | "skipped" | "not-wired" | "failed";
  readonly words: string;
  readonly fix?: string;
}

/**
 * The daemon kept running: a user service where a service manager answers; else one started in the background now
 * (the first hook after a reboot starts it again), and the service file that was written is taken back out.
 */
async function installDaemonService(ctx: Context): Promise<Step> {
  const r = await installService(ctx);
  if (r.enabled) return { step: "daemon", status: r.changed ? "done" : "unchanged", words: r.lines.join("; ") };
  const why = r.manager === "none" ? r.lines.join("; ") : "no user service manager answers here";
  if (r.manager !== "none") await uninstallService(ctx);
  const bg = await startBackgroundDaemon(ctx);
  if (bg.status === "failed") {
    return { step: "daemon", status: "failed", words: `${why}; ${bg.words}`, fix: "memnox daemon --background" };
  }
  return {
    step: "daemon",
    status: bg.status === "started" ? "done" : "unchanged",
    words: `${why}, so it runs in the background instead: ${bg.words}; the first agent hook after a restart starts it again`,
  };
}

/** Every daemon stopped (the service disabled and its file removed, a background one ended). */
export async function uninstallDaemonService(ctx: Context): Promise<Step> {
  const r = await uninstallService(ctx);
  const stopped = await stopDaemon(ctx);
  const words = [...r.lines, stopped.words].filter(Boolean).join("; ");
  return { step: "daemon", status: r.changed || stopped.stopped ? "done" : "unchanged", words };
}

interface SetupOptions {
  readonly enforce: boolean;
  /** Write the team's own rules into the repository here (setup does; a rewire after an update does not). */
  readonly team?: boolean;
}

export interface SetupReport {
  readonly interceptors: InterceptorReport;
  readonly hooks: readonly HookReport[];
  /** Agents whose shell commands were put behind the interceptors by their own setting. */
  readonly shells: readonly AgentShellReport[];
  /** Agents a person took memnox's hook out of: left out, with the command that puts it back. */
  readonly keptOut: readonly { readonly agent: AgentName; readonly fix: string }[];
  readonly mcp: McpReport | { readonly skipped: string };
  readonly session: SessionServerReport | { readonly skipped: string };
  readonly rules: BaselineResult;
  /** The repository's own rule file: written or merged, or why not. */
  readonly team: TeamRulesResult;
  readonly mode: { readonly mode: Mode; readonly changed: boolean };
  readonly daemon: Step;
  readonly kept: Kept;
  readonly path: PathPosition & { readonly line: string; readonly profile: string };
  /** Whether this run changed anything at all. */
  readonly changed: boolean;
}

/** What puts back a hook a person took out: its own command where there is one. */
function putBack(agent: AgentName, kept: string): string {
  return agent === "claude-code" ? "memnox protect --claude-hook" : `take ${agent} out of takenOut in ${kept}`;
}

function ok(r: HookReport): boolean {
  return r.status === "added" || r.status === "repointed" || r.status === "unchanged";
}

/** Wires this machine; a second run with nothing new changes nothing. */
export async function wireMachine(
  ctx: Context,
  tables: readonly VerbTable[],
  opts: SetupOptions,
): Promise<SetupReport> {
  const before = readKept(ctx.paths.kept);
  const interceptors = installInterceptors(ctx, tables);
  const installed = detectAgents(ctx)
    .filter((a) => a.installed)
    .map((a) => a.agent);
  const takenOut = new Set(before?.takenOut ?? []);
  const hooks = installed.filter((a) => !takenOut.has(a)).map((a) => installAgentHook(ctx, a));
  // Codex's own setting; Gemini CLI's commands get the same through memnox's hook, which needs no file of its own.
  const shells = hooks.some((h) => h.agent === "codex" && ok(h)) ? [codexShellOn(ctx)] : [];
  const keptOut = installed
    .filter((a) => takenOut.has(a))
    .map((agent) => ({ agent, fix: putBack(agent, ctx.paths.kept) }));
  const mcp =
    before?.wrapNewMcpServers === false
      ? { skipped: "you took MCP servers out of the proxy (memnox mcp wrap puts them back)" }
      : await wrapMcpServers(ctx);
  const session = sessionServerKeptOff(ctx.paths.kept)
    ? { skipped: "you took the session server out (memnox mcp session on puts it back)" }
    : await sessionServerOn(ctx);
  const rules = writeBaseline(ctx, tables);
  const team: TeamRulesResult = opts.team ? writeTeamRules(ctx) : { skipped: "not asked for" };
  if ("created" in team && team.created) noteCreatedFile(ctx.paths, team.written);
  const mode = setMode(ctx, opts.enforce);
  const daemon = await installDaemonService(ctx);
  const kept = writeKept(ctx.paths.kept, (k) => ({
    setupAt: k?.setupAt || new Date(ctx.clock.now()).toISOString(),
    hooked: AGENTS.filter((a) => hooks.some((h) => h.agent === a && ok(h)) || k?.hooked.includes(a)),
    takenOut: k?.takenOut ?? [],
    wrapNewMcpServers: k?.wrapNewMcpServers ?? true,
    sessionServer: k?.sessionServer ?? true,
  }));
  const path = { ...interceptors.path, line: pathLine(ctx), profile: profileFile(ctx) };
  const changed =
    before === undefined ||
    interceptors.added.length + interceptors.dropped.length > 0 ||
    hooks.some((h) => h.status === "added" || h.status === "repointed") ||
    shells.some((sh) => sh.status === "added") ||
    ("files" in mcp && mcp.files.some((f) => f.status === "changed")) ||
    ("files" in session && session.files.some((s) => s.status === "added" || s.status === "updated")) ||
    rules.machine.added.length > 0 ||
    ("added" in team && team.added.length > 0) ||
    mode.changed;
  return { interceptors, hooks, shells, keptOut, mcp, session, rules, team, mode, daemon, kept, path, changed };
}

/** The mode setup leaves, sealed: after setup a missing or damaged config.toml means this mode, never observe. */
function setMode(ctx: Context, enforce: boolean): { mode: Mode; changed: boolean } {
  sealCurrentMode(ctx.paths.config, ctx.clock.now());
  const current = readConfig(ctx.paths.config).mode;
  if (!enforce || current === "enforce") return { mode: current, changed: false };
  return { mode: setSetting(ctx.paths.config, "mode", "enforce", ctx.clock.now()).config.mode, changed: true };
}

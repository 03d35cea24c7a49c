// `memnox setup` after the question: every seam wired, each step through the module that owns it, idempotent, and
// what a person took out on purpose (kept.json) left out. Nothing here reaches the network.

import { AGENTS, type AgentName } from "../../hooks/types.ts";
import type { Mode } from "../core/effect.ts";
import type { Context } from "../ports/context.ts";
import type { VerbTable } from "../resolve/types.ts";
import { readConfig, sealCurrentMode, setSetting } from "../state/config.ts";
import { type AgentShellReport, codexShellOn } from "./agent-shell.ts";
import { detectAgents } from "./agents.ts";
import {
  installDaemonService as installService,
  uninstallDaemonService as uninstallService,
} from "./daemon-service.ts";
import { type HookReport, installAgentHook } from "./hooks/install.ts";
import { type InterceptorReport, installInterceptors, type PathPosition } from "./interceptors.ts";
import { type Kept, readKept, writeKept } from "./kept.ts";
import { pathLine, profileFile } from "./login-path.ts";
import { type McpReport, wrapMcpServers } from "./mcp-wrap.ts";
import { type BaselineResult, writeBaseline } from "./protect/baseline.ts";
import { type SessionServerReport, sessionServerKeptOff, sessionServerOn } from "./session-server.ts";

export interface Step {
  readonly step: string;
  readonly status: "done" | "unchanged" | "skipped" | "not-wired" | "failed";
  readonly words: string;
  readonly fix?: string;
}

/** The user service that keeps the daemon running, installed and enabled through the daemon's own module. */
export async function installDaemonService(ctx: Context): Promise<Step> {
  const r = await installService(ctx);
  if (r.manager === "none") return { step: "daemon", status: "skipped", words: r.lines.join("; ") };
  return {
    step: "daemon",
    status: r.enabled ? (r.changed ? "done" : "unchanged") : "failed",
    words: r.lines.join("; "),
    ...(r.enabled ? {} : { fix: "memnox daemon --install" }),
  };
}

/** The user service stopped and its file removed. */
export async function uninstallDaemonService(ctx: Context): Promise<Step> {
  const r = await uninstallService(ctx);
  return { step: "daemon", status: r.changed ? "done" : "unchanged", words: r.lines.join("; ") || "no user service" };
}

export interface SetupOptions {
  readonly enforce: boolean;
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
    mode.changed;
  return { interceptors, hooks, shells, keptOut, mcp, session, rules, mode, daemon, kept, path, changed };
}

/** The mode setup leaves, sealed: after setup a missing or damaged config.toml means this mode, never observe. */
function setMode(ctx: Context, enforce: boolean): { mode: Mode; changed: boolean } {
  sealCurrentMode(ctx.paths.config, ctx.clock.now());
  const current = readConfig(ctx.paths.config).mode;
  if (!enforce || current === "enforce") return { mode: current, changed: false };
  return { mode: setSetting(ctx.paths.config, "mode", "enforce", ctx.clock.now()).config.mode, changed: true };
}

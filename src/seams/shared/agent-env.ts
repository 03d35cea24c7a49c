// The environment an agent runs in under memnox: interceptors first on PATH, the governed shell, session and scope.
import { basename } from "node:path";
import { environmentVariable } from "../../gate/environments.ts";
import type { DeclaredScope } from "../../gate/scope.ts";
import { pathWithout } from "../../io/real-binary.ts";
import type { Context } from "../../ports/context.ts";

interface AgentEnvOptions {
  readonly session?: string;
  readonly agent?: string;
  readonly role?: string;
  readonly scope?: DeclaredScope;
  readonly projectRoot?: string;
  /** The egress proxy's URL: the agent's HTTP clients are pointed at it. */
  readonly egress?: string;
}

/** The shell memnox displaces: the user's bash or zsh, never memnox itself. */
function displacedShell(ctx: Context): string {
  const current = ctx.env.SHELL ?? "";
  if (basename(current).startsWith("memnox")) return ctx.env.MEMNOX_REAL_SHELL || "/bin/bash";
  return /(^|\/)(bash|zsh)$/.test(current) ? current : "/bin/bash";
}

/** Only the variables memnox sets; callers lay them over the inherited environment. */
export function agentEnvironment(ctx: Context, opts: AgentEnvOptions): Record<string, string> {
  const real = displacedShell(ctx);
  const governed = `${ctx.paths.bin}/${basename(real) === "zsh" ? "memnox-zsh" : "memnox-bash"}`;
  const rest = pathWithout(ctx.env.PATH, [ctx.paths.bin]);
  const env: Record<string, string> = {
    PATH: rest ? `${ctx.paths.bin}:${rest}` : ctx.paths.bin,
    SHELL: governed,
    CLAUDE_CODE_SHELL: governed,
    MEMNOX_REAL_SHELL: real,
  };
  if (ctx.env.MEMNOX_HOME) env.MEMNOX_HOME = ctx.env.MEMNOX_HOME;
  if (opts.session) env.MEMNOX_SESSION = opts.session;
  if (opts.agent) env.MEMNOX_AGENT_NAME = opts.agent;
  if (opts.role) env.MEMNOX_ROLE = opts.role;
  if (opts.projectRoot) env.MEMNOX_PROJECT_ROOT = opts.projectRoot;
  if (opts.scope) {
    env.MEMNOX_SCOPE = JSON.stringify(opts.scope);
    const environments = environmentVariable(opts.scope.envs);
    if (environments) env.MEMNOX_ENV = environments;
  }
  if (opts.egress) Object.assign(env, egressVariables(opts.egress));
  return env;
}

/**
 * Every spelling HTTP clients read: curl honours only the lowercase http_proxy, most others the uppercase, and
 * Node's own fetch only with NODE_USE_ENV_PROXY=1. NO_PROXY is left as the person had it.
 */
export function egressVariables(url: string): Record<string, string> {
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    ALL_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    all_proxy: url,
    NODE_USE_ENV_PROXY: "1",
  };
}

export function newSessionId(nowMs: number): string {
  return `ses_${nowMs.toString(36)}${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
}

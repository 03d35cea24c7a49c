// `doctor --wiring`, one line per installed agent: do its shell commands meet the PATH interceptors, and by which
// mechanism of its own. An agent whose commands run with the person's PATH is said to, with the way to fix it.
import type { AgentName } from "../../hooks/types.ts";
import type { Context } from "../ports/context.ts";
import { agentShellState } from "./agent-shell.ts";
import { detectAgents } from "./agents.ts";
import { agentHookState, type HookState } from "./hooks/install.ts";
import { type InterceptorState, interceptorState } from "./interceptors.ts";
import type { WiringLine } from "./wiring-lines.ts";

interface Facts {
  readonly label: string;
  readonly hook: HookState;
  readonly interceptors: InterceptorState;
}

type Mechanism = (f: Facts, ctx: Context) => Omit<WiringLine, "seam"> | undefined;

/** Claude Code: memnox's SessionStart hook writes the PATH for every later Bash call to CLAUDE_ENV_FILE. */
const claudeCode: Mechanism = (f) => {
  const present = f.hook.events?.includes("SessionStart") && f.hook.launcherExists;
  if (present && f.hook.trust?.active !== false)
    return {
      status: "ok",
      words: `${f.label}: its Bash commands meet the interceptors (the SessionStart hook puts ${f.interceptors.dir} first on PATH through CLAUDE_ENV_FILE)`,
    };
  if (present && f.hook.trust)
    return {
      status: "warn",
      words: `${f.label}: its Bash commands meet the interceptors only once its hooks run: ${f.hook.trust.words}`,
      ...(f.hook.trust.step ? { fix: f.hook.trust.step } : {}),
    };
  return {
    status: "warn",
    words: `${f.label}: its Bash commands run with the person's PATH, because memnox's SessionStart hook is not active in ${f.hook.file}`,
    fix: "memnox setup",
  };
};

/** Codex (BASH_ENV in its shell_environment_policy) and Gemini CLI (memnox's hook rewriting each command it allows). */
const ownShell =
  (agent: AgentName): Mechanism =>
  (f, ctx) => {
    const s = agentShellState(ctx, agent);
    if (!s) return undefined;
    const words = `${f.label}: ${s.words}`;
    return s.meets ? { status: "ok", words } : { status: "warn", words, ...(s.fix ? { fix: s.fix } : {}) };
  };

/** OpenCode: memnox's plugin puts the interceptors first for each bash call the gate allowed (its `shell.env` hook). */
const opencodePlugin: Mechanism = (f) => {
  if (f.hook.presence !== "hooked" || !f.hook.launcherExists) return undefined;
  return {
    status: "ok",
    words: `${f.label}: its bash commands meet the interceptors (memnox's plugin puts ${f.interceptors.dir} first on PATH through shell.env)`,
  };
};

/** Each agent's own way of putting ~/.memnox/bin first for its shell commands; absent: it has none memnox uses. */
const PATH_MECHANISMS: Partial<Record<AgentName, Mechanism>> = {
  "claude-code": claudeCode,
  codex: ownShell("codex"),
  "gemini-cli": ownShell("gemini-cli"),
  opencode: opencodePlugin,
};

function reach(ctx: Context, agent: AgentName, f: Facts): Omit<WiringLine, "seam"> {
  if (f.interceptors.links.length === 0)
    return {
      status: "fail",
      words: `${f.label}: no interceptors are installed, so a script's git push meets none`,
      fix: "memnox protect --interceptors",
    };
  const own = PATH_MECHANISMS[agent]?.(f, ctx);
  if (own?.status === "ok") return own;
  // Started from a shell whose PATH already puts them first, the agent inherits that.
  if (f.interceptors.path.ahead)
    return { status: "ok", words: `${f.label}: its commands inherit a PATH with ${f.interceptors.dir} first` };
  return (
    own ?? {
      status: "warn",
      words: `${f.label}: its shell commands run with the person's PATH, so a script's git push meets no interceptor (the hook still rules on each command it is shown)`,
      fix: `start it with "memnox run -- <agent>", which puts ${f.interceptors.dir} first`,
    }
  );
}

export function interceptorReach(ctx: Context): WiringLine[] {
  const interceptors = interceptorState(ctx);
  return detectAgents(ctx)
    .filter((a) => a.installed)
    .map((a) => {
      const hook = agentHookState(ctx, a.agent);
      return { seam: `commands:${a.agent}`, ...reach(ctx, a.agent, { label: a.label, hook, interceptors }) };
    });
}

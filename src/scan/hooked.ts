// Which agents carry memnox's hook and whether the agent will run it yet: read through setup's own installer
// (src/wire/hooks), the one place that knows each agent's hook entries and trust, so the screens never disagree.
import { AGENTS, type AgentName } from "../../hooks/types.ts";
import type { Context } from "../ports/context.ts";
import { agentHookState } from "../wire/hooks/install.ts";

export type HookState = "hooked" | "installed-inactive" | "not-installed";

export interface AgentHook {
  readonly agent: string;
  readonly file: string;
  readonly state: HookState;
  /** What the agent still needs before it runs the hook, or where it runs it. */
  readonly note?: string;
}

type HookCtx = Pick<Context, "paths" | "env" | "cwd" | "clock" | "selfArgv">;

/** For each agent in `agents` that takes hooks: where its hook goes, and whether memnox's is there and live. */
export function hookStates(ctx: HookCtx, agents: readonly string[]): AgentHook[] {
  return AGENTS.filter((a): a is AgentName => agents.includes(a)).map((agent): AgentHook => {
    const s = agentHookState(ctx, agent);
    if (s.presence === "absent" || s.presence === "unreadable") {
      return { agent, file: s.file, state: "not-installed", ...(s.problem ? { note: s.problem } : {}) };
    }
    if (s.trust && !s.trust.active) {
      return {
        agent,
        file: s.file,
        state: "installed-inactive",
        note: `not active until ${s.trust.step ?? s.trust.words}`,
      };
    }
    return { agent, file: s.file, state: "hooked", ...(s.trust?.words ? { note: s.trust.words } : {}) };
  });
}

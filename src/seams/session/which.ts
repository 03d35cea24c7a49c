// Which session a tool speaks about: the one `memnox run` started, else the newest of the agent that launched this
// server, so one agent never reads another's by default.
import { newestSessionOf } from "../../ledger/read/replay.ts";
import type { Ledger } from "../../ledger/store.ts";
import type { Env } from "../../ports/index.ts";

export interface SessionRef {
  readonly id?: string;
  /** `run`: MEMNOX_SESSION; `agent`: the newest session of MEMNOX_AGENT_NAME in the ledger; `none`: neither. */
  readonly how: "run" | "agent" | "none";
  readonly agent?: string;
}

export function whichSession(env: Env, ledger: Ledger | undefined): SessionRef {
  const agent = env.MEMNOX_AGENT_NAME || undefined;
  const named = agent ? { agent } : {};
  if (env.MEMNOX_SESSION) return { id: env.MEMNOX_SESSION, how: "run", ...named };
  const newest = agent && ledger ? newestSessionOf(ledger, agent) : undefined;
  return newest ? { id: newest, how: "agent", ...named } : { how: "none", ...named };
}

/** How the answer names where its session came from. */
export function sessionWords(ref: SessionRef): string {
  if (!ref.id) return "no session";
  return ref.how === "run"
    ? `session ${ref.id} (started by memnox run)`
    : `session ${ref.id} (the newest of ${ref.agent ?? "this agent"})`;
}

/** Why a tool cannot pick a session, and what would let it. */
export function noSessionLines(ref: SessionRef): string[] {
  return ref.agent
    ? [`memnox has recorded no session of ${ref.agent} yet, so there is nothing of this session to read.`]
    : [
        "memnox cannot tell which session this is: the agent was not started with memnox run, and this server was not told which agent launched it.",
        "memnox mcp session on adds the server with the agent's name; memnox timeline at a terminal lists every session.",
      ];
}

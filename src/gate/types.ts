// The gate's contract: what a seam hands to decide(), and what it gets back.
import type { Action } from "../core/action.ts";
import type { Effect, Mode } from "../core/effect.ts";
import type { Surface } from "../core/event.ts";
import type { Alternative, RuleRef } from "../core/verdict.ts";

/** What a seam is about to let happen; exactly one of `command`, `argv` or `action`. */
export interface GateRequest {
  readonly surface: Surface;
  /** A shell command line (Claude Code Bash, the governed shell). */
  readonly command?: string;
  /** An interceptor's exact argv, argv[0] being the CLI name. */
  readonly argv?: readonly string[];
  /** An action the seam already knows (filesystem.read on a path, http.request on a host, mcp.server.tool). */
  readonly action?: Action;
  readonly cwd: string;
  readonly agent?: string;
  readonly session?: string;
  /** Whether a person can be asked right now (the agent's own prompt, or a terminal). */
  readonly canAsk: boolean;
  /** Raw arguments for the keyed digest; never stored. */
  readonly rawArguments?: string;
  /**
   * The seam refuses this call itself, whatever the rules and the mode say (an MCP tool hidden by
   * MEMNOX_TOOLS_DENY/ALLOW, which the agent was never shown): decide records one deny row with this reason.
   */
  readonly refusal?: string;
}

export interface GateAnswer {
  /** What the seam must do now. */
  readonly effect: Effect;
  /** What enforce would have done; equals `effect` in enforce. */
  readonly enforceEffect: Effect;
  readonly mode: Mode;
  readonly reason: string;
  readonly alternative?: Alternative;
  readonly rule?: RuleRef;
  /** The decision row, so the outcome row can link to it. */
  readonly eventId?: string;
  /** Set when an ask was written to ~/.memnox/pending/ for `memnox approve`. */
  readonly holdId?: string;
  /** The actions the request resolved to. */
  readonly actions: readonly Action[];
  /** Protection is stopped (`memnox stop`): everything proceeds unruled. */
  readonly stopped: boolean;
}

export type Gate = (request: GateRequest) => Promise<GateAnswer>;

/** How a held call ended. `unattended`: nobody answered before it expired (still fails closed). */
export type HoldOutcome = "granted" | "denied" | "unattended";

/** What happened after an allowed call ran: the second ledger row, linked to the decision by `parent`. */
export interface Outcome {
  readonly exitCode?: number;
  readonly durationMs?: number;
  /** Non-secret words about what happened (e.g. "tool result quoted as data"). */
  readonly note?: string;
}

export interface PersonReply {
  readonly grant: boolean;
  /** `session`: the same call is allowed for the rest of the session without asking again. */
  readonly scope: "once" | "session";
  readonly via: "terminal" | "agent-prompt";
}

/** Everything a seam needs from the gate; one implementation, built by `createGate(ctx)`. */
export interface GateServices {
  readonly decide: Gate;
  /** Wait for a held call to be answered (`memnox approve`/`deny`) or to expire. */
  awaitHold(holdId: string, signal?: AbortSignal): Promise<HoldOutcome>;
  /** Record the outcome of a decided call. */
  recordOutcome(decisionEventId: string, outcome: Outcome): Promise<void>;
  /** A person answered an ask where it was raised (a terminal, the agent's own prompt): recorded; a session grant is kept. */
  recordAnswer(answer: GateAnswer, request: GateRequest, reply: PersonReply): Promise<void>;
  /** Mark a session wary for 30 minutes (instruction-shaped tool result): its outward and destructive actions ask. */
  markWary(session: string, reason: string): Promise<void>;
}

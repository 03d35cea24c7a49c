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
  /**
   * The seam runs inside a kernel wall (`memnox run --untrusted`): held answers live in files it cannot write, so
   * an ask it cannot put to a person is refused with its reason instead of held.
   */
  readonly walled?: true;
  /** The shell command will run inside the machine's agent wall (the agent's shell goes through its applier). */
  readonly underWall?: true;
  /**
   * What the seam that started this program handed down (MEMNOX_RULED): the actions a person let through there, so a
   * pre-push hook under an interceptor that already asked does not ask again for the same push.
   */
  readonly handedDown?: string;
  /**
   * The call already ran (what a shell command wrote, read after it): the verdict is recorded and returned, and
   * nothing is granted, cleared, leased or held for it.
   */
  readonly ran?: true;
  /**
   * `person`: the seam read the process's ancestry and found a person at their own terminal (no agent, no seam
   * above): the call meets only the rules written for `agents = ["person"]`, and none of memnox's checks on agents.
   */
  readonly seat?: "person";
  /** Raw arguments for the keyed digest; never stored. */
  readonly rawArguments?: string;
  /**
   * The credential kinds the call's text carries by shape (the masker's detectors), found where the raw text is:
   * the notice layer refuses a send that carries one after a session took something. Kinds only, never a value.
   */
  readonly carries?: readonly string[];
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
  /** Set when a person's earlier grant (this hold id) let an ask through. */
  readonly granted?: string;
  /** Set when an ask was written to ~/.memnox/pending/ for `memnox approve`. */
  readonly holdId?: string;
  /** A refusal's code: a person who types `memnox allow-once <code>` at their own terminal lets this call run once. */
  readonly allowOnce?: string;
  /**
   * An ask only named people can answer, or more than one: no prompt in the agent's session and no `[a]` at its
   * terminal settles it (neither can tell who said yes), only `memnox approve` from the accounts named.
   */
  readonly quorum?: { readonly approvers: readonly string[]; readonly minApprovals: number };
  /** The actions the request resolved to. */
  readonly actions: readonly Action[];
  /** The deciding action, what it acts on and the environment that decided: what a person's grant is bound to. */
  readonly decided?: {
    readonly action: string;
    /** As it may be shown: credentials masked. */
    readonly target: string;
    /** Set when a credential was masked out of the target: what the grant is bound to instead (a keyed digest). */
    readonly binding?: string;
    readonly environment?: string;
  };
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
  /** A person let this call through here: a token for the program it starts, so the seams under it do not ask again. */
  handDown?(answer: GateAnswer, cwd: string): string | undefined;
  /** Record the outcome of a decided call. */
  recordOutcome(decisionEventId: string, outcome: Outcome): Promise<void>;
  /** A person answered an ask where it was raised (a terminal, the agent's own prompt): recorded; a session grant is kept. */
  recordAnswer(answer: GateAnswer, request: GateRequest, reply: PersonReply): Promise<void>;
  /** Pause a session until `memnox resume --by` (what it did cannot be undone by refusing): recorded with why. */
  pauseSession(session: string, reason: string, surface: Surface): Promise<void>;
  /** Mark a session wary for 30 minutes (instruction-shaped tool result): its outward and destructive actions ask. */
  markWary(session: string, reason: string): Promise<void>;
  /**
   * An after-tool event for a call the gate refused: a `memnox.forged-outcome` finding on the session, naming the
   * refused decision, never an outcome (a refused call never ran, so whatever reported it ran is not the agent's tool).
   */
  recordForgedOutcome(forged: ForgedOutcome): Promise<void>;
  /** What a session is told at its start and reminded of later, from the rule files and state in force at `cwd`. */
  briefing(request: BriefingRequest): Promise<Briefing>;
  /** A session opened or closed in an agent's own hook: one `session` row; a start fixes its project boundary. */
  recordSession(event: SessionEvent): Promise<void>;
}

export interface ForgedOutcome {
  /** The refusal the event claims ran. */
  readonly decision: string;
  readonly surface: Surface;
  readonly cwd: string;
  readonly session?: string;
  readonly agent?: string;
  /** What the event said of it, in words (exit code, failure), never its output. */
  readonly claimed: string;
}

export interface BriefingRequest {
  readonly cwd: string;
  readonly agent?: string;
  readonly session?: string;
}

/** One rule as a session hears it: names and reasons only, never arguments, so no secret can be in it. */
export interface RuleSummary {
  readonly name: string;
  readonly effect: Effect;
  /** Action patterns as written (`git.push-force`, `mcp.*`). */
  readonly actions: readonly string[];
  /** Target patterns as written (`**\/.env`); empty when the rule names none. */
  readonly targets: readonly string[];
  readonly reason: string;
  /** The rule carries `mode = "observe"`: it decides nothing, so it is never named. */
  readonly observeOnly: boolean;
  /** Where the decision was taken: a workspace's published rules, this machine's, or the repository's file. */
  readonly source: "team" | "machine" | "repository";
  /** When `memnox protect` kept the date (machine rules), `YYYY-MM-DD`. */
  readonly decidedOn?: string;
}

export interface Briefing {
  /** The mode of the agent's hook (its own, or the global one). */
  readonly mode: Mode;
  /** Seams with their own mode (`mode.<seam>`), when any has one. */
  readonly seamModes?: Readonly<Partial<Record<Surface, Mode>>>;
  /** `memnox stop` in force. */
  readonly stop?: { readonly until: string; readonly by: string; readonly reason?: string };
  /** The rules in force at the request's directory, in file order; the hook picks and orders what it names. */
  readonly rules: readonly RuleSummary[];
  /** The repository the session works in (its top level), when it is in one. */
  readonly repository?: string;
  /** This agent's probation, when it is on one. */
  readonly probation?: { readonly until: string };
  /** Grants in force (`memnox allow`): what a rule asks about proceeds for that scope until it runs out. */
  readonly grants?: readonly GrantSummary[];
}

export interface GrantSummary {
  /** `railway.*`, or `railway.* in staging`. */
  readonly scope: string;
  readonly until: string;
  /** Time left, for people: `24m`. */
  readonly left: string;
  readonly reason?: string;
}

export interface SessionEvent {
  readonly kind: "start" | "end";
  readonly surface: Surface;
  readonly agent: string;
  readonly session?: string;
  readonly cwd: string;
  /** Non-secret words: how it started (`startup`, `resume`) or why it ended. */
  readonly detail?: string;
}

// The daemon socket's messages: one JSON object per line each way, `{id, method, …}` in and `{id, ok, …}` out.
// Nothing here carries an argument: an action crosses without its `arguments`, only saying whether it had any.
import type { ActionClass, PossibleTarget } from "../../core/action.ts";
import type { EventInput, Surface } from "../../core/event.ts";
import type { Boundary } from "../boundary.ts";
import type { DeclaredScope } from "../scope.ts";
import type { Briefing, GateAnswer, HoldOutcome } from "../types.ts";

/** An action as it crosses the socket: everything but its raw arguments. */
export interface WireAction {
  readonly name: string;
  readonly class: ActionClass;
  readonly targets: readonly string[];
  readonly branch?: string;
  readonly cli?: string;
  /** The targets with the call's credentials masked, when they carried any: what the daemon records. */
  readonly shown?: readonly string[];
  readonly cwd?: string;
  /** The open targets and the witnesses the seam's expansion found for them (paths, never arguments). */
  readonly possible?: readonly PossibleTarget[];
  /** A push's flags that say where it lands (`--tags`, `--all`…): flags, never a value that could be a secret. */
  readonly pushFlags?: readonly string[];
  /** The seam holds raw arguments for it, so a rule matching on `arguments` must be decided there. */
  readonly args: boolean;
}

/** Every non-secret fact decide() reads about the caller and the call, computed in the seam. */
export interface EvaluateRequest {
  readonly method: "evaluate";
  /** The seam's memnox version: a daemon of another version (still running after an update) sends it back. */
  readonly version: string;
  readonly surface: Surface;
  readonly cwd: string;
  readonly canAsk: boolean;
  readonly walled?: true;
  readonly underWall?: true;
  /** The seam found a person at their own terminal (GateRequest.seat). */
  readonly seat?: "person";
  /** The request's own agent and session, as the seam passed them to decide(). */
  readonly agent?: string;
  readonly session?: string;
  /** The caller's facts (MEMNOX_AGENT_NAME, MEMNOX_SESSION, MEMNOX_ENV, MEMNOX_ROLE, run's scope). */
  readonly caller: {
    readonly agent?: string;
    readonly session?: string;
    readonly environments?: readonly string[];
    readonly role?: string;
    readonly scope?: DeclaredScope;
  };
  readonly branch?: string;
  readonly boundary?: Boundary;
  /** MEMNOX_POLICIES as the caller has it: which rule files apply depends on it. */
  readonly policies?: string;
  /** `action`: the seam knew the action (its `actions` has exactly it); else it resolved a command line. */
  readonly given: "action" | "resolution";
  readonly actions: readonly WireAction[];
  readonly normalized: string;
  readonly unknown: readonly string[];
  readonly parseError?: string;
  /** The call had raw arguments of its own (an MCP call), which a grant binds to by digest. */
  readonly rawArguments: boolean;
  /** The keyed digest of the call's arguments, made in the seam. */
  readonly argsDigest: string;
  /** Inside a wall the machine key cannot be read: the arguments go to the daemon, which keys them and keeps nothing. */
  readonly argsRaw?: string;
  readonly refusal?: string;
  /** The credential kinds the call's text carries by shape, found in the seam (kinds only). */
  readonly carries?: readonly string[];
  /** MEMNOX_RULED: what the seam that started this program handed down (never recorded). */
  readonly handedDown?: string;
  /** The seam's instant, so a verdict with a time window is the one the seam would have reached. */
  readonly at: { readonly epochMs: number };
  /** The seam's TZ: a rule with time windows is decided by the daemon only when its own TZ is the same. */
  readonly tz?: string;
}

export interface HoldRequest {
  readonly method: "hold";
  readonly holdId: string;
}

export interface RecordRequest {
  readonly method: "record";
  readonly event: EventInput;
  /** Fill surface, operation, session and agent from the row named by `event.parent` (an outcome from elsewhere). */
  readonly inherit?: boolean;
  /** A person's own command (src/gate/person.ts): the daemon names its action from this argv, so the seam need not. */
  readonly personArgv?: readonly string[];
}

export interface PingRequest {
  readonly method: "ping";
  /** `memnox run`'s session: the reply's `egress` is a listener of that session's own, open while this connection is. */
  readonly egressFor?: string;
}

/** What a session is told of the rules and state at `cwd` (`GateServices.briefing`), from the daemon's rule sets. */
export interface BriefingRequest {
  readonly method: "briefing";
  /** Only the same memnox briefs for a seam: the summaries are its code's. */
  readonly version: string;
  readonly cwd: string;
  readonly agent?: string;
  readonly policies?: string;
  /** The repository the session works in, as the seam finds it (its env, the session's start, .git). */
  readonly repository?: string;
  /** The seam's instant: what is in force, and the time left on grants, is said as of it. */
  readonly at: number;
}

export type DaemonRequest = EvaluateRequest | HoldRequest | RecordRequest | PingRequest | BriefingRequest;

interface EgressAddress {
  readonly host: string;
  readonly port: number;
}

export interface PingReply {
  readonly pid: number;
  readonly version: string;
  readonly startedAt: string;
  readonly egress?: EgressAddress;
  /** Requests answered since it started: `local` counts evaluations sent back for an argument rule. */
  readonly answered: {
    readonly evaluate: number;
    readonly local: number;
    readonly record: number;
    readonly hold: number;
  };
  /** Rule sets held compiled, one per working directory asked about. */
  readonly ruleSets: number;
}

/** What each method answers on success; `ok: false` carries `error` instead. */
export interface Replies {
  evaluate: { readonly answer: GateAnswer } | { readonly local: string };
  hold: { readonly outcome: HoldOutcome };
  record: { readonly eventId?: string };
  ping: PingReply;
  briefing: { readonly briefing: Briefing } | { readonly local: string };
}

export type Reply<M extends DaemonRequest["method"]> = Replies[M];

export type Envelope = { readonly id: number } & (
  | ({ readonly ok: true } & Record<string, unknown>)
  | { readonly ok: false; readonly error: string }
);

/** A line longer than this is not a request anybody sent on purpose. */
export const MAX_LINE = 1 << 20;

// What decide() needs from the world, as plain functions; createGate(ctx) wires the real ones.

import type { Decision } from "../core/decisions.ts";
import type { Mode } from "../core/effect.ts";
import type { EventInput, Surface } from "../core/event.ts";
import type { PolicyRequest, StateFact } from "../core/request.ts";
import type { RuleRef, Verdict } from "../core/verdict.ts";
import type { NoticeHistory, NoticeRead } from "../ledger/notices.ts";
import type { CurrentSettings } from "../resolve/commands/memnox.ts";
import type { Resolution } from "../resolve/types.ts";
import type { IssueRequest, TypedCode } from "../state/allow-once.ts";
import type { ClearedCall, HandedDown } from "../state/cleared.ts";
import type { FingerprintParts, Hold, NewHold } from "../state/pending.ts";
import type { StopRecord } from "../state/stop.ts";
import type { Boundary } from "./boundary.ts";
import type { NoticeSettings } from "./notice/gather.ts";
import type { Protection } from "./protected.ts";
import type { DeclaredScope } from "./scope.ts";
import type { GateRequest } from "./types.ts";
import type { WallHolds } from "./wall-held.ts";

export type ClearedKey = Pick<ClearedCall, "action" | "target" | "environment">;

export interface Instant {
  readonly epochMs: number;
  readonly utcOffsetMinutes: number;
}

/** A problem in a rule file that applies here; in enforce it refuses, naming the file and line. */
export interface RuleProblem {
  readonly file: string;
  readonly line?: number;
  readonly message: string;
}

/** The rule set in force for one working directory. */
export interface RuleSetView {
  readonly hash: string;
  readonly files: readonly string[];
  readonly problems: readonly RuleProblem[];
  /** Whether any rule has time windows: only then does the local UTC offset (costly to read) matter. */
  readonly usesWindows?: boolean;
  /** Whether any rule names principals, models or providers: only then are they read. */
  readonly usesCaller?: boolean;
  /** Whether any rule has `aboveAmount`: only then is a call's stated amount read from its arguments. */
  readonly usesAmount?: boolean;
  evaluate(request: PolicyRequest, facts: readonly StateFact[], at: Instant): Verdict;
}

export interface Settings {
  readonly mode: Mode;
  readonly failOpen: boolean;
  /** `mode.<seam>`: a seam's own mode, in force for calls through that seam instead of `mode`. */
  readonly seamModes?: Readonly<Partial<Record<Surface, Mode>>>;
  /** The notice layer's settings (noticeUnusual, noticeWarmupDays); absent, it reads nothing and asks nothing. */
  readonly notice?: NoticeSettings;
  /** The other settings in force, which a `memnox config set` from an agent's seat is compared with. */
  readonly config?: CurrentSettings;
}

/** Facts about the caller that come from one documented source each. */
export interface CallerFacts {
  readonly agent?: string;
  readonly session?: string;
  /** Every environment declared (MEMNOX_ENV); with several, each is ruled on and the strictest verdict applies. */
  readonly environments?: readonly string[];
  readonly role?: string;
  readonly scope?: DeclaredScope;
  /** The project boundary for a call at `cwd` in `session`: run's paths, where the session started, or the checkout. */
  boundary(cwd: string, session: string | undefined): Boundary | undefined;
  /** The checked-out branch at the request's cwd. */
  branch(cwd: string): string | undefined;
  /** The person the agent acts for (read only when a rule names `principals`). */
  principal?(): string | undefined;
  /** The model and provider the agent's own settings name (read only when a rule names `models` or `providers`). */
  runs?(agent: string | undefined, cwd: string): { readonly model?: string; readonly provider?: string };
}

export interface GateDeps {
  /** A dry run (policy test, a hook face run by hand): judged on what it may read, and nothing is written. */
  readonly dry?: boolean;
  now(): Instant;
  settings(): Settings;
  /** The rules in force at `cwd`, together with those of every other place the call acts (`also`). */
  rules(cwd: string, also?: readonly string[]): RuleSetView;
  resolve(request: GateRequest): Resolution;
  caller: CallerFacts;
  /** State facts in force (freezes, probation, wary sessions, grants, budgets), handed to the engine. */
  facts(nowMs: number): readonly StateFact[];
  /** The decisions recorded in memory that bind at `cwd` (its project's and the machine's); none when absent. */
  decisions?(cwd: string): readonly Decision[];
  /** `lease` facts in force on these paths (a write's targets), each naming its session, holder and since when. */
  leases?(paths: readonly string[], nowMs: number): readonly StateFact[];
  /** An allowed write takes (or renews) the lease on its paths for its session; a dry run takes none. */
  takeLeases?(paths: readonly string[], holder: { session: string; agent: string }, nowMs: number): void;
  stop(nowMs: number): StopRecord | undefined;
  /** True while a workspace this machine follows has not confirmed its bundle lately: every row is marked stale. */
  stale?(nowMs: number): boolean;
  /** A person's grant for this call that it may spend (read only; `spendGrant` spends it when the ruling is kept). */
  grant(parts: FingerprintParts, session: string | undefined, nowMs: number): Hold | undefined;
  /** Spends the grant a ruling used, if no other call spent it first (compare-and-set); undefined when one did. */
  spendGrant(hold: Hold, nowMs: number): Hold | undefined;
  /** A person's recent no to this very call in this session (`memnox deny`): the retry hears it, not a new hold. */
  refusedBefore?(parts: FingerprintParts, session: string | undefined, nowMs: number): Hold | undefined;
  /** A refusal's code a person typed (`memnox allow-once`) for this exact call (read only). */
  allowOnce?(parts: FingerprintParts, session: string | undefined, nowMs: number): TypedCode | undefined;
  /** Takes the typed code a ruling used, so it lets one call through; false when another call took it first. */
  takeAllowOnce?(code: TypedCode): boolean;
  /** A code for a refused call, which a person can type at their own terminal to let it through once. */
  issueAllowOnce?(input: Omit<IssueRequest, "fingerprint"> & { readonly parts: FingerprintParts }): string | undefined;
  /** A call a person let through at another seam in this session, while that lasts. */
  clearedCall(session: string, call: ClearedKey, nowMs: number): ClearedCall | undefined;
  /** What the seam above handed down for this working directory, while it lasts. */
  handedDown(token: string, cwd: string, nowMs: number): HandedDown | undefined;
  /** What a call let through here also does, so the next seam it meets does not hold it again. */
  clearCalls(session: string, calls: readonly ClearedCall[], nowMs: number): void;
  createHold(input: NewHold): Hold;
  /** Append one ledger row; never throws (a row that cannot be written is reported and counted). */
  record(event: EventInput): string | undefined;
  digest(raw: string): string;
  /** Called once per rule-set hash the ledger refers to, so a replay can recompile it. */
  keepRuleSet(view: RuleSetView): void;
  holdTtlMs: number;
  /** A rate-limited rule's recent spending, from the ledger; a dry run reads none, so counts nothing. */
  proceeded?(q: ProceededQuery): readonly string[];
  /** What the credential at `path` would have opened, from the last scan (the counterfactual of a refused read). */
  reach?(path: string): string | undefined;
  /** The notice layer's history, from the ledger's index; a dry run reads none, so claims no novelty. */
  history?(q: NoticeRead): NoticeHistory;
  /** memnox's protected paths for this machine, and how a target is tested against one. */
  readonly protect?: Protection;
  /** What the machine's agent wall holds, for a command that runs inside it; undefined when none is written. */
  wallHolds?(): WallHolds | undefined;
}

/** Decisions of `rule` for `agent` that proceeded at or after `sinceIso`: their instants, newest first, at most `limit`. */
export interface ProceededQuery {
  readonly rule: RuleRef;
  readonly agent: string | undefined;
  readonly sinceIso: string;
  readonly limit: number;
}

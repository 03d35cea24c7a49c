// A rule as the loader hands it to the engine: validated plain data with the file and line it came from.
import type { ActionClass, ScopeFit } from "../../core/action.ts";
import type { Effect } from "../../core/effect.ts";
import type { Alternative } from "../../core/verdict.ts";

/** `days` 0-6 with 0 = Sunday; `startHour` > `endHour` wraps past midnight. */
export interface TimeWindow {
  readonly days?: readonly number[];
  readonly startHour: number;
  readonly endHour: number;
}

/** Every match field of the schema; an omitted field matches everything. */
export interface RuleMatch {
  readonly actions?: readonly string[];
  /** The action's class as the resolver or the seam gave it: `destructive` for a delete nothing can bring back. */
  readonly classes?: readonly ActionClass[];
  readonly targets?: readonly string[];
  readonly environments?: readonly string[];
  readonly branches?: readonly string[];
  readonly workingDirectories?: readonly string[];
  readonly agents?: readonly string[];
  readonly arguments?: Readonly<Record<string, readonly string[]>>;
  readonly windows?: readonly TimeWindow[];
  readonly roles?: readonly string[];
  readonly principals?: readonly string[];
  readonly models?: readonly string[];
  readonly providers?: readonly string[];
  readonly dataClassifications?: readonly string[];
  readonly jurisdictions?: readonly string[];
  readonly aboveAmount?: number;
  readonly scope?: readonly Exclude<ScopeFit, "undeclared">[];
  readonly state?: readonly string[];
}

interface RateLimit {
  readonly max: number;
  readonly windowSeconds: number;
}

export interface RuleDecision {
  readonly effect: Effect;
  readonly reason?: string;
  readonly approvers?: readonly string[];
  readonly minApprovals?: number;
  readonly mode?: "observe" | "enforce";
  readonly rateLimit?: RateLimit;
  readonly alternative?: Alternative;
  /**
   * On an `allow`: the names of `ask` rules of the same file this rule lets through where both match (what
   * `memnox next --hand-over` writes). A deny is never relaxed, and neither is another file's rule.
   */
  readonly relaxes?: readonly string[];
}

export interface PolicyRule {
  readonly name: string;
  readonly description?: string;
  readonly match: RuleMatch;
  readonly decision: RuleDecision;
  /** The file the rule was read from, and the line its entry starts on. */
  readonly file: string;
  readonly line: number;
}

/** The instant of a decision, passed in so a replay reproduces it. */
export interface Instant {
  readonly epochMs: number;
  /** Minutes east of UTC of the machine's local time at that instant (UTC+2 is 120). */
  readonly utcOffsetMinutes: number;
}

export interface CompileOptions {
  /** The user's home, for `~/` in path patterns. */
  readonly home?: string;
}

/** Every match field, in the order the schema page lists them. */
/**
 * The agent name a person's own call at their own terminal is decided under (the seams tell it by the seat): it
 * meets only rules whose `agents` names `person`, the rules a person wrote for themselves.
 */
export const PERSON = "person";

export const MATCH_FIELDS = [
  "actions",
  "classes",
  "targets",
  "environments",
  "branches",
  "workingDirectories",
  "agents",
  "arguments",
  "windows",
  "roles",
  "principals",
  "models",
  "providers",
  "dataClassifications",
  "jurisdictions",
  "aboveAmount",
  "scope",
  "state",
] as const satisfies readonly (keyof RuleMatch)[];

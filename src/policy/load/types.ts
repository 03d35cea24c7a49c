// What the loader hands out: sources kept verbatim, problems with file and line, and the set in force.
import type { Effect } from "../../core/effect.ts";
import type { PolicyRequest, StateFact } from "../../core/request.ts";
import type { Verdict } from "../../core/verdict.ts";
import type { CompiledRuleSet, Instant, PolicyRule } from "../engine/index.ts";

/**
 * Why a file is loaded: named on the command line, by MEMNOX_POLICIES, found walking up, the machine's, `policy use`,
 * or pulled from the workspace (`org.policies.json`).
 */
export type RuleOrigin = "flag" | "env" | "repository" | "machine" | "registered" | "workspace";

/** A rule file exactly as read, so the ledger can keep it and a replay can recompile it. */
export interface RuleSource {
  readonly path: string;
  readonly origin: RuleOrigin;
  readonly text: string;
  /** sha256 of the text, hex. */
  readonly hash: string;
}

export interface RuleProblem {
  readonly file: string;
  readonly line?: number;
  /** The rule the problem is in, when it is in one. */
  readonly rule?: string;
  /** The field, dotted from the rule (`decision.effect`) or the file (`version`). */
  readonly field?: string;
  readonly message: string;
}

/** One file after parsing and validation: the rules that are sound, and what is wrong with the rest. */
export interface CheckedFile {
  readonly path: string;
  readonly origin: RuleOrigin;
  /** Whether it applies at the working directory it was loaded for. */
  readonly applies: boolean;
  readonly exists: boolean;
  readonly hash?: string;
  readonly project?: string;
  readonly rules: readonly PolicyRule[];
  readonly problems: readonly RuleProblem[];
}

/** The rules in force at one working directory; structurally the gate's `RuleSetView`. */
export interface LoadedRuleSet {
  /** Content hash of the set in force: the same files give the same hash on any machine. */
  readonly hash: string;
  /** Every applicable rule file, broken or not, so a verdict can name where its rule came from. */
  readonly files: readonly string[];
  /** Problems of applicable files only: in enforce the gate refuses while any is unfixed. */
  readonly problems: readonly RuleProblem[];
  readonly sources: readonly RuleSource[];
  readonly checked: readonly CheckedFile[];
  readonly compiled: CompiledRuleSet;
  /** Whether any rule in force has time windows. */
  readonly usesWindows: boolean;
  /** Some rule names principals, models or providers. */
  readonly usesCaller: boolean;
  /** Some rule has `aboveAmount`. */
  readonly usesAmount: boolean;
  evaluate(request: PolicyRequest, facts: readonly StateFact[], at: Instant, defaultEffect?: Effect): Verdict;
}

export function formatProblem(p: RuleProblem): string {
  const where = p.line ? `${p.file}:${p.line}` : p.file;
  const rule = p.rule ? `rule \`${p.rule}\`: ` : "";
  return `${where}: ${rule}${p.message}`;
}

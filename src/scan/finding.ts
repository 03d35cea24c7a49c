// What doctor's findings are: the shape findings.ts builds and finding-reach.ts adds to.
import type { RuleSpec } from "../policy/baseline.ts";

export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
export type Severity = (typeof SEVERITIES)[number];

interface Fix {
  readonly words: string;
  /** The command that makes the change, where one does. */
  readonly command?: string;
  /** The rule that makes it, for `memnox protect` to write into ~/.memnox/machine.policies.toml. */
  readonly rule?: RuleSpec;
}

export interface Finding {
  /** Stable across runs: what the finding is about, not where it was printed. */
  readonly id: string;
  readonly severity: Severity;
  readonly title: string;
  readonly resource: string;
  readonly agents: readonly string[];
  readonly evidence: readonly string[];
  readonly fix: Fix;
}

// A grant (`memnox allow`): for its scope and while it lasts, an ask a rule made proceeds; a deny never does. Pure.
import type { Action } from "../core/action.ts";
import { formatDuration } from "../core/duration.ts";
import type { StateFact } from "../core/request.ts";
import type { Finding } from "./combine.ts";
import { namedBy } from "./findings.ts";

/** `railway.*`, or `railway.* in staging`: a grant's scope as a person reads it. */
export function grantScope(f: Pick<StateFact, "actions" | "subject" | "environment">): string {
  const actions = f.actions?.join(", ") ?? f.subject;
  return f.environment ? `${actions} in ${f.environment}` : actions;
}

/** The grant in force that covers this action in this environment (an environment-less grant: calls naming none). */
function grantCovering(
  facts: readonly StateFact[],
  action: Pick<Action, "name">,
  environment: string | undefined,
): StateFact | undefined {
  return facts.find(
    (f) =>
      f.kind === "grant" &&
      namedBy(f.actions, action.name) &&
      (f.environment === undefined ? environment === undefined : f.environment === environment),
  );
}

/** Each ask a rule made, where a grant covers it, proceeds instead; every other finding is as it was. */
export function withGrants(findings: readonly Finding[], facts: readonly StateFact[], nowMs: number): Finding[] {
  if (!facts.some((f) => f.kind === "grant")) return [...findings];
  return findings.map((f) => {
    if (f.source !== "rule" || f.effect !== "ask" || f.verdict?.observeOnly) return f;
    // A grant is one person's word: an ask that needs named approvers or a quorum is theirs to answer.
    if ((f.verdict?.minApprovals ?? 1) > 1 || (f.verdict?.approvers?.length ?? 0) > 0) return f;
    const g = grantCovering(facts, f.action, f.environment);
    if (!g) return f;
    const left = formatDuration(Date.parse(g.expiresAt) - nowMs);
    const why = g.reason ? `: ${g.reason}` : "";
    return {
      ...f,
      effect: "allow",
      source: "grant",
      fact: g,
      reason: `${grantScope(g)} is granted${g.by ? ` by ${g.by}` : ""} for ${left} more${why} (the rule would have asked: ${f.reason})`,
    };
  });
}

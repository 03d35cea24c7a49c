// Replaying a recorded decision: the same pure stages decide() ran, with the row's own instant, facts and rule set.
import type { Action } from "../core/action.ts";
import { MemnoxError } from "../core/errors.ts";
import type { PolicyRequest } from "../core/request.ts";
import type { Reevaluate } from "../ledger/reevaluate.ts";
import { type RuleOrigin, ruleSetFromSources } from "../policy/load/index.ts";
import { recordedDecision } from "./call.ts";
import { combine, ruleFinding } from "./combine.ts";
import { decisionFinding } from "./decisions.ts";
import { ownChecks, withStates } from "./findings.ts";
import { withGrants } from "./grants.ts";
import { noticeFindings } from "./notice/findings.ts";

const ORIGINS: readonly RuleOrigin[] = ["flag", "env", "repository", "machine", "registered", "workspace"];
const NOT_RULES = new Set(["unparsable", "rules-unreadable", "error", "stopped", "refused"]);

/** `home` expands `~/` in rule patterns exactly as it did when the row was written on this machine. */
export function replayWith(home: string): Reevaluate {
  return async (row, kept) => {
    const req = row.request;
    if (!req) throw new MemnoxError("usage", `\`${row.id}\` has no recorded request to replay`);
    const source = row.detail?.source;
    if (typeof source === "string" && NOT_RULES.has(source)) {
      throw new MemnoxError(
        "usage",
        `\`${row.id}\` was decided by memnox's own check (${source}), not by a rule: there is nothing to replay`,
      );
    }
    const set = ruleSetFromSources(
      kept.sources.map((s) => ({
        path: s.path,
        text: s.text,
        hash: s.hash,
        origin: ORIGINS.find((o) => o === s.origin) ?? "repository",
      })),
      home,
    );
    const action: Action = {
      name: req.action,
      class: req.class,
      targets: req.targets,
      arguments: {},
      ...(req.branch ? { branch: req.branch } : {}),
    };
    const request: PolicyRequest = {
      action,
      cwd: req.cwd,
      scope: req.scope,
      recordedArgumentMatches: req.argumentMatches,
      ...(req.targetMatches ? { recordedTargetMatches: req.targetMatches } : {}),
      ...(req.agent ? { agent: req.agent } : {}),
      ...(req.role ? { role: req.role } : {}),
      ...(req.principal ? { principal: req.principal } : {}),
      ...(req.model ? { model: req.model } : {}),
      ...(req.provider ? { provider: req.provider } : {}),
      ...(req.amount !== undefined ? { amount: req.amount } : {}),
      ...(req.environment ? { environment: req.environment } : {}),
      ...(req.branch ? { branch: req.branch } : {}),
    };
    const offset = row.detail?.utcOffsetMinutes;
    const at = { epochMs: Date.parse(row.occurredAt), utcOffsetMinutes: typeof offset === "number" ? offset : 0 };
    const verdict = set.evaluate(request, req.facts, at);
    // A recorded decision that decided is on the row with the words it matched (an unknown program's targets are not
    // kept): the replay is held to it again, as a rule's recorded argument matches are, without reading memory.
    const decision = recordedDecision(row.detail);
    const combined = combine([
      ...withGrants([ruleFinding(action, verdict, req.environment)], req.facts, at.epochMs),
      ...ownChecks({
        action,
        agent: req.agent,
        session: row.agentSessionId,
        facts: req.facts,
        boundary: req.boundary,
        nowMs: at.epochMs,
      }),
      ...noticeFindings({
        action,
        surface: row.surface,
        agent: req.agent,
        session: row.agentSessionId,
        facts: req.facts,
        boundary: req.boundary,
        nowMs: at.epochMs,
      }),
      ...(decision ? [decisionFinding(action, decision, decision.terms)] : []),
    ]);
    return {
      effect: combined.wouldEffect,
      ...(combined.rule ? { ruleId: combined.rule.name } : {}),
      reason: withStates(combined.reason, combined.deciding.verdict?.states, req.facts, at.epochMs),
    };
  };
}

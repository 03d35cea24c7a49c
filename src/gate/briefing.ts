// What a session is told: the mode, the rules in force named by action and reason, the boundary, probation, a stop.

import { formatDuration } from "../core/duration.ts";
import type { Mode } from "../core/effect.ts";
import type { LoadedRuleSet, RuleOrigin } from "../policy/load/index.ts";
import type { Context } from "../ports/context.ts";
import type { Config } from "../state/config.ts";
import { overlaysInForce, readOverlays } from "../state/overlays.ts";
import { probationInForce, readProbation } from "../state/probation.ts";
import type { StopRecord } from "../state/stop.ts";
import { grantScope } from "./grants.ts";
import type { Briefing, BriefingRequest, RuleSummary } from "./types.ts";

const SOURCE: Readonly<Record<RuleOrigin, RuleSummary["source"]>> = {
  machine: "machine",
  repository: "repository",
  flag: "repository",
  env: "repository",
  registered: "repository",
  workspace: "team",
};

/** The opening line of every briefing, per mode: what a verdict does in this session. */
export const MODE_LINE: Record<Exclude<Mode, "off">, string> = {
  observe:
    "Memnox is watching this session in observe mode: nothing is stopped, and what it would have asked about or refused is recorded.",
  advise:
    "Memnox is advising this session in advise mode: nothing is stopped, and what it would have asked about or refused is said beside the call.",
  enforce:
    "Memnox is ruling this session in enforce mode: what it refuses does not run, and what it asks about waits for a person.",
};

function ruleSummaries(set: LoadedRuleSet): RuleSummary[] {
  return set.checked
    .filter((c) => c.applies)
    .flatMap((c) =>
      c.rules.map((r) => ({
        name: r.name,
        effect: r.decision.effect,
        actions: r.match.actions ?? [],
        targets: r.match.targets ?? [],
        reason: r.decision.reason ?? r.description ?? "",
        observeOnly: r.decision.mode === "observe",
        source: SOURCE[c.origin],
      })),
    );
}

export function briefingFor(
  ctx: Context,
  req: BriefingRequest,
  input: { config: Config; stop: StopRecord | undefined; rules: LoadedRuleSet; repository: string | undefined },
): Briefing {
  const now = ctx.clock.now();
  const probation = req.agent
    ? probationInForce(readProbation(ctx.paths.probation), now).find((e) => e.kind === "agent" && e.name === req.agent)
    : undefined;
  const grants = overlaysInForce(readOverlays(ctx.paths.overlays), now)
    .filter((f) => f.kind === "grant")
    .map((f) => ({
      scope: grantScope(f),
      until: f.expiresAt,
      left: formatDuration(Date.parse(f.expiresAt) - now),
      ...(f.reason ? { reason: f.reason } : {}),
    }));
  return {
    // A session hears of its agent's hook, the seam its calls arrive through first; others that differ are named.
    mode: input.config.seamModes.hook ?? input.config.mode,
    ...(Object.keys(input.config.seamModes).length > 0 ? { seamModes: input.config.seamModes } : {}),
    rules: ruleSummaries(input.rules),
    ...(input.stop
      ? {
          stop: {
            until: input.stop.until,
            by: input.stop.by,
            ...(input.stop.reason ? { reason: input.stop.reason } : {}),
          },
        }
      : {}),
    ...(input.repository ? { repository: input.repository } : {}),
    ...(probation ? { probation: { until: probation.until } } : {}),
    ...(grants.length ? { grants } : {}),
  };
}

// Replaying a recorded decision: judge() on the facts the row recorded (its instant, state facts, boundary and rule
// set), so a replay is decided by the very function the live call was.
import type { Action } from "../core/action.ts";
import { MemnoxError } from "../core/errors.ts";
import type { PolicyRequest } from "../core/request.ts";
import type { Reevaluate } from "../ledger/reevaluate.ts";
import type { LedgerRow } from "../ledger/row.ts";
import { PERSON } from "../policy/engine/index.ts";
import { type RuleOrigin, ruleSetFromSources } from "../policy/load/index.ts";
import { rawArguments, recordedDecision } from "./call.ts";
import type { Instant, RuleSetView } from "./deps.ts";
import type { GateFacts } from "./facts.ts";
import { judge } from "./judge.ts";
import type { GateRequest } from "./types.ts";

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
    const person = req.agent === PERSON;
    const asked: GateRequest = {
      surface: row.surface,
      action,
      cwd: req.cwd,
      canAsk: false,
      ...(req.agent && !person ? { agent: req.agent } : {}),
      ...(row.agentSessionId ? { session: row.agentSessionId } : {}),
      ...(person ? { seat: "person" as const } : {}),
    };
    const ruling = judge(asked, recordedFacts(asked, row, set, request, at));
    return {
      effect: ruling.answer.enforceEffect,
      ...(ruling.answer.rule ? { ruleId: ruling.answer.rule.name } : {}),
      reason: ruling.answer.reason,
    };
  };
}

/**
 * The facts a row recorded, as judge() takes them: its instant, its state facts, its boundary, the rule set it
 * names, held to the request it recorded (the argument matches, since arguments are never kept) and to the recorded
 * decision that decided it (memory is not read again). Judged in enforce, with nothing pending: the rules' answer.
 */
function recordedFacts(
  asked: GateRequest,
  row: LedgerRow,
  set: RuleSetView,
  request: PolicyRequest,
  at: Instant,
): GateFacts {
  const req = row.request as NonNullable<LedgerRow["request"]>;
  const held: RuleSetView = {
    hash: set.hash,
    files: set.files,
    problems: [],
    ...(set.usesWindows ? { usesWindows: true } : {}),
    evaluate: (_r, facts, when) => set.evaluate(request, facts, when),
  };
  const decision = recordedDecision(row.detail);
  const facts: GateFacts = {
    at,
    settings: { mode: "enforce", failOpen: false },
    stale: false,
    stop: undefined,
    caller: {},
    world: {
      resolution: { actions: [request.action], normalized: request.action.name, unknown: [] },
      rules: held,
      agent: asked.seat ? PERSON : asked.agent,
      session: asked.session,
      boundary: req.boundary,
      environments: req.environment ? [req.environment] : [],
      role: req.role,
      scope: undefined,
      branch: req.branch,
      runs: {},
      state: req.facts,
      decisions: [],
      ...(decision ? { heldTo: decision } : {}),
      settings: undefined,
      history: undefined,
      protect: undefined,
      wallHolds: undefined,
    },
    pending: {},
    reach: {},
    digests: new Map([[rawArguments(asked), row.argsDigest ?? ""]]),
    holdTtlMs: 0,
  };
  return Object.freeze(facts);
}

// What a rule would do on the fleet, read from what the fleet did: the workspace's recent decisions (last week's
// actions, newest first, up to a bound) evaluated by the engine machines run, against rules not yet in force. This is
// what a reviewer reads before approving: which actions and targets a decision's rules catch, and which verdicts a
// proposed rule set changes. The fleet never sends arguments, so a rule that matches on them is said to, not guessed.
import type { ActionClass } from "../core/action.ts";
import { type Effect, effectRank } from "../core/effect.ts";
import type { PolicyRequest } from "../core/request.ts";
import { type CompiledRuleSet, compile, evaluate } from "../policy/engine/index.ts";
import { checkText } from "../policy/load/index.ts";
import { HttpError } from "./http-error.ts";
import { iso } from "./iso.ts";
import type { Db } from "./store/db.ts";
import { recentDecisions } from "./store/events.ts";

/** How far back the fleet is read, and how many of its actions at most. */
const PREVIEW_DAYS = 7;
const PREVIEW_LIMIT = 20_000;
const EXAMPLES = 20;

interface FleetAction {
  readonly id: number;
  readonly machine: string;
  readonly agent: string | null;
  readonly operation: string;
  readonly classes: readonly string[];
  readonly target: string | null;
  readonly effect: string | null;
  readonly at: Date;
}

interface Fleet {
  readonly since: string;
  readonly actions: readonly FleetAction[];
  /** More actions happened in the window than were read. */
  readonly truncated: boolean;
}

/** The workspace's decisions of the last PREVIEW_DAYS (outcomes are the same action again), newest first. */
export async function recentActions(db: Db, workspaceId: string, now: number): Promise<Fleet> {
  const since = new Date(now - PREVIEW_DAYS * 86_400_000);
  const rows = await recentDecisions(db, workspaceId, since, PREVIEW_LIMIT + 1);
  return {
    since: since.toISOString(),
    truncated: rows.length > PREVIEW_LIMIT,
    actions: rows.slice(0, PREVIEW_LIMIT).map((r) => ({
      id: Number(r.id),
      machine: r.machine_id,
      agent: r.agent,
      operation: r.operation,
      classes: r.classes,
      target: r.resource_ref,
      effect: r.effect,
      at: r.occurred_at,
    })),
  };
}

/** A rule document's JSON compiled as a machine compiles org.policies.json; a problem is the server's own fault. */
function ruleSetOf(rulesJson: string): CompiledRuleSet {
  if (rulesJson.trim() === "") return compile([]);
  const checked = checkText("org.policies.json", "workspace", rulesJson);
  if (checked.problems.length > 0)
    throw new HttpError(500, "internal", `the rules do not compile: ${checked.problems[0]?.message ?? "?"}`);
  return compile(checked.rules);
}

const CLASSES: readonly ActionClass[] = ["read", "write", "destructive", "communication", "unknown"];

/** The strictest verdict the rules give the action, over each class it was recorded with. */
function verdictOn(set: CompiledRuleSet, a: FleetAction): { effect: Effect; rule: string | null } {
  const classes = a.classes.filter((c): c is ActionClass => (CLASSES as readonly string[]).includes(c));
  let best: { effect: Effect; rule: string | null } = { effect: "allow", rule: null };
  for (const cls of classes.length > 0 ? classes : (["unknown"] as const)) {
    const request: PolicyRequest = {
      action: { name: a.operation, class: cls, targets: a.target ? [a.target] : [], arguments: {} },
      cwd: "/",
      scope: "undeclared",
      ...(a.agent ? { agent: a.agent } : {}),
    };
    const v = evaluate(set, request, [], { epochMs: a.at.getTime(), utcOffsetMinutes: 0 });
    if (v.governed && (best.rule === null || effectRank(v.effect) > effectRank(best.effect)))
      best = { effect: v.effect, rule: v.rule?.name ?? null };
  }
  return best;
}

function example(a: FleetAction) {
  return { event: a.id, operation: a.operation, target: a.target, machine: a.machine, agent: a.agent, at: iso(a.at) };
}

function counted(xs: readonly (string | null)[]): { value: string; count: number }[] {
  const m = new Map<string, number>();
  for (const x of xs) if (x !== null) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
    .slice(0, EXAMPLES);
}

/** What `rulesJson` catches of the fleet's recent actions (ask or deny): how many, by action and target, examples. */
export function caughtBy(rulesJson: string, fleet: Fleet) {
  const set = ruleSetOf(rulesJson);
  const hits = fleet.actions.filter((a) => {
    const v = verdictOn(set, a);
    return v.rule !== null && v.effect !== "allow";
  });
  return {
    since: fleet.since,
    read: fleet.actions.length,
    truncated: fleet.truncated,
    caught: hits.length,
    byAction: counted(hits.map((h) => h.operation)),
    byTarget: counted(hits.map((h) => h.target)),
    examples: hits.slice(0, EXAMPLES).map(example),
  };
}

/** Which verdicts of the fleet's recent actions change from one rule document to another, by from -> to. */
export function verdictChanges(beforeJson: string, afterJson: string, fleet: Fleet) {
  const before = ruleSetOf(beforeJson);
  const after = ruleSetOf(afterJson);
  const groups = new Map<string, { from: Effect; to: Effect; count: number; examples: ReturnType<typeof example>[] }>();
  for (const a of fleet.actions) {
    const was = verdictOn(before, a).effect;
    const now = verdictOn(after, a).effect;
    if (was === now) continue;
    const key = `${was}>${now}`;
    const g = groups.get(key) ?? { from: was, to: now, count: 0, examples: [] };
    g.count += 1;
    if (g.examples.length < EXAMPLES) g.examples.push(example(a));
    groups.set(key, g);
  }
  return {
    since: fleet.since,
    read: fleet.actions.length,
    truncated: fleet.truncated,
    // Stricter first: what a person most needs to see before a rule set reaches every machine.
    changes: [...groups.values()].sort((x, y) => effectRank(y.to) - effectRank(x.to) || y.count - x.count),
  };
}

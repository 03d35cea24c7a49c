// Aggregates a person reads: the home page's counts (null until some machine has reported, so nothing draws a zero
// that later changes), Autonomy (the rules in force by what they do, and asks always granted that could stop), and
// one search over what the workspace holds.
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { bundleInForce } from "../store/bundle.ts";
import * as store from "../store/overview.ts";
import { rulesOf } from "./bundle.ts";

const need = (c: Call) => {
  if (!c.who) throw new HttpError(401, "unauthenticated", "this needs a token");
  return c.who;
};

/** GET /v1/summary: the last 24 hours by effect, machines, and what is owed; a count nobody earned yet is null. */
export async function summary(c: Call): Promise<Response> {
  const who = need(c);
  const ws = who.workspaceId;
  const { m, e, w } = await store.summaryCounts(c.db, ws);
  // A figure is earned once some machine has reported at all; before that it is unknown, not zero.
  const earned = Number(m?.reporting ?? 0) > 0 || e?.any === true;
  const n = (v: string | undefined) => (earned ? Number(v ?? 0) : null);
  return json({
    machines: { enrolled: Number(m?.total ?? 0), reporting: Number(m?.reporting ?? 0) },
    last24h: { actions: n(e?.actions), asked: n(e?.asked), denied: n(e?.denied) },
    owed: {
      holds: Number(w?.holds ?? 0),
      proposals: Number(w?.proposals ?? 0),
      conditions: Number(w?.conditions ?? 0),
      incidents: Number(w?.incidents ?? 0),
    },
  });
}

/** A rule in force as Autonomy lists it. */
interface RuleSummary {
  readonly name: string;
  readonly effect: string;
  readonly actions: readonly string[];
  readonly reason: string | null;
  readonly state: readonly string[];
}

interface RuleGroup {
  readonly rules: readonly RuleSummary[];
  /** What the machines reported under that effect over a week; null until anything was reported. */
  readonly last7d: number | null;
}

export interface AutonomyView {
  readonly bundle: {
    readonly hash: string;
    readonly published: { readonly at: string | null; readonly by: string } | null;
  };
  readonly proceeds: RuleGroup;
  readonly stops: RuleGroup;
  readonly refused: RuleGroup;
  readonly handOver: readonly {
    readonly ruleId: string | null;
    readonly action: string;
    readonly agent: string | null;
    readonly granted: number;
    readonly workspaceRule: boolean;
  }[];
}

function ruleOf(r: Record<string, unknown> & { name: string }): RuleSummary {
  const match = (r.match ?? {}) as { actions?: unknown; state?: unknown };
  const decision = (r.decision ?? {}) as { effect?: unknown; reason?: unknown };
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  return {
    name: r.name,
    effect: typeof decision.effect === "string" ? decision.effect : "allow",
    actions: list(match.actions),
    reason: typeof decision.reason === "string" ? decision.reason : null,
    state: list(match.state),
  };
}

/** Asks granted this often in the window, and never refused, are offered as something to stop being asked about. */
const HAND_OVER_AFTER = 3;

/** GET /v1/autonomy: what proceeds, what stops for a person, what is refused; and what could stop asking. */
export async function autonomy(c: Call): Promise<Response> {
  const who = need(c);
  const b = await bundleInForce(c.db, who.workspaceId);
  const rules = rulesOf(b.rulesText).map(ruleOf);
  const counts = await store.weekVerdicts(c.db, who.workspaceId);
  const history = await store.answeredHolds(c.db, who.workspaceId);
  const inBundle = new Set(rules.map((r) => r.name));
  const handOver = history
    .filter((h) => Number(h.granted) >= HAND_OVER_AFTER && Number(h.denied) === 0)
    .map((h) => ({
      ruleId: h.rule_id,
      action: h.action,
      agent: h.agent,
      granted: Number(h.granted),
      // Only a workspace rule can be changed from here; a machine's own rule is that machine's business.
      workspaceRule: h.rule_id !== null && inBundle.has(h.rule_id),
    }));
  const seen = (effect: string) => Number(counts.find((x) => x.effect === effect)?.n ?? 0);
  const reported = counts.length > 0;
  const view: AutonomyView = {
    bundle: { hash: b.hash, published: b.published ? { at: b.published.at, by: b.published.by } : null },
    proceeds: { rules: rules.filter((r) => r.effect === "allow"), last7d: reported ? seen("allow") : null },
    stops: { rules: rules.filter((r) => r.effect === "ask"), last7d: reported ? seen("ask") : null },
    refused: { rules: rules.filter((r) => r.effect === "deny"), last7d: reported ? seen("deny") : null },
    handOver,
  };
  return json(view);
}

/** GET /v1/search?q=: machines, agents, members and actions that match, a few of each. */
export async function search(c: Call): Promise<Response> {
  const who = need(c);
  const q = (c.url.searchParams.get("q") ?? "").trim().slice(0, 100);
  if (q === "") return json({ q, machines: [], agents: [], members: [], events: [] });
  const like = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const ws = who.workspaceId;
  const { machines, agents, members, events } = await store.search(c.db, ws, who.orgId, like);
  return json({
    q,
    machines: machines.map((m) => m.id),
    agents: agents.map((a) => a.name),
    members,
    events: events.map((e) => ({
      id: Number(e.id),
      operation: e.operation,
      ruleId: e.rule_id,
      effect: e.effect,
      machineId: e.machine_id,
    })),
  });
}

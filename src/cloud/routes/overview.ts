// Aggregates a person reads: the home page's counts (null until some machine has reported, so nothing draws a zero
// that later changes), Autonomy (the rules in force by what they do, and asks always granted that could stop), and
// one search over what the workspace holds.
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { bundleInForce } from "../store/bundle.ts";
import { rulesOf } from "./bundle.ts";

const need = (c: Call) => {
  if (!c.who) throw new HttpError(401, "unauthenticated", "this needs a token");
  return c.who;
};

/** GET /v1/summary: the last 24 hours by effect, machines, and what is owed; a count nobody earned yet is null. */
export async function summary(c: Call): Promise<Response> {
  const who = need(c);
  const ws = who.workspaceId;
  const [m]: { total: string; reporting: string }[] = await c.db`
    SELECT count(*) FILTER (WHERE revoked_at IS NULL) AS total,
           count(*) FILTER (WHERE revoked_at IS NULL AND last_seen_at IS NOT NULL) AS reporting
    FROM machines WHERE workspace_id = ${ws}`;
  const [e]: { actions: string; asked: string; denied: string; any: boolean }[] = await c.db`
    SELECT count(*) FILTER (WHERE subject_id = dedup_key) AS actions,
           count(*) FILTER (WHERE subject_id = dedup_key AND effect = 'ask') AS asked,
           count(*) FILTER (WHERE subject_id = dedup_key AND effect = 'deny') AS denied,
           EXISTS (SELECT 1 FROM events WHERE workspace_id = ${ws}) AS any
    FROM events WHERE workspace_id = ${ws} AND occurred_at > now() - interval '24 hours'`;
  const [w]: { holds: string; proposals: string; conditions: string; incidents: string }[] = await c.db`
    SELECT (SELECT count(*) FROM holds WHERE workspace_id = ${ws} AND answer IS NULL AND settled_at IS NULL
              AND expires_at > now()) AS holds,
           (SELECT count(*) FROM proposals WHERE workspace_id = ${ws} AND status IN ('pending', 'failed')) AS proposals,
           (SELECT count(*) FROM conditions WHERE workspace_id = ${ws} AND lifted_at IS NULL AND expires_at > now())
             AS conditions,
           (SELECT count(*) FROM incidents WHERE workspace_id = ${ws} AND resolved_at IS NULL) AS incidents`;
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
  const counts: { effect: string; n: string }[] = await c.db`
    SELECT effect, count(*) AS n FROM events WHERE workspace_id = ${who.workspaceId} AND subject_id = dedup_key
      AND effect IS NOT NULL AND occurred_at > now() - interval '7 days' GROUP BY effect`;
  const history: { rule_id: string | null; action: string; agent: string | null; granted: string; denied: string }[] =
    await c.db`
      SELECT rule_id, action, agent, count(*) FILTER (WHERE answer = 'grant') AS granted,
             count(*) FILTER (WHERE answer = 'deny') AS denied
      FROM holds WHERE workspace_id = ${who.workspaceId} AND answered_at > now() - interval '30 days'
      GROUP BY rule_id, action, agent`;
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
  const [machines, agents, members, events] = await Promise.all([
    c.db`SELECT id FROM machines WHERE workspace_id = ${ws} AND id ILIKE ${like} ORDER BY id LIMIT 10`,
    c.db`SELECT name FROM agents WHERE workspace_id = ${ws} AND name ILIKE ${like} ORDER BY name LIMIT 10`,
    c.db`SELECT id, email FROM members WHERE org_id = ${who.orgId} AND (email ILIKE ${like} OR display_name ILIKE ${like})
         ORDER BY email LIMIT 10`,
    c.db`SELECT id, operation, rule_id, effect, machine_id FROM events WHERE workspace_id = ${ws}
           AND (operation ILIKE ${like} OR rule_id ILIKE ${like} OR resource_ref ILIKE ${like})
         ORDER BY id DESC LIMIT 10`,
  ]);
  return json({
    q,
    machines: (machines as { id: string }[]).map((m) => m.id),
    agents: (agents as { name: string }[]).map((a) => a.name),
    members: members as { id: string; email: string }[],
    events: (
      events as { id: string; operation: string; rule_id: string | null; effect: string | null; machine_id: string }[]
    ).map((e) => ({
      id: Number(e.id),
      operation: e.operation,
      ruleId: e.rule_id,
      effect: e.effect,
      machineId: e.machine_id,
    })),
  });
}

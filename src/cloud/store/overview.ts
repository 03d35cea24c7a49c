// The figures the overview and the search read: counts over the workspace's machines, events, holds, proposals,
// conditions and incidents. Every count filters by the workspace.
import type { Db } from "./db.ts";

/** The fleet's headline counts: machines, the last day's decisions, and what waits on somebody. */
export async function summaryCounts(
  db: Db,
  ws: string,
): Promise<{
  m: { total: string; reporting: string } | undefined;
  e: { actions: string; asked: string; denied: string; any: boolean } | undefined;
  w: { holds: string; proposals: string; conditions: string; incidents: string } | undefined;
}> {
  const [m]: { total: string; reporting: string }[] = await db`
    SELECT count(*) FILTER (WHERE revoked_at IS NULL) AS total,
           count(*) FILTER (WHERE revoked_at IS NULL AND last_seen_at IS NOT NULL) AS reporting
    FROM machines WHERE workspace_id = ${ws}`;
  const [e]: { actions: string; asked: string; denied: string; any: boolean }[] = await db`
    SELECT count(*) FILTER (WHERE subject_id = dedup_key) AS actions,
           count(*) FILTER (WHERE subject_id = dedup_key AND effect = 'ask') AS asked,
           count(*) FILTER (WHERE subject_id = dedup_key AND effect = 'deny') AS denied,
           EXISTS (SELECT 1 FROM events WHERE workspace_id = ${ws}) AS any
    FROM events WHERE workspace_id = ${ws} AND occurred_at > now() - interval '24 hours'`;
  const [w]: { holds: string; proposals: string; conditions: string; incidents: string }[] = await db`
    SELECT (SELECT count(*) FROM holds WHERE workspace_id = ${ws} AND answer IS NULL AND settled_at IS NULL
              AND expires_at > now()) AS holds,
           (SELECT count(*) FROM proposals WHERE workspace_id = ${ws} AND status IN ('pending', 'failed')) AS proposals,
           (SELECT count(*) FROM conditions WHERE workspace_id = ${ws} AND lifted_at IS NULL AND expires_at > now())
             AS conditions,
           (SELECT count(*) FROM incidents WHERE workspace_id = ${ws} AND resolved_at IS NULL) AS incidents`;
  return { m, e, w };
}

/** The last week's decisions counted by verdict. */
export async function weekVerdicts(db: Db, workspaceId: string): Promise<{ effect: string; n: string }[]> {
  return db`
    SELECT effect, count(*) AS n FROM events WHERE workspace_id = ${workspaceId} AND subject_id = dedup_key
      AND effect IS NOT NULL AND occurred_at > now() - interval '7 days' GROUP BY effect`;
}

/** The last month's answered holds, granted and denied, by rule, action and agent. */
export async function answeredHolds(
  db: Db,
  workspaceId: string,
): Promise<{ rule_id: string | null; action: string; agent: string | null; granted: string; denied: string }[]> {
  return db`
      SELECT rule_id, action, agent, count(*) FILTER (WHERE answer = 'grant') AS granted,
             count(*) FILTER (WHERE answer = 'deny') AS denied
      FROM holds WHERE workspace_id = ${workspaceId} AND answered_at > now() - interval '30 days'
      GROUP BY rule_id, action, agent`;
}

/** Machines, agents, members and events matching a LIKE pattern, ten of each, read side by side. */
export async function search(
  db: Db,
  ws: string,
  orgId: string,
  like: string,
): Promise<{
  machines: { id: string }[];
  agents: { name: string }[];
  members: { id: string; email: string }[];
  events: { id: string; operation: string; rule_id: string | null; effect: string | null; machine_id: string }[];
}> {
  const [machines, agents, members, events] = await Promise.all([
    db`SELECT id FROM machines WHERE workspace_id = ${ws} AND id ILIKE ${like} ORDER BY id LIMIT 10`,
    db`SELECT name FROM agents WHERE workspace_id = ${ws} AND name ILIKE ${like} ORDER BY name LIMIT 10`,
    db`SELECT id, email FROM members WHERE org_id = ${orgId} AND (email ILIKE ${like} OR display_name ILIKE ${like})
         ORDER BY email LIMIT 10`,
    db`SELECT id, operation, rule_id, effect, machine_id FROM events WHERE workspace_id = ${ws}
           AND (operation ILIKE ${like} OR rule_id ILIKE ${like} OR resource_ref ILIKE ${like})
         ORDER BY id DESC LIMIT 10`,
  ]);
  return {
    machines: machines as { id: string }[],
    agents: agents as { name: string }[],
    members: members as { id: string; email: string }[],
    events: events as {
      id: string;
      operation: string;
      rule_id: string | null;
      effect: string | null;
      machine_id: string;
    }[],
  };
}

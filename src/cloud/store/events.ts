// The actions machines report: stored once per (machine, dedupKey), read back by cursor, traced, and explained.
// Every read of a tenant's rows filters by its workspace.
import type { Db } from "./db.ts";

/** An event as stored when it first arrived: what a sink is told about. */
export interface CaughtRow {
  readonly id: string;
  readonly occurred_at: Date;
  readonly machine_id: string;
  readonly agent: string | null;
  readonly surface: string;
  readonly operation: string;
  readonly effect: string | null;
  readonly reason: string | null;
  readonly rule_id: string | null;
  readonly resource_ref: string | null;
}

export interface EventRow {
  id: string;
  machine_id: string;
  dedup_key: string;
  subject_id: string;
  occurred_at: Date;
  agent_session_id: string | null;
  agent: string | null;
  surface: string;
  operation: string;
  classes: string[];
  effect: string | null;
  reason: string | null;
  rule_id: string | null;
  resource_ref: string | null;
  args_digest: string | null;
  exit_code: number | null;
  started_at: Date | null;
  policy_hash: string | null;
  correlation_id: string | null;
  would_reach: string | null;
  received_at: Date;
}

/** The key a machine enrolled with, which its batches must be signed by. */
export async function machineKey(db: Db, machineId: string): Promise<{ public_key: string } | undefined> {
  const [m]: { public_key: string }[] = await db`SELECT public_key FROM machines WHERE id = ${machineId}`;
  return m;
}

/** Rows of a batch refused, counted where the console shows the machine, with the last one's field and message. */
export async function countRefused(
  db: Db,
  machineId: string,
  n: number,
  last: { readonly field: unknown; readonly message: unknown; readonly dedupKey: unknown },
): Promise<void> {
  await db`UPDATE machines SET refused_events = refused_events + ${n},
                 last_refusal = ${last},
                 last_refusal_at = now() WHERE id = ${machineId}`;
}

/** A batch's rows, each column named; a resend of a (machine, dedupKey) is skipped, so only the new rows come back. */
export async function insertEvents(db: Db, rows: readonly Record<string, unknown>[]): Promise<CaughtRow[]> {
  return db`
    INSERT INTO events ${db(rows)} ON CONFLICT (machine_id, dedup_key) DO NOTHING
    RETURNING id, occurred_at, machine_id, agent, surface, operation, effect, reason, rule_id, resource_ref`;
}

interface EventFilter {
  readonly desc: boolean;
  readonly after: number;
  readonly before: number;
  readonly limit: number;
  readonly machine: string | null;
  readonly agent: string | null;
  readonly effect: string | null;
  readonly rule: string | null;
  readonly session: string | null;
}

/** A page of the workspace's events: oldest first after a cursor, or newest first before one. */
export async function listEvents(db: Db, workspaceId: string, f: EventFilter): Promise<EventRow[]> {
  const only = (v: string | null, fragment: (v: string) => unknown): unknown => (v ? fragment(v) : db``);
  return db`
    SELECT * FROM events WHERE workspace_id = ${workspaceId}
      ${f.desc ? (f.before > 0 ? db`AND id < ${f.before}` : db``) : db`AND id > ${f.after}`}
      ${only(f.machine, (v) => db`AND machine_id = ${v}`)} ${only(f.agent, (v) => db`AND agent = ${v}`)}
      ${only(f.effect, (v) => db`AND effect = ${v}`)} ${only(f.rule, (v) => db`AND rule_id = ${v}`)}
      ${only(f.session, (v) => db`AND agent_session_id = ${v}`)}
    ORDER BY id ${f.desc ? db`DESC` : db`ASC`} LIMIT ${f.limit}`;
}

/** One event of the workspace. */
export async function eventById(db: Db, workspaceId: string, id: number): Promise<EventRow | undefined> {
  const [e]: EventRow[] = await db`SELECT * FROM events WHERE id = ${id} AND workspace_id = ${workspaceId}`;
  return e;
}

/** The decision an outcome is about: the row of the same machine whose dedupKey it names as its subject. */
export async function eventsWithKey(
  db: Db,
  workspaceId: string,
  machineId: string,
  dedupKey: string,
): Promise<EventRow[]> {
  return db`SELECT * FROM events WHERE workspace_id = ${workspaceId} AND machine_id = ${machineId}
                     AND dedup_key = ${dedupKey}`;
}

/** The rows that name a decision as their subject, in order, at most `limit`. */
export async function eventsAbout(
  db: Db,
  workspaceId: string,
  root: { readonly machineId: string; readonly dedupKey: string; readonly id: string },
  limit: number,
): Promise<EventRow[]> {
  return db`
    SELECT * FROM events WHERE workspace_id = ${workspaceId} AND machine_id = ${root.machineId}
      AND subject_id = ${root.dedupKey} AND id <> ${root.id} ORDER BY id LIMIT ${limit}`;
}

export interface ServerReach {
  name: string;
  machine_id: string;
  proxied: boolean;
  agents: string[];
  write_tools: number | null;
}

/** Where an MCP server of this name (any case) is launched, and by which agents. */
export async function serverPlaces(db: Db, workspaceId: string, lowerName: string): Promise<ServerReach[]> {
  return db`SELECT name, machine_id, proxied, agents, write_tools FROM mcp_server_machines
               WHERE workspace_id = ${workspaceId} AND lower(name) = ${lowerName} ORDER BY machine_id`;
}

/** Actions whose target or operation mentions a name, counted by agent, machine and operation. */
export async function actionsMentioning(
  db: Db,
  workspaceId: string,
  lowerName: string,
): Promise<{ agent: string | null; machine_id: string; operation: string; n: string }[]> {
  return db`
    SELECT agent, machine_id, operation, count(*) AS n FROM events
    WHERE workspace_id = ${workspaceId} AND position(${lowerName} IN lower(coalesce(resource_ref, '') || ' ' || operation)) > 0
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 LIMIT 200`;
}

export interface VerdictRow {
  id: string;
  operation: string;
  effect: string | null;
  reason: string | null;
  rule_id: string | null;
  policy_hash: string | null;
  occurred_at: Date;
  machine_id: string;
  agent: string | null;
}

/** What an event says of its verdict: the rule, the rule set, when and where. */
export async function verdictOf(db: Db, workspaceId: string, id: number): Promise<VerdictRow | undefined> {
  const [e]: VerdictRow[] =
    await db`SELECT id, operation, effect, reason, rule_id, policy_hash, occurred_at, machine_id, agent
                   FROM events WHERE workspace_id = ${workspaceId} AND id = ${id}`;
  return e;
}

/** The conditions in force at an instant (set before it, not yet expired or lifted then). */
export async function conditionsAt(
  db: Db,
  workspaceId: string,
  at: Date,
): Promise<{ kind: string; subject: string; set_by: string }[]> {
  return db`
    SELECT kind, subject, set_by FROM conditions WHERE workspace_id = ${workspaceId}
      AND set_at <= ${at} AND expires_at > ${at}
      AND (lifted_at IS NULL OR lifted_at > ${at}) ORDER BY set_at`;
}

export interface Pending {
  id: string;
  machine_id: string;
  agent: string | null;
  agent_session_id: string | null;
  effect: string | null;
  correlation_id: string | null;
  occurred_at: Date;
}

/** The workspace's rows no detector has looked at, oldest first, locked (rows another pass holds are skipped). */
export async function undetected(tx: Db, workspaceId: string, limit: number): Promise<Pending[]> {
  return tx`
      SELECT id, machine_id, agent, agent_session_id, effect, correlation_id, occurred_at FROM events
      WHERE workspace_id = ${workspaceId} AND NOT detected ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
}

/** The workspace's incidents citing any of these actions. */
export async function incidentsCiting(
  tx: Db,
  workspaceId: string,
  ids: readonly number[],
): Promise<{ id: string; title: string; agent: string | null; agents: string[]; evidence: string[] }[]> {
  return tx`SELECT id, title, agent, agents, evidence FROM incidents
               WHERE workspace_id = ${workspaceId} AND evidence && ${ids}::bigint[]`;
}

/** Rows the detectors have looked at. */
export async function markDetected(tx: Db, ids: readonly number[]): Promise<void> {
  await tx`UPDATE events SET detected = true WHERE id IN ${tx(ids)}`;
}

/** Every workspace with rows no detector has looked at. */
export async function workspacesUndetected(db: Db): Promise<{ workspace_id: string }[]> {
  return db`
      SELECT DISTINCT workspace_id FROM events WHERE NOT detected`;
}

export interface RecentRow {
  id: string;
  machine_id: string;
  agent: string | null;
  operation: string;
  classes: string[];
  resource_ref: string | null;
  effect: string | null;
  occurred_at: Date;
}

/** The workspace's decisions since an instant (outcomes are the same action again), newest first, at most `limit`. */
export async function recentDecisions(db: Db, workspaceId: string, since: Date, limit: number): Promise<RecentRow[]> {
  return db`
    SELECT id, machine_id, agent, operation, classes, resource_ref, effect, occurred_at FROM events
    WHERE workspace_id = ${workspaceId} AND occurred_at > ${since} AND subject_id = dedup_key
    ORDER BY occurred_at DESC LIMIT ${limit}`;
}

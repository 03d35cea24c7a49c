// The agents the machines report: who answers for each (named by an admin, else the owners of the machines it runs on,
// and said so), who it acts for, its state (live, halted and why, revoked), and stopping one on every machine: a
// halt a reviewer can lift, a revocation that is the end of it. Both reach every machine in the bundle's facts.
import { actorName } from "../auth.ts";
import { type Call, json, str } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { iso } from "../iso.ts";
import { audit } from "../store/people.ts";

interface AgentRow {
  name: string;
  kind: string | null;
  first_seen_at: Date;
  last_seen_at: Date;
  owners: string[] | null;
  owners_set_by: string | null;
  owners_set_at: Date | null;
  principal: string | null;
  halted_at: Date | null;
  halted_by: string | null;
  halt_reason: string | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  machines: string[] | null;
  machine_owners: string[] | null;
  actions: string;
  frozen_until: Date | null;
  frozen_by: string | null;
  frozen_reason: string | null;
  grants_live: string;
  grants_lapsed: string;
}

type AgentState = "live" | "lapsed" | "halted" | "revoked";

function view(a: AgentRow) {
  // An agent whose every grant ran out is lapsed: its temporary authority expired, and the list says so.
  const lapsed = Number(a.grants_live) === 0 && Number(a.grants_lapsed) > 0;
  const state: AgentState = a.revoked_at ? "revoked" : a.halted_at ? "halted" : lapsed ? "lapsed" : "live";
  const fromMachines = (a.machine_owners ?? []).filter((o) => o !== null);
  return {
    name: a.name,
    kind: a.kind,
    state,
    firstSeenAt: iso(a.first_seen_at),
    lastSeenAt: iso(a.last_seen_at),
    // Until an admin names them, whoever owns the machines it runs on answers for it, and the listing says so.
    owners: a.owners ?? [...new Set(fromMachines)],
    ownersFrom: a.owners ? "named" : "machines",
    ownersSetBy: a.owners_set_by,
    principal: a.principal,
    halt: a.halted_at ? { at: iso(a.halted_at), by: a.halted_by, reason: a.halt_reason } : null,
    revoked: a.revoked_at ? { at: iso(a.revoked_at), by: a.revoked_by } : null,
    frozen: a.frozen_until ? { until: iso(a.frozen_until), by: a.frozen_by, reason: a.frozen_reason } : null,
    machines: a.machines ?? [],
    actions: Number(a.actions),
  };
}

export type AgentView = ReturnType<typeof view>;

async function agents(c: Call, workspaceId: string, name?: string): Promise<AgentRow[]> {
  return c.db`
    SELECT a.*,
      (SELECT array_agg(am.machine_id ORDER BY am.machine_id) FROM agent_machines am
         WHERE am.workspace_id = a.workspace_id AND am.name = a.name) AS machines,
      (SELECT array_agg(DISTINCT p.email) FROM agent_machines am JOIN machines x ON x.id = am.machine_id
         JOIN members p ON p.id = x.owner_id WHERE am.workspace_id = a.workspace_id AND am.name = a.name) AS machine_owners,
      (SELECT count(*) FROM events e WHERE e.workspace_id = a.workspace_id AND e.agent = a.name) AS actions,
      (SELECT count(*) FROM agent_grants g WHERE g.workspace_id = a.workspace_id AND g.name = a.name
         AND g.revoked_at IS NULL AND (g.expires_at IS NULL OR g.expires_at > now())) AS grants_live,
      (SELECT count(*) FROM agent_grants g WHERE g.workspace_id = a.workspace_id AND g.name = a.name
         AND g.revoked_at IS NULL AND g.expires_at <= now()) AS grants_lapsed,
      f.expires_at AS frozen_until, f.set_by AS frozen_by, f.reason AS frozen_reason
    FROM agents a
    LEFT JOIN LATERAL (SELECT expires_at, set_by, reason FROM conditions
                       WHERE workspace_id = a.workspace_id AND kind = 'freeze-agent' AND subject = a.name
                         AND lifted_at IS NULL AND expires_at > now() ORDER BY expires_at DESC LIMIT 1) f ON true
    WHERE a.workspace_id = ${workspaceId} ${name === undefined ? c.db`` : c.db`AND a.name = ${name}`}
    ORDER BY a.revoked_at IS NOT NULL, a.name`;
}

/** GET /v1/agents: every agent, halted and lapsed ones too (an agent that quietly stopped is what this view is for). */
export async function listAgents(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  return json({ agents: (await agents(c, who.workspaceId)).map(view) });
}

export async function showAgent(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const [a] = await agents(c, who.workspaceId, c.params.name ?? "");
  if (!a) throw new HttpError(404, "not_found", `no agent \`${c.params.name ?? ""}\` in this workspace`);
  return json(view(a));
}

async function change(
  c: Call,
  action: string,
  update: (name: string, by: string) => Promise<unknown[]>,
  detail: Record<string, unknown> = {},
): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine does not stop agents");
  const name = c.params.name ?? "";
  const by = actorName(who);
  const rows = await update(name, by);
  if (rows.length === 0) throw new HttpError(404, "not_found", `no agent \`${name}\` to change that way here`);
  await audit(c.db, { orgId: who.orgId, actor: by, action, subject: name, detail });
  const [a] = await agents(c, who.workspaceId, name);
  if (!a) throw new HttpError(404, "not_found", `no agent \`${name}\``);
  return json(view(a));
}

/** POST /v1/agents/:name/halt {reason}: a reviewer stops it on every machine until somebody lifts it. */
export function haltAgent(c: Call, body: Record<string, unknown>): Promise<Response> {
  const reason = str(body, "reason");
  const ws = c.who?.workspaceId ?? "";
  return change(
    c,
    "agent.halt",
    (name, by) => c.db`UPDATE agents SET halted_at = now(), halted_by = ${by}, halt_reason = ${reason}
                       WHERE workspace_id = ${ws} AND name = ${name} AND halted_at IS NULL AND revoked_at IS NULL
                       RETURNING name`,
    { reason },
  );
}

/** POST /v1/agents/:name/lift: ends a halt; the reason it was halted for stays in the audit trail. */
export function liftAgent(c: Call): Promise<Response> {
  const ws = c.who?.workspaceId ?? "";
  return change(
    c,
    "agent.lift",
    (name) => c.db`UPDATE agents SET halted_at = NULL, halted_by = NULL, halt_reason = NULL
                   WHERE workspace_id = ${ws} AND name = ${name} AND halted_at IS NOT NULL AND revoked_at IS NULL
                   RETURNING name`,
  );
}

/** POST /v1/agents/:name/revoke: the end of this agent, on every machine; its record stays. */
export function revokeAgent(c: Call): Promise<Response> {
  const ws = c.who?.workspaceId ?? "";
  return change(
    c,
    "agent.revoke",
    (name, by) => c.db`UPDATE agents SET revoked_at = now(), revoked_by = ${by}
                       WHERE workspace_id = ${ws} AND name = ${name} AND revoked_at IS NULL RETURNING name`,
  );
}

/** PATCH /v1/agents/:name {owners?, principal?}: owners are active members; who named them and when is kept. */
export async function changeAgent(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const owners = body.owners;
  if (owners !== undefined && (!Array.isArray(owners) || owners.some((o) => typeof o !== "string")))
    throw new HttpError(400, "bad_request", "`owners` is a list of members' emails");
  const emails = ((owners as string[] | undefined) ?? []).map((o) => o.trim().toLowerCase()).filter(Boolean);
  if (owners !== undefined && emails.length > 0) {
    const found: { email: string }[] = await c.db`
      SELECT email FROM members WHERE org_id = ${who.orgId} AND status = 'active' AND email IN ${c.db(emails)}`;
    const missing = emails.filter((e) => !found.some((f) => f.email === e));
    if (missing.length > 0)
      throw new HttpError(400, "bad_request", `an owner is an active member of the team; \`${missing[0]}\` is not`);
  }
  const principal = body.principal === undefined ? undefined : body.principal === null ? null : str(body, "principal");
  const ws = who.workspaceId;
  return change(
    c,
    "agent.change",
    (name, by) => c.db`UPDATE agents SET
        owners = ${owners === undefined ? c.db`owners` : emails.length > 0 ? emails : null},
        owners_set_by = ${owners === undefined ? c.db`owners_set_by` : by},
        owners_set_at = ${owners === undefined ? c.db`owners_set_at` : c.db`now()`},
        principal = ${principal === undefined ? c.db`principal` : principal}
      WHERE workspace_id = ${ws} AND name = ${name} RETURNING name`,
    { ...(owners !== undefined ? { owners: emails } : {}), ...(principal !== undefined ? { principal } : {}) },
  );
}

// The agents the machines report: who answers for each (named by an admin, else the owners of the machines it runs on,
// and said so), who it acts for, its state (live, halted and why, revoked), and stopping one on every machine: a
// halt a reviewer can lift, a revocation that is the end of it. Both reach every machine in the bundle's facts.
import { actorName } from "../auth.ts";
import { type Call, json, str } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { iso } from "../iso.ts";
import type { AgentRow } from "../store/agents.ts";
import * as store from "../store/agents.ts";
import { audit } from "../store/people.ts";

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
  return store.agents(c.db, workspaceId, name);
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
  return change(c, "agent.halt", (name, by) => store.halt(c.db, ws, name, by, reason), { reason });
}

/** POST /v1/agents/:name/lift: ends a halt; the reason it was halted for stays in the audit trail. */
export function liftAgent(c: Call): Promise<Response> {
  const ws = c.who?.workspaceId ?? "";
  return change(c, "agent.lift", (name) => store.lift(c.db, ws, name));
}

/** POST /v1/agents/:name/revoke: the end of this agent, on every machine; its record stays. */
export function revokeAgent(c: Call): Promise<Response> {
  const ws = c.who?.workspaceId ?? "";
  return change(c, "agent.revoke", (name, by) => store.revoke(c.db, ws, name, by));
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
    const found = await store.activeEmails(c.db, who.orgId, emails);
    const missing = emails.filter((e) => !found.some((f) => f.email === e));
    if (missing.length > 0)
      throw new HttpError(400, "bad_request", `an owner is an active member of the team; \`${missing[0]}\` is not`);
  }
  const principal = body.principal === undefined ? undefined : body.principal === null ? null : str(body, "principal");
  const ws = who.workspaceId;
  return change(
    c,
    "agent.change",
    (name, by) =>
      store.setOwnersPrincipal(c.db, ws, name, by, {
        owners: owners === undefined ? undefined : emails.length > 0 ? emails : null,
        principal,
      }),
    { ...(owners !== undefined ? { owners: emails } : {}), ...(principal !== undefined ? { principal } : {}) },
  );
}

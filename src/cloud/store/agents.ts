// The agents machines report, as stored: read with what the fleet says of them, halted, lifted, revoked, and given
// owners and a principal. Every statement filters by the workspace.
import type { Db } from "./db.ts";

export interface AgentRow {
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

/** The workspace's agents (or one by name), with their machines, owners, actions, grants and any freeze in force. */
export async function agents(db: Db, workspaceId: string, name?: string): Promise<AgentRow[]> {
  return db`
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
    WHERE a.workspace_id = ${workspaceId} ${name === undefined ? db`` : db`AND a.name = ${name}`}
    ORDER BY a.revoked_at IS NOT NULL, a.name`;
}

/** A live agent halted on every machine; no row when it was already halted or revoked. */
export async function halt(db: Db, workspaceId: string, name: string, by: string, reason: string): Promise<unknown[]> {
  return db`UPDATE agents SET halted_at = now(), halted_by = ${by}, halt_reason = ${reason}
                       WHERE workspace_id = ${workspaceId} AND name = ${name} AND halted_at IS NULL AND revoked_at IS NULL
                       RETURNING name`;
}

/** A halt ended; no row when the agent was not halted, or is revoked. */
export async function lift(db: Db, workspaceId: string, name: string): Promise<unknown[]> {
  return db`UPDATE agents SET halted_at = NULL, halted_by = NULL, halt_reason = NULL
                   WHERE workspace_id = ${workspaceId} AND name = ${name} AND halted_at IS NOT NULL AND revoked_at IS NULL
                   RETURNING name`;
}

/** The end of an agent on every machine; its record stays. */
export async function revoke(db: Db, workspaceId: string, name: string, by: string): Promise<unknown[]> {
  return db`UPDATE agents SET revoked_at = now(), revoked_by = ${by}
                       WHERE workspace_id = ${workspaceId} AND name = ${name} AND revoked_at IS NULL RETURNING name`;
}

/** Which of these addresses belong to active members of the organization. */
export async function activeEmails(db: Db, orgId: string, emails: readonly string[]): Promise<{ email: string }[]> {
  return db`
      SELECT email FROM members WHERE org_id = ${orgId} AND status = 'active' AND email IN ${db(emails)}`;
}

/**
 * An agent's owners (null: back to its machines' owners) and principal; `undefined` leaves a column as it is, and
 * naming owners records who named them and when.
 */
export async function setOwnersPrincipal(
  db: Db,
  workspaceId: string,
  name: string,
  by: string,
  set: { readonly owners: string[] | null | undefined; readonly principal: string | null | undefined },
): Promise<unknown[]> {
  return db`UPDATE agents SET
        owners = ${set.owners === undefined ? db`owners` : set.owners},
        owners_set_by = ${set.owners === undefined ? db`owners_set_by` : by},
        owners_set_at = ${set.owners === undefined ? db`owners_set_at` : db`now()`},
        principal = ${set.principal === undefined ? db`principal` : set.principal}
      WHERE workspace_id = ${workspaceId} AND name = ${name} RETURNING name`;
}

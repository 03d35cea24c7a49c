// Grants that let an agent act for a member, as stored: listed, given (enrolling the agent), revoked, found by the
// agent's own credential, and the spend it reports. Every read by name filters by the workspace.
import type { Db } from "./db.ts";

export interface GrantRow {
  id: string;
  name: string;
  role: string | null;
  actions: string[];
  principal: string;
  spend_limit: string | null;
  currency: string | null;
  expires_at: Date | null;
  created_by: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** An agent's grants with its principal's address, newest first. */
export async function grants(db: Db, workspaceId: string, name: string): Promise<GrantRow[]> {
  return db`
    SELECT g.*, m.email AS principal FROM agent_grants g JOIN members m ON m.id = g.principal_member_id
    WHERE g.workspace_id = ${workspaceId} AND g.name = ${name} ORDER BY g.created_at DESC`;
}

/** The active member of the organization holding this address (lowercased by the caller). */
export async function activeMemberByEmail(
  tx: Db,
  orgId: string,
  email: string,
): Promise<{ id: string; email: string } | undefined> {
  const [p]: { id: string; email: string }[] = await tx`
      SELECT id, email FROM members WHERE org_id = ${orgId} AND lower(email) = ${email}
        AND status = 'active'`;
  return p;
}

/** The agent enrolled (or found) acting for this principal; its revocation, if it was revoked. */
export async function enrolAgentFor(
  tx: Db,
  workspaceId: string,
  name: string,
  principal: string,
): Promise<{ revoked_at: Date | null } | undefined> {
  const [a]: { revoked_at: Date | null }[] = await tx`
      INSERT INTO agents (workspace_id, name, principal) VALUES (${workspaceId}, ${name}, ${principal})
      ON CONFLICT (workspace_id, name) DO UPDATE SET principal = EXCLUDED.principal RETURNING revoked_at`;
  return a;
}

interface NewGrant {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly role: string | null;
  readonly actions: readonly string[];
  readonly principalMemberId: string;
  readonly spendLimit: number | null;
  readonly currency: string | undefined;
  readonly expires: Date | null;
  readonly credentialHash: string;
  readonly by: string;
}

/** A grant given; only its credential's hash is kept. */
export async function insertGrant(tx: Db, g: NewGrant): Promise<void> {
  await tx`INSERT INTO agent_grants (id, workspace_id, name, role, actions, principal_member_id, spend_limit, currency,
                                       expires_at, credential_hash, created_by)
             VALUES (${g.id}, ${g.workspaceId}, ${g.name}, ${g.role}, ${g.actions}, ${g.principalMemberId},
                     ${g.spendLimit}, ${g.currency}, ${g.expires}, ${g.credentialHash}, ${g.by})`;
}

/** A grant still in force revoked. */
export async function revokeGrant(
  db: Db,
  workspaceId: string,
  name: string,
  id: string,
  by: string,
): Promise<{ id: string } | undefined> {
  const [g]: { id: string }[] = await db`
    UPDATE agent_grants SET revoked_at = now(), revoked_by = ${by}
    WHERE workspace_id = ${workspaceId} AND name = ${name} AND id = ${id}
      AND revoked_at IS NULL RETURNING id`;
  return g;
}

export type CredentialGrant = GrantRow & {
  workspace_id: string;
  org_id: string;
  agent_revoked: Date | null;
  halted: Date | null;
};

/** The grant an agent's credential (by hash) belongs to, with its workspace's organization and its agent's state. */
export async function grantByCredential(db: Db, credentialHash: string): Promise<CredentialGrant | undefined> {
  const [g]: CredentialGrant[] = await db`
    SELECT g.*, w.org_id, a.revoked_at AS agent_revoked, a.halted_at AS halted, '' AS principal
    FROM agent_grants g JOIN workspaces w ON w.id = g.workspace_id
    JOIN agents a ON a.workspace_id = g.workspace_id AND a.name = g.name
    WHERE g.credential_hash = ${credentialHash}`;
  return g;
}

/** A spend an agent reported, and whether it was over its ceiling. */
export async function recordSpend(
  db: Db,
  s: {
    readonly workspaceId: string;
    readonly name: string;
    readonly grantId: string;
    readonly amount: number;
    readonly currency: string;
    readonly action: string;
    readonly over: boolean;
  },
): Promise<void> {
  await db`INSERT INTO agent_spend (workspace_id, name, grant_id, amount, currency, action, over_limit)
             VALUES (${s.workspaceId}, ${s.name}, ${s.grantId}, ${s.amount}, ${s.currency}, ${s.action}, ${s.over})`;
}

/** What each agent reported spending, by currency. */
export async function spendByAgent(
  db: Db,
  workspaceId: string,
): Promise<{ name: string; currency: string | null; total: string | null; reports: string }[]> {
  return db`
    SELECT a.name, s.currency, sum(s.amount) AS total, count(s.id) AS reports
    FROM agents a LEFT JOIN agent_spend s ON s.workspace_id = a.workspace_id AND s.name = a.name
    WHERE a.workspace_id = ${workspaceId} GROUP BY a.name, s.currency ORDER BY a.name`;
}

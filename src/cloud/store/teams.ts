// Teams of a workspace and who is on them, and each member's grant on the workspace, as stored. Every read filters
// by the workspace (members by its organization).
import type { Role } from "../roles.ts";
import type { Db } from "./db.ts";

/** The workspace's teams by name. */
export async function teams(
  db: Db,
  workspaceId: string,
): Promise<{ id: string; name: string; role: Role; created_by: string }[]> {
  return db`
    SELECT id, name, role, created_by FROM teams WHERE workspace_id = ${workspaceId} ORDER BY name`;
}

/** Who is on each of the workspace's teams. */
export async function teamMembers(
  db: Db,
  workspaceId: string,
): Promise<{ team_id: string; member_id: string; email: string; added_by: string }[]> {
  return db`
    SELECT t.team_id, t.member_id, m.email, t.added_by FROM team_members t JOIN members m ON m.id = t.member_id
    JOIN teams x ON x.id = t.team_id WHERE x.workspace_id = ${workspaceId} ORDER BY m.email`;
}

export interface GrantRow {
  id: string;
  email: string;
  role: Role;
  status: string;
  workspace_id: string;
  workspace: string;
  pending: string | null;
  teams: string[];
}

/** Each member not removed with their role on the workspace, the raise waiting, and their teams there. */
export async function workspaceGrants(db: Db, workspaceId: string): Promise<GrantRow[]> {
  return db`
    SELECT m.id, m.email, m.role, m.status, w.id AS workspace_id, w.name AS workspace,
           (SELECT e.to_role FROM elevations e WHERE e.member_id = m.id AND e.status = 'pending' LIMIT 1) AS pending,
           ARRAY(SELECT t.name FROM team_members x JOIN teams t ON t.id = x.team_id
                 WHERE x.member_id = m.id AND t.workspace_id = w.id ORDER BY t.name) AS teams
    FROM members m JOIN workspaces w ON w.org_id = m.org_id
    WHERE w.id = ${workspaceId} AND m.status <> 'removed' ORDER BY m.email`;
}

/** A team made, unless one of that name exists in the workspace (then nothing comes back). */
export async function insertTeam(
  db: Db,
  t: {
    readonly id: string;
    readonly workspaceId: string;
    readonly name: string;
    readonly role: Role;
    readonly by: string;
  },
): Promise<{ created_at: Date } | undefined> {
  const [made]: { created_at: Date }[] = await db`
    INSERT INTO teams (id, workspace_id, name, role, created_by) VALUES (${t.id}, ${t.workspaceId}, ${t.name}, ${t.role}, ${t.by})
    ON CONFLICT (workspace_id, name) DO NOTHING RETURNING created_at`;
  return made;
}

/** One team of the workspace. */
export async function teamById(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<{ id: string; name: string; role: Role } | undefined> {
  const [t]: { id: string; name: string; role: Role }[] = await db`
    SELECT id, name, role FROM teams WHERE id = ${id} AND workspace_id = ${workspaceId}`;
  return t;
}

/** The active member of the organization holding this address (lowercased by the caller). */
export async function activeMemberRole(
  db: Db,
  orgId: string,
  email: string,
): Promise<{ id: string; role: Role } | undefined> {
  const [m]: { id: string; role: Role }[] = await db`
    SELECT id, role FROM members WHERE org_id = ${orgId} AND lower(email) = ${email}
      AND status = 'active'`;
  return m;
}

/** A member put on a team (once). */
export async function addToTeam(db: Db, teamId: string, memberId: string, by: string): Promise<void> {
  await db`INSERT INTO team_members (team_id, member_id, added_by) VALUES (${teamId}, ${memberId}, ${by})
             ON CONFLICT DO NOTHING`;
}

/** A member taken off a team; a row per membership removed. */
export async function removeFromTeam(db: Db, teamId: string, memberId: string): Promise<unknown[]> {
  return db`DELETE FROM team_members WHERE team_id = ${teamId} AND member_id = ${memberId} RETURNING 1`;
}

/** A member's role (the grant a team gave stays). */
export async function memberRole(db: Db, memberId: string): Promise<{ role: Role } | undefined> {
  const [m]: { role: Role }[] = await db`SELECT role FROM members WHERE id = ${memberId}`;
  return m;
}

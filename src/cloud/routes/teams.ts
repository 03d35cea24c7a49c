// Teams and workspace grants. A grant names a workspace and the role held in it; with one workspace per organization
// that is the member's own role, so a grant is changed where a role is (PATCH /v1/members/:id), and a raise that
// approves waits on a second admin there too. A team is a named group inside the workspace with a role: putting
// somebody on it grants them the workspace at that role through the very same change (never lowering one they hold);
// taking them off leaves their grant as it is, since they may hold it from another team or an admin directly (spec 31).
import type * as v from "valibot";
import { actorName } from "../auth.ts";
import { type Call, json, type Route } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { newId } from "../ids.ts";
import { iso } from "../iso.ts";
import type { Principal } from "../roles.ts";
import { ROLES, type Role } from "../roles.ts";
import { audit } from "../store/people.ts";
import type { TeamBody, TeamMemberBody } from "./bodies.ts";
import { callRoute, routeOf } from "./in-process.ts";

function caller(c: Call): Principal {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  return who;
}

export interface TeamView {
  readonly id: string;
  readonly name: string;
  readonly role: Role;
  readonly createdBy: string;
  readonly members: readonly { readonly id: string; readonly email: string; readonly addedBy: string }[];
}

/** GET /v1/teams: every team of the workspace with who is on it. */
export async function listTeams(c: Call): Promise<Response> {
  const who = caller(c);
  const teams: { id: string; name: string; role: Role; created_by: string }[] = await c.db`
    SELECT id, name, role, created_by FROM teams WHERE workspace_id = ${who.workspaceId} ORDER BY name`;
  const on: { team_id: string; member_id: string; email: string; added_by: string }[] = await c.db`
    SELECT t.team_id, t.member_id, m.email, t.added_by FROM team_members t JOIN members m ON m.id = t.member_id
    JOIN teams x ON x.id = t.team_id WHERE x.workspace_id = ${who.workspaceId} ORDER BY m.email`;
  return json({
    teams: teams.map(
      (t): TeamView => ({
        id: t.id,
        name: t.name,
        role: t.role,
        createdBy: t.created_by,
        members: on
          .filter((x) => x.team_id === t.id)
          .map((x) => ({ id: x.member_id, email: x.email, addedBy: x.added_by })),
      }),
    ),
  });
}

/** GET /v1/grants: each member's grant, a workspace and the role in it, the raise waiting on it, and their teams. */
export async function listWorkspaceGrants(c: Call): Promise<Response> {
  const who = caller(c);
  const rows: {
    id: string;
    email: string;
    role: Role;
    status: string;
    workspace_id: string;
    workspace: string;
    pending: string | null;
    teams: string[];
  }[] = await c.db`
    SELECT m.id, m.email, m.role, m.status, w.id AS workspace_id, w.name AS workspace,
           (SELECT e.to_role FROM elevations e WHERE e.member_id = m.id AND e.status = 'pending' LIMIT 1) AS pending,
           ARRAY(SELECT t.name FROM team_members x JOIN teams t ON t.id = x.team_id
                 WHERE x.member_id = m.id AND t.workspace_id = w.id ORDER BY t.name) AS teams
    FROM members m JOIN workspaces w ON w.org_id = m.org_id
    WHERE w.id = ${who.workspaceId} AND m.status <> 'removed' ORDER BY m.email`;
  return json({
    grants: rows.map((r) => ({
      member: { id: r.id, email: r.email, status: r.status },
      workspace: { id: r.workspace_id, name: r.workspace },
      role: r.role,
      pending: r.pending,
      teams: r.teams,
    })),
  });
}

/** POST /v1/teams {name, role}: a named group; it grants nothing until somebody is put on it. */
export async function createTeam(c: Call, body: v.InferOutput<typeof TeamBody>): Promise<Response> {
  const who = caller(c);
  const id = newId("team");
  const by = actorName(who);
  const [made]: { created_at: Date }[] = await c.db`
    INSERT INTO teams (id, workspace_id, name, role, created_by) VALUES (${id}, ${who.workspaceId}, ${body.name}, ${body.role}, ${by})
    ON CONFLICT (workspace_id, name) DO NOTHING RETURNING created_at`;
  if (!made) throw new HttpError(409, "exists", `a team named ${body.name} exists here`);
  await audit(c.db, { orgId: who.orgId, actor: by, action: "team.create", subject: id, detail: { ...body } });
  return json({ id, name: body.name, role: body.role, createdAt: iso(made.created_at) }, 201);
}

async function teamOf(c: Call, workspaceId: string): Promise<{ id: string; name: string; role: Role }> {
  const [t]: { id: string; name: string; role: Role }[] = await c.db`
    SELECT id, name, role FROM teams WHERE id = ${c.params.id ?? ""} AND workspace_id = ${workspaceId}`;
  if (!t) throw new HttpError(404, "not_found", `no team \`${c.params.id ?? ""}\` here`);
  return t;
}

/**
 * POST /v1/teams/:id/members {email}: puts a member on the team and grants them the workspace at its role, through
 * PATCH /v1/members/:id (so a role that approves waits on a second admin, and nobody raises their own).
 */
export async function addToTeam(
  c: Call,
  body: v.InferOutput<typeof TeamMemberBody>,
  routes: readonly Route[],
): Promise<Response> {
  const who = caller(c);
  const team = await teamOf(c, who.workspaceId);
  const [m]: { id: string; role: Role }[] = await c.db`
    SELECT id, role FROM members WHERE org_id = ${who.orgId} AND lower(email) = ${body.email.toLowerCase()}
      AND status = 'active'`;
  if (!m) throw new HttpError(404, "not_found", `no active member holds ${body.email}: invite them first`);
  let grant: { role: Role; pending: unknown } = { role: m.role, pending: null };
  if (ROLES.indexOf(team.role) > ROLES.indexOf(m.role))
    grant = await callRoute<{ role: Role; pending: unknown }>(routeOf(routes, "PATCH /v1/members/:id"), c, who, {
      params: { id: m.id },
      body: { role: team.role },
    });
  const by = actorName(who);
  await c.db`INSERT INTO team_members (team_id, member_id, added_by) VALUES (${team.id}, ${m.id}, ${by})
             ON CONFLICT DO NOTHING`;
  await audit(c.db, {
    orgId: who.orgId,
    actor: by,
    action: "team.member.add",
    subject: team.id,
    detail: { member: m.id, teamRole: team.role, role: grant.role },
  });
  return json({ team: team.id, member: m.id, role: grant.role, pending: grant.pending ?? null });
}

/** POST /v1/teams/:id/members/:member/remove: off the team; the grant stays, changed on the member if it should. */
export async function removeFromTeam(c: Call): Promise<Response> {
  const who = caller(c);
  const team = await teamOf(c, who.workspaceId);
  const member = c.params.member ?? "";
  const gone = await c.db`DELETE FROM team_members WHERE team_id = ${team.id} AND member_id = ${member} RETURNING 1`;
  if (gone.length === 0) throw new HttpError(404, "not_found", `\`${member}\` is not on ${team.name}`);
  const [m]: { role: Role }[] = await c.db`SELECT role FROM members WHERE id = ${member}`;
  await audit(c.db, {
    orgId: who.orgId,
    actor: actorName(who),
    action: "team.member.remove",
    subject: team.id,
    detail: { member },
  });
  return json({ team: team.id, member, role: m?.role ?? null, grantKept: true });
}

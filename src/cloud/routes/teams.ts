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
import * as store from "../store/teams.ts";
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
  const teams = await store.teams(c.db, who.workspaceId);
  const on = await store.teamMembers(c.db, who.workspaceId);
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
  const rows = await store.workspaceGrants(c.db, who.workspaceId);
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
  const made = await store.insertTeam(c.db, {
    id,
    workspaceId: who.workspaceId,
    name: body.name,
    role: body.role,
    by,
  });
  if (!made) throw new HttpError(409, "exists", `a team named ${body.name} exists here`);
  await audit(c.db, { orgId: who.orgId, actor: by, action: "team.create", subject: id, detail: { ...body } });
  return json({ id, name: body.name, role: body.role, createdAt: iso(made.created_at) }, 201);
}

async function teamOf(c: Call, workspaceId: string): Promise<{ id: string; name: string; role: Role }> {
  const t = await store.teamById(c.db, workspaceId, c.params.id ?? "");
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
  const m = await store.activeMemberRole(c.db, who.orgId, body.email.toLowerCase());
  if (!m) throw new HttpError(404, "not_found", `no active member holds ${body.email}: invite them first`);
  let grant: { role: Role; pending: unknown } = { role: m.role, pending: null };
  if (ROLES.indexOf(team.role) > ROLES.indexOf(m.role))
    grant = await callRoute<{ role: Role; pending: unknown }>(routeOf(routes, "PATCH /v1/members/:id"), c, who, {
      params: { id: m.id },
      body: { role: team.role },
    });
  const by = actorName(who);
  await store.addToTeam(c.db, team.id, m.id, by);
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
  const gone = await store.removeFromTeam(c.db, team.id, member);
  if (gone.length === 0) throw new HttpError(404, "not_found", `\`${member}\` is not on ${team.name}`);
  const m = await store.memberRole(c.db, member);
  await audit(c.db, {
    orgId: who.orgId,
    actor: actorName(who),
    action: "team.member.remove",
    subject: team.id,
    detail: { member },
  });
  return json({ team: team.id, member, role: m?.role ?? null, grantKept: true });
}

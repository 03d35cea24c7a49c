// The organization's profile (its name, what the team does: what extraction later reads to tell the team's decisions
// from somebody else's), and a person's own name. Onboarding is filling these in the first time.
import { actorName } from "../auth.ts";
import { type Call, json, str } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { iso } from "../iso.ts";
import { audit } from "../store/people.ts";

const ORG_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._'-]{0,80}$/;

export async function showOrg(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const [o]: { id: string; name: string; about: string | null; onboarded_at: Date | null; created_at: Date }[] =
    await c.db`SELECT id, name, about, onboarded_at, created_at FROM orgs WHERE id = ${who.orgId}`;
  if (!o) throw new HttpError(404, "not_found", "this organization is gone");
  return json({
    id: o.id,
    name: o.name,
    about: o.about,
    onboardedAt: iso(o.onboarded_at),
    createdAt: iso(o.created_at),
    workspace: { id: who.workspaceId, name: o.name },
    // Self-hosted: nothing is billed. The plan page says so rather than drawing a price.
    plan: { name: "self-hosted", billed: false },
    signIn: c.config.signIn
      ? { issuer: c.config.signIn.issuer, audience: c.config.signIn.clientId, selfService: c.config.signIn.selfService }
      : null,
  });
}

/** PATCH /v1/org {name?, about?}: an admin names the team and says what it does; the workspace keeps its name. */
export async function changeOrg(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine does not configure the team");
  const name = str(body, "name", { optional: true });
  const about = body.about === undefined ? undefined : typeof body.about === "string" ? body.about.slice(0, 2000) : "";
  if (name !== undefined && !ORG_NAME.test(name))
    throw new HttpError(400, "bad_request", "`name` is letters, digits, spaces and . _ ' - (81 at most)");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    if (name !== undefined) {
      const [taken] = await tx`SELECT id FROM orgs WHERE name = ${name} AND id <> ${who.orgId}`;
      if (taken) throw new HttpError(409, "exists", `an organization named \`${name}\` already exists`);
      await tx`UPDATE orgs SET name = ${name} WHERE id = ${who.orgId}`;
      await tx`UPDATE workspaces SET name = ${name} WHERE org_id = ${who.orgId}`;
    }
    if (about !== undefined) await tx`UPDATE orgs SET about = ${about} WHERE id = ${who.orgId}`;
    await tx`UPDATE orgs SET onboarded_at = coalesce(onboarded_at, now()) WHERE id = ${who.orgId}`;
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "org.change",
      subject: who.orgId,
      detail: { ...(name !== undefined ? { name } : {}), ...(about !== undefined ? { about: about.length } : {}) },
    });
    return json({ id: who.orgId, ...(name !== undefined ? { name } : {}), ...(about !== undefined ? { about } : {}) });
  });
}

/** PATCH /v1/me {name}: what a person is called here; only their own, so any role may. */
export async function changeMe(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (who?.kind !== "person") throw new HttpError(403, "forbidden", "only a person has a name here");
  const name = str(body, "name").slice(0, 120);
  await c.db`UPDATE members SET display_name = ${name} WHERE id = ${who.memberId}`;
  return json({ id: who.memberId, name });
}

// The organization's profile (its name, what the team does: what extraction later reads to tell the team's decisions
// from somebody else's), and a person's own name. Onboarding is filling these in the first time.
import { actorName } from "../auth.ts";
import { type Call, json, str } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { iso } from "../iso.ts";
import * as store from "../store/people.ts";
import { audit } from "../store/people.ts";

const ORG_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._'-]{0,80}$/;

export async function showOrg(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const o = await store.org(c.db, who.orgId);
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
      if (await store.orgNameTaken(tx, name, who.orgId))
        throw new HttpError(409, "exists", `an organization named \`${name}\` already exists`);
      await store.renameOrg(tx, who.orgId, name);
    }
    if (about !== undefined) await store.setAbout(tx, who.orgId, about);
    await store.markOnboarded(tx, who.orgId);
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
  await store.setDisplayName(c.db, who.memberId, name);
  return json({ id: who.memberId, name });
}

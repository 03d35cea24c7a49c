// Who is in the organization and with which role; tokens for people and operators; the audit trail. The role always
// comes from the member record, so a token can never carry more than its person holds.
import { actorName, type Principal } from "../auth.ts";
import { type Call, HttpError, iso, json, str } from "../http.ts";
import { newId } from "../ids.ts";
import { isRole } from "../roles.ts";
import { audit, mintToken } from "../store/people.ts";
import { endSessionsOf } from "../store/sessions.ts";

function need(who: Principal | undefined): Principal {
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  return who;
}

export async function me(c: Call): Promise<Response> {
  const who = need(c.who);
  const [ws]: { name: string; org_name: string; onboarded_at: Date | null }[] = await c.db`
    SELECT w.name, o.name AS org_name, o.onboarded_at FROM workspaces w JOIN orgs o ON o.id = w.org_id
    WHERE w.id = ${who.workspaceId}`;
  const person =
    who.kind === "person"
      ? (
          (await c.db`SELECT display_name FROM members WHERE id = ${who.memberId}`) as { display_name: string | null }[]
        )[0]
      : undefined;
  // The other organizations this same signed-in identity belongs to: which one a page answers for is a selection.
  const others: { id: string; name: string }[] =
    who.kind === "person"
      ? await c.db`
          SELECT o.id, o.name FROM members m JOIN orgs o ON o.id = m.org_id
          JOIN members me ON me.id = ${who.memberId}
          WHERE m.email = me.email AND m.status = 'active' AND m.id <> me.id AND me.oidc_subject IS NOT NULL
            AND m.oidc_issuer = me.oidc_issuer AND m.oidc_subject = me.oidc_subject
          ORDER BY o.name`
      : [];
  return json({
    kind: who.kind,
    actor: actorName(who),
    role: who.kind === "machine" ? null : who.role,
    ...(who.kind === "person" ? { email: who.email, memberId: who.memberId, name: person?.display_name ?? null } : {}),
    org: { id: who.orgId, name: ws?.org_name ?? null, onboarded: ws?.onboarded_at !== null },
    otherOrgs: others,
    workspace: { id: who.workspaceId, name: ws?.name ?? null },
  });
}

export async function listMembers(c: Call): Promise<Response> {
  const who = need(c.who);
  const rows: {
    id: string;
    email: string;
    role: string;
    status: string;
    created_at: Date;
    created_by: string;
    display_name: string | null;
    last_sign_in_at: Date | null;
  }[] = await c.db`SELECT id, email, role, status, created_at, created_by, display_name, last_sign_in_at
                   FROM members WHERE org_id = ${who.orgId} ORDER BY created_at, id`;
  return json({
    members: rows.map((m) => ({
      id: m.id,
      email: m.email,
      name: m.display_name,
      role: m.role,
      status: m.status,
      // Provisioned and never signed in: an invite still open. One organization holds one workspace, so the role held
      // here is the grant on that workspace.
      invited: m.last_sign_in_at === null,
      lastSignInAt: iso(m.last_sign_in_at),
      createdAt: iso(m.created_at),
      createdBy: m.created_by,
    })),
  });
}

/** POST /v1/members {email, role}: an admin provisions somebody; `token: true` also mints their first token. */
export async function addMember(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = need(c.who);
  const email = str(body, "email").toLowerCase();
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new HttpError(400, "bad_request", "`email` is not an address");
  const role = body.role ?? "viewer";
  if (!isRole(role)) throw new HttpError(400, "bad_request", "`role` is viewer, reviewer or admin");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const [dup] = await tx`SELECT id FROM members WHERE org_id = ${who.orgId} AND email = ${email}`;
    if (dup) throw new HttpError(409, "exists", `\`${email}\` is already a member`);
    const id = newId("mem");
    await tx`INSERT INTO members (id, org_id, email, role, created_by) VALUES (${id}, ${who.orgId}, ${email}, ${role}, ${by})`;
    await audit(tx, { orgId: who.orgId, actor: by, action: "member.add", subject: id, detail: { email, role } });
    const minted =
      body.token === true
        ? await mintToken(tx, { orgId: who.orgId, kind: "person", memberId: id, name: "first", createdBy: by })
        : undefined;
    return json({ id, email, role, ...(minted ? { token: minted.token } : {}) }, 201);
  });
}

/** PATCH /v1/members/:id {role?, status?}: the last active admin cannot be demoted or suspended. */
export async function changeMember(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = need(c.who);
  const id = c.params.id ?? "";
  const role = body.role;
  const status = body.status;
  if (role !== undefined && !isRole(role))
    throw new HttpError(400, "bad_request", "`role` is viewer, reviewer or admin");
  if (status !== undefined && status !== "active" && status !== "suspended")
    throw new HttpError(400, "bad_request", "`status` is active or suspended");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const [m]: { id: string; role: string; status: string }[] = await tx`
      SELECT id, role, status FROM members WHERE id = ${id} AND org_id = ${who.orgId} FOR UPDATE`;
    if (!m) throw new HttpError(404, "not_found", `no member \`${id}\``);
    const nextRole = role ?? m.role;
    const nextStatus = status ?? m.status;
    if (m.role === "admin" && (nextRole !== "admin" || nextStatus !== "active")) {
      const [n]: { n: string }[] = await tx`SELECT count(*) AS n FROM members
                                             WHERE org_id = ${who.orgId} AND role = 'admin' AND status = 'active'`;
      if (Number(n?.n) <= 1) throw new HttpError(409, "last_admin", "the last active admin stays an active admin");
    }
    await tx`UPDATE members SET role = ${nextRole}, status = ${nextStatus} WHERE id = ${id}`;
    if (nextStatus === "suspended") await endSessionsOf(tx, id, by);
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "member.change",
      subject: id,
      detail: { role: nextRole, status: nextStatus },
    });
    return json({ id, role: nextRole, status: nextStatus });
  });
}

/** POST /v1/tokens {name}: a person mints another token for themselves (a script's, a second machine's). */
export async function createToken(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = need(c.who);
  if (who.kind !== "person") throw new HttpError(403, "forbidden", "only a person mints a person's token");
  const name = str(body, "name");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const t = await mintToken(tx, { orgId: who.orgId, kind: "person", memberId: who.memberId, name, createdBy: by });
    await audit(tx, { orgId: who.orgId, actor: by, action: "token.person", subject: t.id, detail: { name } });
    return json({ id: t.id, kind: "person", name, token: t.token }, 201);
  });
}

/** POST /v1/operator-tokens {name, role}: automation's token; it approves machines as unowned (a CI runner). */
export async function createOperatorToken(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = need(c.who);
  const name = str(body, "name");
  const role = body.role ?? "viewer";
  if (!isRole(role)) throw new HttpError(400, "bad_request", "`role` is viewer, reviewer or admin");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const t = await mintToken(tx, { orgId: who.orgId, kind: "operator", role, name, createdBy: by });
    await audit(tx, { orgId: who.orgId, actor: by, action: "token.operator", subject: t.id, detail: { name, role } });
    return json({ id: t.id, kind: "operator", role, name, token: t.token }, 201);
  });
}

async function revoke(c: Call, where: "own" | "operator"): Promise<Response> {
  const who = need(c.who);
  const id = c.params.id ?? "";
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const [t]: { id: string; kind: string; member_id: string | null }[] = await tx`
      SELECT id, kind, member_id FROM tokens WHERE id = ${id} AND org_id = ${who.orgId} FOR UPDATE`;
    const mine = who.kind === "person" && t?.kind === "person" && t.member_id === who.memberId;
    if (!t || (where === "own" ? !mine : t.kind !== "operator"))
      throw new HttpError(404, "not_found", `no ${where === "own" ? "token of yours" : "operator token"} \`${id}\``);
    await tx`UPDATE tokens SET revoked_at = now() WHERE id = ${id} AND revoked_at IS NULL`;
    await audit(tx, { orgId: who.orgId, actor: by, action: "token.revoke", subject: id });
    return json({ id, revoked: true });
  });
}

/** POST /v1/tokens/:id/revoke: one of your own tokens. */
export const revokeToken = (c: Call) => revoke(c, "own");
/** POST /v1/operator-tokens/:id/revoke. */
export const revokeOperatorToken = (c: Call) => revoke(c, "operator");

export async function listAudit(c: Call): Promise<Response> {
  const who = need(c.who);
  const after = Number(c.url.searchParams.get("after") ?? 0) || 0;
  const rows: { id: string; at: Date; actor: string; action: string; subject: string | null; detail: unknown }[] =
    await c.db`SELECT id, at, actor, action, subject, detail FROM audit WHERE org_id = ${who.orgId} AND id > ${after}
               ORDER BY id LIMIT 500`;
  return json({
    audit: rows.map((r) => ({
      id: Number(r.id),
      at: iso(r.at),
      actor: r.actor,
      action: r.action,
      subject: r.subject,
      detail: r.detail,
    })),
  });
}

// Who is in the organization and with which role; tokens for people and operators; the audit trail. The role always
// comes from the member record, so a token can never carry more than its person holds.
import type * as v from "valibot";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { newId } from "../ids.ts";
import { cursorParam } from "../input.ts";
import { iso } from "../iso.ts";
import type { Principal } from "../roles.ts";
import { ROLES, type Role, signedIn } from "../roles.ts";
import {
  approves,
  cancelElevation,
  confirmElevation,
  elevationView,
  pendingElevations,
  requestElevation,
  settleDue,
} from "../store/elevations.ts";
import * as store from "../store/people.ts";
import { audit, mintToken } from "../store/people.ts";
import { endSessionsOf } from "../store/sessions.ts";
import type { MemberBody, MemberChange, OperatorTokenBody, TokenBody } from "./bodies.ts";

function need(who: Principal | undefined): Principal {
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  return who;
}

function person(who: Principal | undefined): Extract<Principal, { kind: "person" }> {
  if (who?.kind !== "person") throw new HttpError(403, "forbidden", "only a person does this");
  return who;
}

export async function me(c: Call): Promise<Response> {
  const who = need(c.who);
  const ws = await store.workspaceNames(c.db, who.workspaceId);
  const person = who.kind === "person" ? await store.displayName(c.db, who.memberId) : undefined;
  // The other organizations this same signed-in identity belongs to: which one a page answers for is a selection.
  const others = who.kind === "person" ? await store.otherOrgsOf(c.db, who.memberId) : [];
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
  await settleDue(c.db, who.orgId, c.now());
  const rows = await store.listMembers(c.db, who.orgId);
  const open = await pendingElevations(c.db, who.orgId);
  const pending = new Map(open.map((e) => [e.member_id, elevationView(e)]));
  return json({
    members: rows.map((m) => ({
      id: m.id,
      email: m.email,
      name: m.display_name,
      role: m.role,
      status: m.status,
      // Power to approve asked for and not yet in force: who asked, and whether it waits on an admin or a cooling-off.
      pending: pending.get(m.id) ?? null,
      // Provisioned and never signed in: an invite still open. One organization holds one workspace, so the role held
      // here is the grant on that workspace.
      invited: m.last_sign_in_at === null,
      lastSignInAt: iso(m.last_sign_in_at),
      createdAt: iso(m.created_at),
      createdBy: m.created_by,
    })),
  });
}

/**
 * POST /v1/members {email, role}: an admin, signed in, provisions somebody. A viewer is in at once; a reviewer or an
 * admin starts as a viewer with an elevation another admin confirms (or that cools off). Nobody mints their token.
 */
export async function addMember(c: Call, body: v.InferOutput<typeof MemberBody>): Promise<Response> {
  const who = person(c.who);
  const { email: address, role } = body;
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const dup = await store.memberWithEmail(tx, who.orgId, address);
    if (dup) throw new HttpError(409, "exists", `\`${address}\` is already a member`);
    const id = newId("mem");
    await store.insertViewer(tx, id, who.orgId, address, by);
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "member.add",
      subject: id,
      detail: { email: address, role },
    });
    const pending = approves(role)
      ? await requestElevation(
          tx,
          who.orgId,
          { id, role: "viewer" },
          role,
          { actor: by, memberId: who.memberId },
          c.now(),
        )
      : undefined;
    // memnox sends nothing: the link is what the person inviting passes on. It grants nothing by itself.
    const base = (c.config.publicUrl ?? c.url.origin).replace(/\/+$/, "");
    return json(
      {
        id,
        email: address,
        role: "viewer",
        status: "active",
        pending: pending ? elevationView(pending) : null,
        link: `${base}/signin`,
      },
      201,
    );
  });
}

/**
 * PATCH /v1/members/:id {role?, status?}: taking power away (a lower role, a suspension) is immediate and any admin's
 * to do, by token too; giving it (a role that approves, or letting a suspended approver back in) is an elevation, asked
 * for signed in. The last active admin cannot be demoted or suspended, and nobody changes their own role here.
 */
export async function changeMember(c: Call, body: v.InferOutput<typeof MemberChange>): Promise<Response> {
  const who = need(c.who);
  const id = c.params.id ?? "";
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const m = await store.memberForUpdate(tx, who.orgId, id);
    if (!m) throw new HttpError(404, "not_found", `no member \`${id}\``);
    const wantRole = body.role ?? m.role;
    const wantStatus = body.status ?? m.status;
    const backIn = m.status !== "active" && wantStatus === "active";
    // What would give power: a higher role, or an approver let back in. Both wait on a second admin.
    const raises = ROLES.indexOf(wantRole) > ROLES.indexOf(m.role) || (backIn && approves(wantRole));
    if (raises && who.kind === "person" && who.memberId === id)
      throw new HttpError(403, "forbidden", "nobody raises their own role");
    if (raises && !signedIn(who))
      throw new HttpError(
        403,
        "sign_in_required",
        "giving somebody the power to approve is done signed in to the console, and another admin confirms it",
      );
    const nextRole: Role = raises ? (backIn ? "viewer" : m.role) : wantRole;
    const nextStatus = wantStatus;
    if (m.role === "admin" && (nextRole !== "admin" || nextStatus !== "active")) {
      if ((await store.activeAdmins(tx, who.orgId)) <= 1)
        throw new HttpError(409, "last_admin", "the last active admin stays an active admin");
    }
    const stoppedAdmin =
      m.role === "admin" && m.status === "active" && (nextRole !== "admin" || nextStatus !== "active");
    await store.setRoleStatus(tx, id, nextRole, nextStatus, stoppedAdmin, new Date(c.now()));
    if (nextStatus === "suspended") await endSessionsOf(tx, id, by);
    // Power taken back also takes back what was on its way.
    if (!raises || nextStatus === "suspended") await store.cancelPendingElevations(tx, id, by, new Date(c.now()));
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "member.change",
      subject: id,
      detail: { from: { role: m.role, status: m.status }, role: nextRole, status: nextStatus },
    });
    const pending =
      raises && nextStatus === "active"
        ? await requestElevation(
            tx,
            who.orgId,
            { id, role: nextRole },
            wantRole,
            { actor: by, memberId: who.kind === "person" ? who.memberId : null },
            c.now(),
          )
        : undefined;
    return json(
      { id, role: nextRole, status: nextStatus, pending: pending ? elevationView(pending) : null },
      pending ? 202 : 200,
    );
  });
}

/** One table an erasure touched: how many rows, and how (a receipt is the evidence the request was honoured). */
interface Erased {
  readonly table: string;
  readonly records: number;
  readonly strategy: "deleted" | "anonymised" | "detached" | "kept";
  readonly why?: string;
}

/**
 * POST /v1/members/:id/remove: an admin, signed in, removes somebody: the account's personal data is erased (address,
 * name, identity, sessions, tokens, linked accounts), the seat given back, and a receipt returned, table by table.
 * What they decided and approved stays under their name. Nobody removes themselves, nor the last active admin.
 */
export async function removeMember(c: Call): Promise<Response> {
  const who = person(c.who);
  const id = c.params.id ?? "";
  const by = actorName(who);
  if (id === who.memberId)
    throw new HttpError(403, "forbidden", "nobody removes their own account here; that is done from your own account");
  return c.db.begin(async (tx) => {
    const m = await store.memberForUpdate(tx, who.orgId, id);
    if (!m || m.status === "removed") throw new HttpError(404, "not_found", `no member \`${id}\``);
    if (m.role === "admin" && m.status === "active") {
      if ((await store.activeAdmins(tx, who.orgId)) <= 1)
        throw new HttpError(409, "last_admin", "the last active admin cannot be removed");
    }
    const now = new Date(c.now());
    const n = await store.eraseMember(tx, who.orgId, m, by, now);
    const receipt: Erased[] = [
      {
        table: "sessions",
        records: n.sessions,
        strategy: "deleted",
      },
      {
        table: "tokens",
        records: n.tokens,
        strategy: "deleted",
      },
      {
        table: "person_accounts",
        records: n.person_accounts,
        strategy: "deleted",
      },
      {
        table: "team_members",
        records: n.team_members,
        strategy: "deleted",
      },
      {
        table: "elevations",
        records: n.elevations,
        strategy: "kept",
        why: "pending ones cancelled; the record of who confirmed what stays",
      },
      {
        table: "machines",
        records: n.machines,
        strategy: "detached",
        why: "their machines stay enrolled, unowned, until an admin revokes or reassigns them",
      },
      {
        table: "audit",
        records: n.audit,
        strategy: "anonymised",
        why: "the address taken out of entries about them; what they did stays under their name",
      },
      {
        table: "members",
        records: n.members,
        strategy: "anonymised",
        why: "the row stays for what points at it, with no address, name or identity; inviting them back makes a new account",
      },
    ];
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "member.remove",
      subject: id,
      severity: "warning",
      detail: {
        role: m.role,
        receipt: receipt.map((r) => ({ table: r.table, records: r.records, strategy: r.strategy })),
      },
    });
    return json({ id, removed: true, receipt });
  });
}

/** POST /v1/members/:id/confirm: another admin, signed in, confirms the power to approve somebody was given. */
export async function confirmMember(c: Call): Promise<Response> {
  const who = person(c.who);
  const e = await confirmElevation(
    c.db,
    who.orgId,
    c.params.id ?? "",
    { actor: actorName(who), memberId: who.memberId },
    c.now(),
  );
  return json(elevationView(e));
}

/** POST /v1/members/:id/cancel: any admin takes back an elevation still waiting. */
export async function cancelMember(c: Call): Promise<Response> {
  const who = need(c.who);
  const e = await cancelElevation(c.db, who.orgId, c.params.id ?? "", actorName(who), c.now());
  return json(elevationView(e));
}

/**
 * POST /v1/tokens {name}: a person, signed in, mints a token for themselves (a script's). It reads and configures as
 * them; it never approves, answers or grants, which are done signed in.
 */
export async function createToken(c: Call, body: v.InferOutput<typeof TokenBody>): Promise<Response> {
  const who = person(c.who);
  const { name } = body;
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const t = await mintToken(tx, { orgId: who.orgId, kind: "person", memberId: who.memberId, name, createdBy: by });
    await audit(tx, { orgId: who.orgId, actor: by, action: "token.person", subject: t.id, detail: { name } });
    return json({ id: t.id, kind: "person", name, token: t.token }, 201);
  });
}

/**
 * POST /v1/operator-tokens {name, role}: automation's token, minted by an admin signed in. It does what the spec gives
 * automation (reading, enrolling a CI runner unowned, proposing, freezing), never what a person does.
 */
export async function createOperatorToken(c: Call, body: v.InferOutput<typeof OperatorTokenBody>): Promise<Response> {
  const who = person(c.who);
  const { name, role } = body;
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
    const t = await store.tokenForUpdate(tx, who.orgId, id);
    const mine = who.kind === "person" && t?.kind === "person" && t.member_id === who.memberId;
    if (!t || (where === "own" ? !mine : t.kind !== "operator"))
      throw new HttpError(404, "not_found", `no ${where === "own" ? "token of yours" : "operator token"} \`${id}\``);
    await store.revokeToken(tx, id);
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
  const after = cursorParam(c.url.searchParams.get("after"));
  const rows = await store.auditAfter(c.db, who.orgId, after);
  return json({
    audit: rows.map((r) => ({
      id: Number(r.id),
      at: iso(r.at),
      actor: r.actor,
      action: r.action,
      subject: r.subject,
      detail: r.detail,
      severity: r.severity,
    })),
  });
}

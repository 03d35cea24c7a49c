// Organizations, their one workspace, members and tokens; every mutation leaves an audit row in the same transaction.
import { maskDeep, maskSecrets } from "../../core/secrets.ts";
import { HttpError } from "../http-error.ts";
import { newId, newSalt, newToken, secretHash } from "../ids.ts";
import type { Level } from "../intent/clearance.ts";
import type { Role } from "../roles.ts";
import type { Db } from "./db.ts";

interface AuditEntry {
  /** Null for what belongs to no organization we know (a credential nobody issued). */
  readonly orgId: string | null;
  readonly actor: string;
  readonly action: string;
  readonly subject?: string;
  readonly detail?: Readonly<Record<string, unknown>>;
  readonly severity?: "info" | "warning" | "critical";
}

/** One audit row; its detail goes through the one masker like every other text stored. */
export async function audit(db: Db, e: AuditEntry): Promise<void> {
  await db`INSERT INTO audit (org_id, actor, action, subject, detail, severity)
           VALUES (${e.orgId}, ${maskSecrets(e.actor)}, ${e.action}, ${e.subject ?? null}, ${maskDeep(e.detail ?? {})},
                   ${e.severity ?? "info"})`;
}

interface MintInput {
  readonly orgId: string;
  readonly kind: "person" | "operator" | "machine";
  readonly name: string;
  readonly createdBy: string;
  readonly memberId?: string;
  readonly machineId?: string;
  readonly role?: Role;
}

/** A new token: the caller sees it once; the database keeps its hash. */
export async function mintToken(db: Db, t: MintInput): Promise<{ readonly id: string; readonly token: string }> {
  const id = newId("tok");
  const token = newToken(t.kind);
  await db`INSERT INTO tokens (id, org_id, kind, hash, member_id, machine_id, role, name, created_by)
           VALUES (${id}, ${t.orgId}, ${t.kind}, ${secretHash(token)}, ${t.memberId ?? null}, ${t.machineId ?? null},
                   ${t.kind === "operator" ? (t.role ?? null) : null}, ${t.name}, ${t.createdBy})`;
  return { id, token };
}

export interface NewOrg {
  readonly org: { readonly id: string; readonly name: string };
  readonly workspace: { readonly id: string; readonly name: string };
  readonly admin: { readonly id: string; readonly email: string };
  readonly token: string;
}

interface Made {
  readonly org: { readonly id: string; readonly name: string };
  readonly workspace: { readonly id: string; readonly name: string };
  readonly admin: { readonly id: string; readonly email: string };
}

/** An organization, the workspace made with it and named after it, and its first admin (inside the caller's transaction). */
async function insertOrg(tx: Db, name: string, adminEmail: string, by: string): Promise<Made> {
  const [taken] = await tx`SELECT id FROM orgs WHERE name = ${name}`;
  if (taken) throw new HttpError(409, "exists", `an organization named \`${name}\` already exists`);
  const org = { id: newId("org"), name };
  const workspace = { id: newId("ws"), name };
  const admin = { id: newId("mem"), email: adminEmail };
  await tx`INSERT INTO orgs (id, name, host_salt) VALUES (${org.id}, ${name}, ${newSalt()})`;
  await tx`INSERT INTO workspaces (id, org_id, name) VALUES (${workspace.id}, ${org.id}, ${name})`;
  await tx`INSERT INTO members (id, org_id, email, role, created_by)
           VALUES (${admin.id}, ${org.id}, ${adminEmail}, 'admin', ${by})`;
  await audit(tx, { orgId: org.id, actor: by, action: "org.create", subject: org.id, detail: { name, adminEmail } });
  return { org, workspace, admin };
}

/** An organization with its first admin and that admin's token (`memnox cloud init`). */
export async function createOrg(db: Db, name: string, adminEmail: string, by: string): Promise<NewOrg> {
  return db.begin(async (tx) => {
    const made = await insertOrg(tx, name, adminEmail, by);
    const { token } = await mintToken(tx, {
      orgId: made.org.id,
      kind: "person",
      memberId: made.admin.id,
      name: "bootstrap",
      createdBy: by,
    });
    return { ...made, token };
  });
}

/**
 * A new, empty organization of its own for an identity nobody provisioned (self-service sign-up): never a member of
 * an existing one. Named after the address until its admin names it; no token is minted, the session is the way in.
 */
export async function createOwnOrg(db: Db, email: string): Promise<Made> {
  const local = (email.split("@")[0] ?? "team").replace(/[^A-Za-z0-9._-]/g, "").slice(0, 40) || "team";
  return db.begin(async (tx) => {
    let name = `${local}'s team`;
    for (let i = 0; i < 5; i++) {
      const [taken] = await tx`SELECT id FROM orgs WHERE name = ${name}`;
      if (!taken) break;
      name = `${local}'s team ${Buffer.from(crypto.getRandomValues(new Uint8Array(2))).toString("hex")}`;
    }
    return insertOrg(tx, name, email, "self-service");
  });
}

/** The workspace and organization names a caller's `me` answers with, and whether onboarding finished. */
export async function workspaceNames(
  db: Db,
  workspaceId: string,
): Promise<{ name: string; org_name: string; onboarded_at: Date | null } | undefined> {
  const [ws]: { name: string; org_name: string; onboarded_at: Date | null }[] = await db`
    SELECT w.name, o.name AS org_name, o.onboarded_at FROM workspaces w JOIN orgs o ON o.id = w.org_id
    WHERE w.id = ${workspaceId}`;
  return ws;
}

/** A member's display name. */
export async function displayName(db: Db, memberId: string): Promise<{ display_name: string | null } | undefined> {
  return ((await db`SELECT display_name FROM members WHERE id = ${memberId}`) as { display_name: string | null }[])[0];
}

/** The other organizations the same signed-in identity (issuer and subject) is an active member of. */
export async function otherOrgsOf(db: Db, memberId: string): Promise<{ id: string; name: string }[]> {
  return db`
          SELECT o.id, o.name FROM members m JOIN orgs o ON o.id = m.org_id
          JOIN members me ON me.id = ${memberId}
          WHERE m.email = me.email AND m.status = 'active' AND m.id <> me.id AND me.oidc_subject IS NOT NULL
            AND m.oidc_issuer = me.oidc_issuer AND m.oidc_subject = me.oidc_subject
          ORDER BY o.name`;
}

export interface MemberListRow {
  id: string;
  email: string;
  role: string;
  status: string;
  created_at: Date;
  created_by: string;
  display_name: string | null;
  last_sign_in_at: Date | null;
}

/** The organization's members not removed, oldest first. */
export async function listMembers(db: Db, orgId: string): Promise<MemberListRow[]> {
  return db`SELECT id, email, role, status, created_at, created_by, display_name, last_sign_in_at
                   FROM members WHERE org_id = ${orgId} AND status <> 'removed' ORDER BY created_at, id`;
}

/** A member of this organization with this address, if one exists (removed ones included: the address is erased). */
export async function memberWithEmail(db: Db, orgId: string, email: string): Promise<{ id: string } | undefined> {
  const [dup]: { id: string }[] = await db`SELECT id FROM members WHERE org_id = ${orgId} AND email = ${email}`;
  return dup;
}

/** A new member, always a viewer first: any higher role is an elevation another admin confirms. */
export async function insertViewer(tx: Db, id: string, orgId: string, email: string, by: string): Promise<void> {
  await tx`INSERT INTO members (id, org_id, email, role, created_by)
             VALUES (${id}, ${orgId}, ${email}, 'viewer', ${by})`;
}

/** A member of this organization, locked for the changing transaction. */
export async function memberForUpdate(
  tx: Db,
  orgId: string,
  id: string,
): Promise<{ id: string; email: string; role: Role; status: string } | undefined> {
  const [m]: { id: string; email: string; role: Role; status: string }[] = await tx`
      SELECT id, email, role, status FROM members WHERE id = ${id} AND org_id = ${orgId} FOR UPDATE`;
  return m;
}

/** How many active admins the organization has. */
export async function activeAdmins(tx: Db, orgId: string): Promise<number> {
  const [n]: { n: string }[] = await tx`SELECT count(*) AS n FROM members
                                             WHERE org_id = ${orgId} AND role = 'admin' AND status = 'active'`;
  return Number(n?.n);
}

/** A member's new role and status; `stoppedAdmin` stamps when their admin power ended. */
export async function setRoleStatus(
  tx: Db,
  id: string,
  role: Role,
  status: string,
  stoppedAdmin: boolean,
  now: Date,
): Promise<void> {
  await tx`UPDATE members SET role = ${role}, status = ${status},
               admin_until = CASE WHEN ${stoppedAdmin} THEN ${now} ELSE admin_until END WHERE id = ${id}`;
}

/** A member's elevations still waiting, cancelled; returns one row per elevation cancelled. */
export async function cancelPendingElevations(tx: Db, memberId: string, by: string, now: Date): Promise<unknown[]> {
  return tx`UPDATE elevations SET status = 'cancelled', decided_by = ${by}, decided_at = ${now}
                   WHERE member_id = ${memberId} AND status = 'pending' RETURNING 1`;
}

/** Rows an erasure touched, table by table, in the order it touched them. */
export interface ErasureCounts {
  readonly sessions: number;
  readonly tokens: number;
  readonly person_accounts: number;
  readonly team_members: number;
  readonly elevations: number;
  readonly machines: number;
  readonly audit: number;
  readonly members: number;
}

/**
 * A member's personal data erased inside the caller's transaction: sessions, tokens and linked accounts deleted,
 * pending elevations cancelled, machines detached, the address taken out of the audit, the row anonymised.
 */
export async function eraseMember(
  tx: Db,
  orgId: string,
  m: { readonly id: string; readonly email: string },
  by: string,
  now: Date,
): Promise<ErasureCounts> {
  const id = m.id;
  const count = (rows: readonly unknown[]) => rows.length;
  const sessions = count(await tx`DELETE FROM sessions WHERE member_id = ${id} RETURNING 1`);
  const tokens = count(await tx`DELETE FROM tokens WHERE member_id = ${id} RETURNING 1`);
  const person_accounts = count(await tx`DELETE FROM person_accounts WHERE member_id = ${id} RETURNING 1`);
  const team_members = count(await tx`DELETE FROM team_members WHERE member_id = ${id} RETURNING 1`);
  const elevations = count(await cancelPendingElevations(tx, id, by, now));
  const machines = count(
    await tx`UPDATE machines SET owner_id = NULL WHERE owner_id = ${id} AND org_id = ${orgId} RETURNING 1`,
  );
  const audit = count(
    await tx`UPDATE audit SET detail = detail - 'email', subject = CASE WHEN subject = ${m.email} THEN ${id} ELSE subject END
                   WHERE org_id = ${orgId} AND (subject = ${m.email} OR (subject = ${id} AND detail->>'email' IS NOT NULL))
                   RETURNING 1`,
  );
  const members = count(
    await tx`UPDATE members SET email = ${`removed-${id}@erased.invalid`}, display_name = NULL, oidc_issuer = NULL,
                     oidc_subject = NULL, status = 'removed', role = 'viewer', removed_at = ${now}, audiences = '{}',
                     clearance = NULL, elevation_id = NULL,
                     admin_until = CASE WHEN role = 'admin' AND status = 'active' THEN ${now} ELSE admin_until END
                   WHERE id = ${id} RETURNING 1`,
  );
  return { sessions, tokens, person_accounts, team_members, elevations, machines, audit, members };
}

/** A token of this organization, locked for the revoking transaction. */
export async function tokenForUpdate(
  tx: Db,
  orgId: string,
  id: string,
): Promise<{ id: string; kind: string; member_id: string | null } | undefined> {
  const [t]: { id: string; kind: string; member_id: string | null }[] = await tx`
      SELECT id, kind, member_id FROM tokens WHERE id = ${id} AND org_id = ${orgId} FOR UPDATE`;
  return t;
}

/** A token revoked (once: a second revocation keeps the first time). */
export async function revokeToken(tx: Db, id: string): Promise<void> {
  await tx`UPDATE tokens SET revoked_at = now() WHERE id = ${id} AND revoked_at IS NULL`;
}

export interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  action: string;
  subject: string | null;
  detail: unknown;
  severity: string;
}

/** The organization's audit after a cursor, 500 at a time. */
export async function auditAfter(db: Db, orgId: string, after: number): Promise<AuditRow[]> {
  return db`SELECT id, at, actor, action, subject, detail, severity FROM audit
                   WHERE org_id = ${orgId} AND id > ${after} ORDER BY id LIMIT 500`;
}

/** The organization's own record. */
export async function org(
  db: Db,
  orgId: string,
): Promise<
  { id: string; name: string; about: string | null; onboarded_at: Date | null; created_at: Date } | undefined
> {
  const [o]: { id: string; name: string; about: string | null; onboarded_at: Date | null; created_at: Date }[] =
    await db`SELECT id, name, about, onboarded_at, created_at FROM orgs WHERE id = ${orgId}`;
  return o;
}

/** Whether another organization already holds this name. */
export async function orgNameTaken(tx: Db, name: string, orgId: string): Promise<boolean> {
  const [taken] = await tx`SELECT id FROM orgs WHERE name = ${name} AND id <> ${orgId}`;
  return Boolean(taken);
}

/** The organization renamed, and its workspace with it. */
export async function renameOrg(tx: Db, orgId: string, name: string): Promise<void> {
  await tx`UPDATE orgs SET name = ${name} WHERE id = ${orgId}`;
  await tx`UPDATE workspaces SET name = ${name} WHERE org_id = ${orgId}`;
}

/** What the organization says it does (the extraction prompt names it). */
export async function setAbout(tx: Db, orgId: string, about: string): Promise<void> {
  await tx`UPDATE orgs SET about = ${about} WHERE id = ${orgId}`;
}

/** Onboarding finished, the first time only. */
export async function markOnboarded(tx: Db, orgId: string): Promise<void> {
  await tx`UPDATE orgs SET onboarded_at = coalesce(onboarded_at, now()) WHERE id = ${orgId}`;
}

/** A person's display name. */
export async function setDisplayName(db: Db, memberId: string, name: string): Promise<void> {
  await db`UPDATE members SET display_name = ${name} WHERE id = ${memberId}`;
}

export interface MemberClearance {
  role: string;
  clearance: Level | null;
  audiences: string[];
  status: string;
}

/** A member's role, clearance, audiences and status, by id or by address, within the organization. */
export async function memberClearance(
  db: Db,
  orgId: string,
  by: { readonly id?: string; readonly email?: string },
): Promise<MemberClearance | undefined> {
  const [m]: MemberClearance[] = by.id
    ? await db`SELECT role, clearance, audiences, status FROM members WHERE id = ${by.id} AND org_id = ${orgId}`
    : await db`SELECT role, clearance, audiences, status FROM members
               WHERE lower(email) = ${(by.email ?? "").toLowerCase()} AND org_id = ${orgId}`;
  return m;
}

/** An agent's own clearance, audiences and principal. */
export async function agentClearance(
  db: Db,
  workspaceId: string,
  name: string,
): Promise<{ clearance: Level | null; audiences: string[]; principal: string | null } | undefined> {
  const [a]: { clearance: Level | null; audiences: string[]; principal: string | null }[] = await db`
    SELECT clearance, audiences, principal FROM agents WHERE workspace_id = ${workspaceId} AND name = ${name}`;
  return a;
}

/** How many organizations this control plane holds. */
export async function orgCount(db: Db): Promise<{ n: string }[]> {
  return db`SELECT count(*) AS n FROM orgs`;
}

// Organizations, their one workspace, members and tokens; every mutation leaves an audit row in the same transaction.
import { maskDeep, maskSecrets } from "../../core/secrets.ts";
import { HttpError } from "../http-error.ts";
import { newId, newSalt, newToken, secretHash } from "../ids.ts";
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

// Enrolment by device code (RFC 8628), as stored: codes asked for, polled, decided once, and the machine an approval
// makes. A code is found by its hash or its user code; the deployment's address key keeps requesters unlisted.
import type { Mode } from "../../core/effect.ts";
import type { Db } from "./db.ts";

export interface DeviceRow {
  id: string;
  user_code: string;
  hostname: string | null;
  version: string | null;
  platform: string | null;
  public_key: string;
  requested_mode: Mode;
  interval_s: number;
  created_at: Date;
  expires_at: Date;
  last_poll_at: Date | null;
  status: "pending" | "approved" | "denied" | "claimed";
  org_id: string | null;
  machine_id: string | null;
}

/** The deployment's key for requesters' addresses. */
export async function addressKey(db: Db): Promise<{ address_key: string }[]> {
  return db`SELECT address_key FROM deployment WHERE id = 1` as Promise<{ address_key: string }[]>;
}

/** Codes nobody decided lose their hostname once expired, and are forgotten a day later. */
export async function forgetStaleCodes(db: Db): Promise<void> {
  await db`UPDATE device_codes SET hostname = NULL WHERE hostname IS NOT NULL AND expires_at < now()`;
  await db`DELETE FROM device_codes WHERE status = 'pending' AND expires_at < now() - interval '1 day'`;
}

/** Codes waiting now: this requester's and everybody's. */
export async function pendingCounts(db: Db, requester: string): Promise<{ mine: string; all: string } | undefined> {
  const [n]: { mine: string; all: string }[] = await db`
    SELECT count(*) FILTER (WHERE requester = ${requester}) AS mine, count(*) AS all FROM device_codes
    WHERE status = 'pending' AND expires_at > now()`;
  return n;
}

interface NewCode {
  readonly id: string;
  readonly deviceCodeHash: string;
  readonly userCode: string;
  readonly publicKey: string;
  readonly hostname: string;
  readonly version: string | null;
  readonly platform: string | null;
  readonly mode: Mode;
  readonly intervalS: number;
  readonly ttlS: number;
  readonly requester: string;
}

/** A code a machine asked for, expiring `ttlS` from now. */
export async function insertCode(db: Db, d: NewCode): Promise<void> {
  await db`INSERT INTO device_codes (id, device_code_hash, user_code, public_key, hostname, version, platform,
                                       requested_mode, interval_s, expires_at, requester)
             VALUES (${d.id}, ${d.deviceCodeHash}, ${d.userCode}, ${d.publicKey}, ${d.hostname},
                     ${d.version}, ${d.platform},
                     ${d.mode}, ${d.intervalS}, now() + make_interval(secs => ${d.ttlS}), ${d.requester})`;
}

/** The code a poll names, locked, with how long since its last poll and whether it expired. */
export async function codeForPoll(
  tx: Db,
  deviceCodeHash: string,
): Promise<(DeviceRow & { elapsed_ms: number | null; expired: boolean }) | undefined> {
  const [d]: (DeviceRow & { elapsed_ms: number | null; expired: boolean })[] = await tx`
      SELECT *, (EXTRACT(EPOCH FROM (now() - last_poll_at)) * 1000)::float8 AS elapsed_ms, expires_at < now() AS expired
      FROM device_codes WHERE device_code_hash = ${deviceCodeHash} FOR UPDATE`;
  return d;
}

/** A poll too fast: the interval grows by five seconds. */
export async function slowDown(tx: Db, id: string): Promise<void> {
  await tx`UPDATE device_codes SET interval_s = interval_s + 5, last_poll_at = now() WHERE id = ${id}`;
}

/** A poll at the pace asked. */
export async function notePoll(tx: Db, id: string): Promise<void> {
  await tx`UPDATE device_codes SET last_poll_at = now() WHERE id = ${id}`;
}

export interface EnrolledRow {
  org_id: string;
  workspace_id: string;
  ws_name: string;
  org_name: string;
  email: string | null;
  mode_set: Mode;
}

/** The machine an approved code enrolled, with its workspace, organization and owner's address. */
export async function enrolledMachine(tx: Db, machineId: string): Promise<EnrolledRow | undefined> {
  const [m]: EnrolledRow[] =
    await tx`SELECT x.org_id, x.workspace_id, w.name AS ws_name, o.name AS org_name, p.email, x.mode_set
               FROM machines x JOIN workspaces w ON w.id = x.workspace_id JOIN orgs o ON o.id = x.org_id
               LEFT JOIN members p ON p.id = x.owner_id WHERE x.id = ${machineId}`;
  return m;
}

/** A code whose token was handed out: never again. */
export async function claimCode(tx: Db, id: string): Promise<void> {
  await tx`UPDATE device_codes SET status = 'claimed' WHERE id = ${id}`;
}

/** A code by the user code a person typed, with whether it expired; locked when deciding. */
export async function codeByUserCode(
  db: Db,
  userCode: string,
  lock: boolean,
): Promise<(DeviceRow & { expired: boolean })[]> {
  return lock
    ? await db`SELECT *, expires_at < now() AS expired FROM device_codes WHERE user_code = ${userCode} FOR UPDATE`
    : await db`SELECT *, expires_at < now() AS expired FROM device_codes WHERE user_code = ${userCode}`;
}

/** A code refused: its hostname dropped, the organization and person that refused it kept. */
export async function denyCode(tx: Db, id: string, orgId: string, by: string): Promise<void> {
  await tx`UPDATE device_codes SET status = 'denied', hostname = NULL, org_id = ${orgId}, decided_by = ${by},
                      decided_at = now() WHERE id = ${id}`;
}

/** The organization's salt for hostnames. */
export async function hostSalt(tx: Db, orgId: string): Promise<{ host_salt: string } | undefined> {
  const [org]: { host_salt: string }[] = await tx`SELECT host_salt FROM orgs WHERE id = ${orgId}`;
  return org;
}

interface NewMachine {
  readonly id: string;
  readonly orgId: string;
  readonly workspaceId: string;
  readonly publicKey: string;
  readonly hostnameHash: string;
  readonly ownerId: string | null;
  readonly approvedBy: string;
  readonly version: string | null;
  readonly platform: string | null;
  readonly mode: Mode;
}

/** The machine an approval enrols. */
export async function insertMachine(tx: Db, m: NewMachine): Promise<void> {
  await tx`INSERT INTO machines (id, org_id, workspace_id, public_key, hostname_hash, owner_id, approved_by, version,
                                   platform, mode_set)
             VALUES (${m.id}, ${m.orgId}, ${m.workspaceId}, ${m.publicKey}, ${m.hostnameHash}, ${m.ownerId}, ${m.approvedBy},
                     ${m.version}, ${m.platform}, ${m.mode})`;
}

/** A code approved: its hostname dropped, the machine it made recorded. */
export async function approveCode(tx: Db, id: string, orgId: string, by: string, machineId: string): Promise<void> {
  await tx`UPDATE device_codes SET status = 'approved', hostname = NULL, org_id = ${orgId}, decided_by = ${by},
                    decided_at = now(), machine_id = ${machineId} WHERE id = ${id}`;
}

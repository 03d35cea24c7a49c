// The workspace's machines as stored: listed with their pending mode change, their mode history, a mode set, and a
// revocation that takes the machine's tokens with it. A machine is read within its workspace.
import type { Mode } from "../../core/effect.ts";
import type { Db } from "./db.ts";

export interface MachineRow {
  id: string;
  hostname_hash: string;
  owner: string | null;
  approved_by: string;
  version: string | null;
  platform: string | null;
  enrolled_at: Date;
  last_seen_at: Date | null;
  bundle_applied: string | null;
  mode_set: Mode;
  mode_running: Mode | null;
  stopped_until: Date | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  change_id: string | null;
  change_to: Mode | null;
  change_by: string | null;
  change_at: Date | null;
  refused_events: string;
  last_refusal: { field?: string; message?: string; dedupKey?: string | null } | null;
  last_refusal_at: Date | null;
}

/** The workspace's machines (or one), each with its owner's address and the mode change waiting for it. */
export async function machines(db: Db, workspaceId: string, id?: string): Promise<MachineRow[]> {
  return db`
    SELECT x.id, x.hostname_hash, p.email AS owner, x.approved_by, x.version, x.platform, x.enrolled_at,
           x.last_seen_at, x.bundle_applied, x.mode_set, x.mode_running, x.stopped_until, x.revoked_at, x.revoked_by,
           x.refused_events, x.last_refusal, x.last_refusal_at,
           ch.id AS change_id, ch.to_mode AS change_to, ch.by AS change_by, ch.at AS change_at
    FROM machines x
    LEFT JOIN members p ON p.id = x.owner_id
    LEFT JOIN LATERAL (SELECT id, to_mode, by, at FROM mode_changes
                       WHERE machine_id = x.id AND delivered_at IS NULL ORDER BY id DESC LIMIT 1) ch ON true
    WHERE x.workspace_id = ${workspaceId} ${id ? db`AND x.id = ${id}` : db``}
    ORDER BY x.enrolled_at, x.id`;
}

/** Every mode change a machine was sent, in order. */
export async function modeHistory(
  db: Db,
  machineId: string,
): Promise<{ id: string; from_mode: Mode; to_mode: Mode; by: string; at: Date; delivered_at: Date | null }[]> {
  return db`SELECT id, from_mode, to_mode, by, at, delivered_at FROM mode_changes WHERE machine_id = ${machineId} ORDER BY id`;
}

/** A machine of the workspace, locked for the changing transaction. */
export async function machineForUpdate(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<{ id: string; mode_set: Mode; revoked_at: Date | null } | undefined> {
  const [m]: { id: string; mode_set: Mode; revoked_at: Date | null }[] = await db`
    SELECT id, mode_set, revoked_at FROM machines WHERE id = ${id} AND workspace_id = ${workspaceId} FOR UPDATE`;
  return m;
}

/** A mode change recorded for the machine's next heartbeat, and the mode set. */
export async function changeMode(
  tx: Db,
  machineId: string,
  from: Mode,
  to: Mode,
  by: string,
): Promise<{ id: string; at: Date } | undefined> {
  const [ch]: { id: string; at: Date }[] = await tx`
      INSERT INTO mode_changes (machine_id, from_mode, to_mode, by) VALUES (${machineId}, ${from}, ${to}, ${by})
      RETURNING id, at`;
  await tx`UPDATE machines SET mode_set = ${to} WHERE id = ${machineId}`;
  return ch;
}

/** A machine revoked, and every token it holds with it. */
export async function revokeMachine(tx: Db, machineId: string, by: string): Promise<{ revoked_at: Date } | undefined> {
  const [r]: { revoked_at: Date }[] = await tx`
      UPDATE machines SET revoked_at = now(), revoked_by = ${by} WHERE id = ${machineId} RETURNING revoked_at`;
  await tx`UPDATE tokens SET revoked_at = now() WHERE machine_id = ${machineId} AND revoked_at IS NULL`;
  return r;
}

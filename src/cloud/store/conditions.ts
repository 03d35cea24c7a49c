// Conditions (freezes) set on a workspace and the fleet moved to enforce, as stored: the one insert every freeze goes
// through, the move every Contain makes, and a lift. Each runs inside the caller's transaction.
import { newId } from "../ids.ts";
import type { Db } from "./db.ts";

export interface NewCondition {
  readonly workspaceId: string;
  readonly kind: string;
  readonly subject: string;
  readonly reason: string | null;
  readonly by: string;
  readonly expires: Date;
}

/** One condition in force from now: every machine's next bundle carries it (the one insert every freeze goes through). */
export async function addCondition(tx: Db, n: NewCondition): Promise<string> {
  const id = newId("cnd");
  await tx`INSERT INTO conditions (id, workspace_id, kind, subject, reason, set_by, expires_at)
           VALUES (${id}, ${n.workspaceId}, ${n.kind}, ${n.subject}, ${n.reason}, ${n.by}, ${n.expires})`;
  return id;
}

/** Every active machine not yet in enforce moves to it, each move recorded with who (delivered on its next beat). */
export async function enforceEverywhere(tx: Db, workspaceId: string, by: string): Promise<string[]> {
  const moved: { id: string; mode_set: string }[] = await tx`
    SELECT id, mode_set FROM machines WHERE workspace_id = ${workspaceId} AND revoked_at IS NULL
      AND mode_set <> 'enforce' FOR UPDATE`;
  for (const m of moved) {
    await tx`INSERT INTO mode_changes (machine_id, from_mode, to_mode, by) VALUES (${m.id}, ${m.mode_set}, 'enforce', ${by})`;
    await tx`UPDATE machines SET mode_set = 'enforce' WHERE id = ${m.id}`;
  }
  return moved.map((m) => m.id);
}

/** A condition in force lifted; nothing comes back when it was not in force in this workspace. */
export async function liftCondition(
  tx: Db,
  workspaceId: string,
  id: string,
  by: string,
): Promise<{ id: string; lifted_at: Date } | undefined> {
  const [r]: { id: string; lifted_at: Date }[] = await tx`
      UPDATE conditions SET lifted_at = now(), lifted_by = ${by}
      WHERE id = ${id} AND workspace_id = ${workspaceId} AND lifted_at IS NULL RETURNING id, lifted_at`;
  return r;
}

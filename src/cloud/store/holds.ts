// Calls held on machines for a person, as stored: listed, and answered once under a lock (first answer wins). Every
// read filters by the workspace.
import type { Db } from "./db.ts";

export interface HoldRow {
  id: string;
  machine_id: string;
  local_id: string;
  surface: string;
  action: string;
  target: string | null;
  repository: string | null;
  agent: string | null;
  session: string | null;
  reason: string;
  rule_id: string | null;
  created_at: Date;
  expires_at: Date;
  reported_at: Date;
  answer: string | null;
  scope: string | null;
  answered_by: string | null;
  answered_at: Date | null;
  applied_at: Date | null;
  settled_at: Date | null;
  expired: boolean;
}

/** The workspace's holds, only those still waiting unless `all`, in the order reported. */
export async function holds(db: Db, workspaceId: string, all: boolean): Promise<HoldRow[]> {
  return db`
    SELECT *, expires_at <= now() AS expired FROM holds WHERE workspace_id = ${workspaceId}
      ${all ? db`` : db`AND answer IS NULL AND settled_at IS NULL AND expires_at > now()`}
    ORDER BY reported_at, id`;
}

/** One hold of the workspace, locked for the answering transaction. */
export async function holdForUpdate(tx: Db, workspaceId: string, id: string): Promise<HoldRow | undefined> {
  const [h]: HoldRow[] = await tx`SELECT *, expires_at <= now() AS expired FROM holds
                                    WHERE id = ${id} AND workspace_id = ${workspaceId} FOR UPDATE`;
  return h;
}

/** A person's answer to a hold, for its machine's next heartbeat. */
export async function answer(
  tx: Db,
  id: string,
  verdict: "grant" | "deny",
  scope: string | undefined,
  by: string,
): Promise<HoldRow | undefined> {
  const [u]: HoldRow[] = await tx`
      UPDATE holds SET answer = ${verdict}, scope = ${scope}, answered_by = ${by},
                       answered_at = now()
      WHERE id = ${id} RETURNING *, expires_at <= now() AS expired`;
  return u;
}

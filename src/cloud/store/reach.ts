// What the fleet's agents touched, as the reach view reads it, and the tags that name resources by pattern. Only what
// was let through counts as reach: a refused action touched nothing. Every read filters by the workspace.
import type { Db } from "./db.ts";

export interface Touch {
  agent: string | null;
  machine_id: string;
  operation: string;
  resource_ref: string | null;
  n: string;
}

/** The workspace's actions let through, as a fragment the reads below start from. */
function letThrough(db: Db, workspaceId: string) {
  return db`workspace_id = ${workspaceId} AND effect IS DISTINCT FROM 'deny'`;
}

/** Actions of one class, counted by agent, machine and operation. */
export async function touchesOfClass(db: Db, workspaceId: string, cls: string): Promise<Touch[]> {
  const base = letThrough(db, workspaceId);
  return db`
      SELECT agent, machine_id, operation, NULL AS resource_ref, count(*) AS n FROM events
      WHERE ${base} AND ${cls} = ANY(classes) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 LIMIT 500`;
}

/** Actions on one resource, counted by agent, machine and operation. */
export async function touchesOf(db: Db, workspaceId: string, resource: string): Promise<Touch[]> {
  const base = letThrough(db, workspaceId);
  return db`
      SELECT agent, machine_id, operation, resource_ref, count(*) AS n FROM events
      WHERE ${base} AND resource_ref = ${resource} GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3 LIMIT 500`;
}

/** Every resource touched, counted by agent, machine, operation and resource, for a tag's patterns to pick from. */
export async function touchedResources(db: Db, workspaceId: string): Promise<Touch[]> {
  const base = letThrough(db, workspaceId);
  return db`SELECT agent, machine_id, operation, resource_ref, count(*) AS n FROM events
                   WHERE ${base} AND resource_ref IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4 LIMIT 20000`;
}

/** The patterns a tag names. */
export async function tagPatterns(db: Db, workspaceId: string, tag: string): Promise<{ pattern: string }[]> {
  return db`
    SELECT pattern FROM resource_tags WHERE workspace_id = ${workspaceId} AND tag = ${tag} ORDER BY pattern`;
}

/** Every tag's patterns with who confirmed them. */
export async function tags(
  db: Db,
  workspaceId: string,
): Promise<{ tag: string; pattern: string; confirmed_by: string; confirmed_at: Date }[]> {
  return db`
    SELECT tag, pattern, confirmed_by, confirmed_at FROM resource_tags WHERE workspace_id = ${workspaceId} ORDER BY tag, pattern`;
}

/** A tag's patterns replaced, inside the caller's transaction. */
export async function replaceTag(
  tx: Db,
  workspaceId: string,
  tag: string,
  patterns: readonly string[],
  by: string,
): Promise<void> {
  await tx`DELETE FROM resource_tags WHERE workspace_id = ${workspaceId} AND tag = ${tag}`;
  for (const pattern of patterns)
    await tx`INSERT INTO resource_tags (workspace_id, tag, pattern, confirmed_by) VALUES (${workspaceId}, ${tag}, ${pattern}, ${by})`;
}

// What the workspace learns about its fleet beyond the machines: the agents seen acting on them, and the MCP servers
// their scans list. Upserts only: a row is never forgotten because one machine stopped mentioning it.
import type { Mode } from "../../core/effect.ts";
import { newId } from "../ids.ts";
import type { SentInventory } from "../protocol/sync.ts";
import type { Db } from "./db.ts";

/** Agents seen on a machine (by the name the gate knows them by), with their kind when the scan said it. */
export async function noteAgents(
  db: Db,
  workspaceId: string,
  machineId: string,
  agents: readonly { readonly name: string; readonly kind?: string | undefined }[],
): Promise<void> {
  const seen = new Map<string, string | null>();
  for (const a of agents) if (a.name) seen.set(a.name, a.kind ?? seen.get(a.name) ?? null);
  for (const [name, kind] of seen) {
    await db`INSERT INTO agents (workspace_id, name, kind) VALUES (${workspaceId}, ${name}, ${kind})
             ON CONFLICT (workspace_id, name)
             DO UPDATE SET last_seen_at = now(), kind = coalesce(EXCLUDED.kind, agents.kind)`;
    await db`INSERT INTO agent_machines (workspace_id, name, machine_id) VALUES (${workspaceId}, ${name}, ${machineId})
             ON CONFLICT (workspace_id, name, machine_id) DO UPDATE SET last_seen_at = now()`;
  }
}

/** A machine's scan: its agents, and each MCP server with how this machine launches it; servers it no longer lists drop. */
export async function noteInventory(db: Db, workspaceId: string, machineId: string, inv: SentInventory): Promise<void> {
  await noteAgents(db, workspaceId, machineId, inv.agents);
  const names = inv.mcpServers.map((s) => s.name);
  await db`DELETE FROM mcp_server_machines WHERE workspace_id = ${workspaceId} AND machine_id = ${machineId}
             ${names.length > 0 ? db`AND name NOT IN ${db(names)}` : db``}`;
  for (const s of inv.mcpServers) {
    await db`INSERT INTO mcp_servers (workspace_id, name) VALUES (${workspaceId}, ${s.name})
             ON CONFLICT (workspace_id, name) DO UPDATE SET last_seen_at = now()`;
    await db`INSERT INTO mcp_server_machines (workspace_id, name, machine_id, proxied, tools, write_tools, agents)
             VALUES (${workspaceId}, ${s.name}, ${machineId}, ${s.proxied}, ${s.tools ?? null}, ${s.writeTools ?? null},
                     ${[...s.agents]})
             ON CONFLICT (workspace_id, name, machine_id)
             DO UPDATE SET proxied = EXCLUDED.proxied, tools = EXCLUDED.tools, write_tools = EXCLUDED.write_tools,
                           agents = EXCLUDED.agents, last_seen_at = now()`;
  }
  await db`UPDATE machines SET inventory_hash = ${inv.hash} WHERE id = ${machineId}`;
}

interface Beat {
  readonly bundleHash: string | null;
  readonly modeRunning: Mode;
  readonly stoppedUntil?: string | undefined;
  readonly modeChangeApplied?: number | undefined;
  readonly holds: readonly {
    readonly id: string;
    readonly surface: string;
    readonly action: string;
    readonly target?: string | undefined;
    readonly repository?: string | undefined;
    readonly agent?: string | undefined;
    readonly session?: string | undefined;
    readonly reason: string;
    readonly ruleId?: string | undefined;
    readonly createdAt: string;
    readonly expiresAt: string;
  }[];
  readonly answersApplied: readonly string[];
  readonly version: string;
  /** Checked against the inventory schema by the route; its optional counts may be present as undefined. */
  readonly inventory?: object | undefined;
}

export interface HoldAnswerRow {
  id: string;
  local_id: string;
  answer: string;
  scope: string | null;
  answered_by: string;
  answered_at: Date;
}

/**
 * A heartbeat recorded inside the caller's transaction: what the machine runs and applied, its inventory, the holds
 * waiting there (and those it settled), and what goes back down: its mode, a mode change, the answers given.
 */
export async function recordBeat(
  tx: Db,
  workspaceId: string,
  machineId: string,
  hb: Beat,
): Promise<{
  m: { mode_set: Mode } | undefined;
  inv: { inventory_hash: string | null } | undefined;
  ch: { id: string; to_mode: Mode; by: string; at: Date } | undefined;
  answers: HoldAnswerRow[];
}> {
  const [m]: { mode_set: Mode }[] = await tx`
    UPDATE machines SET last_seen_at = now(), bundle_applied = ${hb.bundleHash}, mode_running = ${hb.modeRunning},
                        stopped_until = ${hb.stoppedUntil ? new Date(hb.stoppedUntil) : null}, version = ${hb.version}
    WHERE id = ${machineId} RETURNING mode_set`;
  if (hb.inventory) await noteInventory(tx, workspaceId, machineId, hb.inventory as SentInventory);
  const asking = hb.holds.flatMap((h) => (h.agent ? [{ name: h.agent }] : []));
  if (asking.length > 0) await noteAgents(tx, workspaceId, machineId, asking);
  const [inv]: { inventory_hash: string | null }[] =
    await tx`SELECT inventory_hash FROM machines WHERE id = ${machineId}`;
  if (hb.modeChangeApplied !== undefined)
    await tx`UPDATE mode_changes SET delivered_at = now()
             WHERE machine_id = ${machineId} AND id <= ${hb.modeChangeApplied} AND delivered_at IS NULL`;
  if (hb.answersApplied.length > 0)
    await tx`UPDATE holds SET applied_at = now()
             WHERE machine_id = ${machineId} AND id IN ${tx(hb.answersApplied)} AND applied_at IS NULL`;
  const waiting = hb.holds.map((h) => h.id);
  for (const h of hb.holds)
    await tx`INSERT INTO holds (id, workspace_id, machine_id, local_id, surface, action, target, repository, agent,
                                session, reason, rule_id, created_at, expires_at)
             VALUES (${newId("hld")}, ${workspaceId}, ${machineId}, ${h.id}, ${h.surface}, ${h.action},
                     ${h.target ?? null}, ${h.repository ?? null}, ${h.agent ?? null}, ${h.session ?? null},
                     ${h.reason}, ${h.ruleId ?? null}, ${new Date(h.createdAt)}, ${new Date(h.expiresAt)})
             ON CONFLICT (machine_id, local_id) DO NOTHING`;
  // A hold the machine no longer reports was settled there (answered at the machine, or expired).
  await tx`UPDATE holds SET settled_at = now()
           WHERE machine_id = ${machineId} AND answer IS NULL AND settled_at IS NULL
             ${waiting.length > 0 ? tx`AND local_id NOT IN ${tx(waiting)}` : tx``}`;
  const [ch]: { id: string; to_mode: Mode; by: string; at: Date }[] = await tx`
    SELECT id, to_mode, by, at FROM mode_changes WHERE machine_id = ${machineId} AND delivered_at IS NULL
    ORDER BY id DESC LIMIT 1`;
  const answers: HoldAnswerRow[] = await tx`SELECT id, local_id, answer, scope, answered_by, answered_at FROM holds
             WHERE machine_id = ${machineId} AND answer IS NOT NULL AND applied_at IS NULL ORDER BY answered_at`;
  return { m, inv, ch, answers };
}

export interface ServerRow {
  name: string;
  first_seen_at: Date;
  last_seen_at: Date;
  approved_by: string | null;
  approved_at: Date | null;
  machines:
    | {
        machineId: string;
        proxied: boolean;
        tools: number | null;
        writeTools: number | null;
        agents: string[];
        owner: string | null;
      }[]
    | null;
}

/** The workspace's MCP servers, each with the machines (not revoked) that launch it and their owners. */
export async function mcpServers(db: Db, workspaceId: string): Promise<ServerRow[]> {
  return db`
    SELECT s.name, s.first_seen_at, s.last_seen_at, s.approved_by, s.approved_at,
      (SELECT json_agg(json_build_object('machineId', m.machine_id, 'proxied', m.proxied, 'tools', m.tools,
                                         'writeTools', m.write_tools, 'agents', m.agents, 'owner', p.email)
                       ORDER BY m.machine_id)
         FROM mcp_server_machines m JOIN machines x ON x.id = m.machine_id LEFT JOIN members p ON p.id = x.owner_id
         WHERE m.workspace_id = s.workspace_id AND m.name = s.name AND x.revoked_at IS NULL) AS machines
    FROM mcp_servers s WHERE s.workspace_id = ${workspaceId} ORDER BY s.name`;
}

/** An MCP server approved by name. */
export async function approveMcpServer(
  db: Db,
  workspaceId: string,
  name: string,
  by: string,
): Promise<{ name: string } | undefined> {
  const [r]: { name: string }[] = await db`
    UPDATE mcp_servers SET approved_by = ${by}, approved_at = now()
    WHERE workspace_id = ${workspaceId} AND name = ${name} RETURNING name`;
  return r;
}

/** Whether the workspace's inventory knows an MCP server of this name. */
export async function mcpServerKnown(db: Db, workspaceId: string, name: string): Promise<boolean> {
  const [known] = await db`SELECT name FROM mcp_servers WHERE workspace_id = ${workspaceId} AND name = ${name}`;
  return Boolean(known);
}

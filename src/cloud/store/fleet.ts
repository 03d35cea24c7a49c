// What the workspace learns about its fleet beyond the machines: the agents seen acting on them, and the MCP servers
// their scans list. Upserts only: a row is never forgotten because one machine stopped mentioning it.
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

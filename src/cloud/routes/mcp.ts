// The team's MCP inventory from the scans machines send: one row per server, which machines configure it and whether
// each reaches it through the proxy. A shadow server (launched bare somewhere, approved by nobody) waits on a person:
// an admin approves it, or proposes blocking it for the team, which a second admin approves like any rule set.
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { iso } from "../iso.ts";
import { audit } from "../store/people.ts";
import { propose, withRule } from "./proposals.ts";

interface ServerRow {
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

function view(s: ServerRow) {
  const machines = s.machines ?? [];
  const bare = machines.filter((m) => !m.proxied);
  return {
    name: s.name,
    firstSeenAt: iso(s.first_seen_at),
    lastSeenAt: iso(s.last_seen_at),
    approved: s.approved_at ? { by: s.approved_by, at: iso(s.approved_at) } : null,
    machines,
    // Launched without memnox in the way on at least one machine, and nobody has said the team runs it on purpose.
    shadow: bare.length > 0 && !s.approved_at,
    bareOn: bare.map((m) => ({ machineId: m.machineId, owner: m.owner })),
    tools: Math.max(0, ...machines.map((m) => m.tools ?? 0)),
    writeTools: Math.max(0, ...machines.map((m) => m.writeTools ?? 0)),
  };
}

export type McpServerView = ReturnType<typeof view>;

/** GET /v1/mcp-servers: shadow servers first. Names, counts and machines only: never a launch command or a value. */
export async function listMcpServers(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const rows: ServerRow[] = await c.db`
    SELECT s.name, s.first_seen_at, s.last_seen_at, s.approved_by, s.approved_at,
      (SELECT json_agg(json_build_object('machineId', m.machine_id, 'proxied', m.proxied, 'tools', m.tools,
                                         'writeTools', m.write_tools, 'agents', m.agents, 'owner', p.email)
                       ORDER BY m.machine_id)
         FROM mcp_server_machines m JOIN machines x ON x.id = m.machine_id LEFT JOIN members p ON p.id = x.owner_id
         WHERE m.workspace_id = s.workspace_id AND m.name = s.name AND x.revoked_at IS NULL) AS machines
    FROM mcp_servers s WHERE s.workspace_id = ${who.workspaceId} ORDER BY s.name`;
  const servers = rows.map(view).sort((a, b) => Number(b.shadow) - Number(a.shadow));
  return json({ servers });
}

/** POST /v1/mcp-servers/:name/approve: a person's word that the team runs this server on purpose. */
export async function approveMcpServer(c: Call): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine does not approve servers");
  const name = c.params.name ?? "";
  const by = actorName(who);
  const [r]: { name: string }[] = await c.db`
    UPDATE mcp_servers SET approved_by = ${by}, approved_at = now()
    WHERE workspace_id = ${who.workspaceId} AND name = ${name} RETURNING name`;
  if (!r) throw new HttpError(404, "not_found", `no MCP server \`${name}\` in the inventory`);
  await audit(c.db, { orgId: who.orgId, actor: by, action: "mcp.approve", subject: name });
  return json({ name, approved: { by } });
}

/** POST /v1/mcp-servers/:name/block: proposes a rule refusing every tool on it, added to the rules in force. */
export async function blockMcpServer(c: Call): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine does not propose rules");
  const name = c.params.name ?? "";
  if (!/^[A-Za-z0-9._-]{1,120}$/.test(name)) throw new HttpError(400, "bad_request", "that is not a server name");
  const [known] = await c.db`SELECT name FROM mcp_servers WHERE workspace_id = ${who.workspaceId} AND name = ${name}`;
  if (!known) throw new HttpError(404, "not_found", `no MCP server \`${name}\` in the inventory`);
  const source = await withRule(c.db, who.workspaceId, {
    name: `team-blocks-mcp-${name}`,
    match: { actions: [`mcp.${name}.*`] },
    decision: { effect: "deny", reason: `the team blocked the MCP server ${name} (proposed by ${actorName(who)})` },
  });
  const p = await propose(c.db, who, {
    kind: "block-mcp",
    title: `Block the MCP server ${name} for the team`,
    format: "json",
    source,
  });
  return json(p, 201);
}

// The team's MCP inventory from the scans machines send: one row per server, which machines configure it and whether
// each reaches it through the proxy. A shadow server (launched bare somewhere, approved by nobody) waits on a person:
// an admin approves it, or proposes blocking it for the team, which a second admin approves like any rule set.
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { iso } from "../iso.ts";
import type { ServerRow } from "../store/fleet.ts";
import * as store from "../store/fleet.ts";
import { audit } from "../store/people.ts";
import { propose, withRule } from "./proposals.ts";

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
  const rows = await store.mcpServers(c.db, who.workspaceId);
  const servers = rows.map(view).sort((a, b) => Number(b.shadow) - Number(a.shadow));
  return json({ servers });
}

/** POST /v1/mcp-servers/:name/approve: a person's word that the team runs this server on purpose. */
export async function approveMcpServer(c: Call): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine does not approve servers");
  const name = c.params.name ?? "";
  const by = actorName(who);
  const r = await store.approveMcpServer(c.db, who.workspaceId, name, by);
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
  if (!(await store.mcpServerKnown(c.db, who.workspaceId, name)))
    throw new HttpError(404, "not_found", `no MCP server \`${name}\` in the inventory`);
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

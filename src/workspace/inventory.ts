// What of the last scan travels up: each agent by the name the gate knows it by, and each MCP server by name with
// whether every launch goes through the proxy and how many of its tools write. Copied field by field from scan.json
// (read loosely: a damaged or older scan sends nothing), never a launch command, an argument or an environment value.
import type { SentInventory } from "../cloud/protocol/sync.ts";
import { isRecord } from "../core/record.ts";
import { sha256Hex } from "../io/hash.ts";
import { looseObject } from "../state/org.ts";

const NAME = /^[^\s]{1,200}$/;
const str = (v: unknown): string | undefined => (typeof v === "string" && NAME.test(v) ? v : undefined);
/** A product's name as a person reads it ("Claude Code"): text, bounded. */
const label = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v.trim().slice(0, 100) : undefined;
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);

export function readInventory(file: string): SentInventory | undefined {
  const scan = looseObject(file);
  const scannedAt = typeof scan?.scannedAt === "string" ? scan.scannedAt : undefined;
  if (!scan || !scannedAt || Number.isNaN(Date.parse(scannedAt))) return undefined;
  const agents = list(scan.agents).flatMap((a) => {
    const name = str(a.id);
    return name ? [{ name, kind: label(a.product) ?? name }] : [];
  });
  const servers = new Map<string, { proxied: boolean; tools?: number; writeTools?: number; agents: Set<string> }>();
  for (const s of list(scan.mcpServers)) {
    const name = str(s.name);
    if (!name || s.disabled === true) continue;
    const tools = Array.isArray(s.tools) ? list(s.tools) : undefined;
    const row = servers.get(name) ?? { proxied: true, agents: new Set<string>() };
    row.proxied &&= s.wrapped === true;
    if (tools) {
      row.tools = Math.max(row.tools ?? 0, tools.length);
      row.writeTools = Math.max(row.writeTools ?? 0, tools.filter((t) => t.class !== "read").length);
    }
    const client = str(s.client);
    if (client) row.agents.add(client);
    servers.set(name, row);
  }
  const mcpServers = [...servers]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, r]) => ({
      name,
      proxied: r.proxied,
      ...(r.tools !== undefined ? { tools: r.tools } : {}),
      ...(r.writeTools !== undefined ? { writeTools: r.writeTools } : {}),
      agents: [...r.agents].sort(),
    }));
  const content = { agents: agents.sort((a, b) => a.name.localeCompare(b.name)), mcpServers };
  return { hash: `sha256:${sha256Hex(JSON.stringify(content))}`, scannedAt, ...content };
}

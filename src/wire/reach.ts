// What setup shows before it asks: the agents found and the MCP servers they can start. A short summary from the
// client registry until the scan's own screen takes this place.
import type { Context } from "../ports/context.ts";
import { type DetectedAgent, detectAgents } from "./agents.ts";
import { clientDef } from "./clients.ts";
import { readClientFiles } from "./read.ts";
import { isSessionServer, unwrapCommand } from "./wrapping.ts";

interface Reach {
  readonly agents: readonly DetectedAgent[];
  readonly mcp: {
    readonly servers: number;
    readonly stdio: number;
    readonly remote: number;
    readonly wrapped: number;
    readonly files: readonly { readonly client: string; readonly file: string; readonly servers: number }[];
    readonly unreadable: readonly { readonly file: string; readonly problem: string }[];
  };
  readonly lines: readonly string[];
}

/** The agents this machine has and the MCP servers configured for them, as counts and names, never values. */
export async function reachSummary(ctx: Context): Promise<Reach> {
  const agents = detectAgents(ctx).filter((a) => a.installed);
  const files: { client: string; file: string; servers: number }[] = [];
  const unreadable: { file: string; problem: string }[] = [];
  let stdio = 0;
  let remote = 0;
  let wrapped = 0;
  for (const r of await readClientFiles({ home: ctx.paths.home, cwd: ctx.cwd, env: ctx.env })) {
    if (!r.ok) {
      unreadable.push({ file: r.file.path, problem: r.problem.message });
      continue;
    }
    const servers = r.servers.filter((s) => !isSessionServer(s.name, s.command, s.args));
    if (servers.length === 0) continue;
    files.push({ client: clientDef(r.file.client).label, file: r.file.path, servers: servers.length });
    for (const s of servers) {
      if (s.transport === "stdio") stdio++;
      else if (s.transport === "http" || s.transport === "sse") remote++;
      if (s.command && unwrapCommand(s.command, s.args ?? [])) wrapped++;
    }
  }
  const servers = files.reduce((n, f) => n + f.servers, 0);
  const mcp = { servers, stdio, remote, wrapped, files, unreadable };
  return { agents, mcp, lines: lines(agents, mcp) };
}

function lines(agents: readonly DetectedAgent[], mcp: Reach["mcp"]): string[] {
  const out = [
    agents.length === 0
      ? "Found no agents: memnox looks for Claude Code, Codex, Gemini CLI, Cursor and Windsurf"
      : `Found ${agents.length} agent(s): ${agents.map((a) => a.label).join(", ")}`,
    "What they can reach today",
    `  mcp     ${mcp.servers} server(s) in ${mcp.files.length} file(s): ${mcp.stdio} started on this machine, ${mcp.remote} remote`,
  ];
  for (const f of mcp.files) out.push(`          ${f.client}: ${f.servers} in ${f.file}`);
  for (const u of mcp.unreadable) out.push(`          ${u.file} does not parse, so it grants nothing: ${u.problem}`);
  if (agents.length > 0) {
    out.push(
      "  shell   an agent that runs commands reaches what you can: your files, your keys, every CLI you are logged in to",
    );
  }
  return out;
}

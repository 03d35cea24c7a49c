// Reachability is transitive: an agent with a shell (its own, or an MCP tool that runs commands) reaches every
// credential this user can read and every authenticated CLI; a server given a directory reaches what is under it.
import { isAbsolute, join, resolve } from "node:path";
import { toolWords } from "../resolve/mcp-tools.ts";
import type { DetectedAgent } from "./agents.ts";
import type { FoundCredential } from "./credentials.ts";
import type { AgentRow, CliRow, CredentialRow, ServerRow, Via } from "./types.ts";

const RUNS = new Set(["run", "execute", "exec", "start", "spawn", "invoke"]);
const WHAT_RUNS = new Set(["shell", "terminal", "bash", "command", "cmd", "process", "script"]);

/** A tool that runs commands: `run_command`, `execute_shell`, `startProcess`, or a bare `bash`. */
function runsCommands(tool: string): boolean {
  const ws = toolWords(tool);
  if (ws.length === 1) return ["shell", "bash", "exec", "terminal", "sh"].includes(ws[0] ?? "");
  return RUNS.has(ws[0] ?? "") && ws.slice(1).some((w) => WHAT_RUNS.has(w));
}

/** Directories a stdio server was handed on its command line (a filesystem server's roots). */
export function serverRoots(s: ServerRow, home: string, cwd: string): string[] {
  if (s.transport !== "stdio") return [];
  return (s.args ?? []).flatMap((a) => {
    if (a === "~" || a.startsWith("~/")) return [join(home, a.slice(1))];
    if (isAbsolute(a)) return [resolve(a)];
    if (a === "." || a.startsWith("./")) return [resolve(cwd, a)];
    return [];
  });
}

const under = (path: string, root: string) => path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);

/** Which servers belong to an agent: its client's, and for Ruflo the `.mcp.json` a swarm registers in. */
function serversOf(a: DetectedAgent, servers: readonly ServerRow[], repo: string): ServerRow[] {
  if (a.id === "ruflo") return servers.filter((s) => s.client === "claude-code" && s.file === join(repo, ".mcp.json"));
  return servers.filter((s) => s.client === a.client);
}

interface Reach {
  readonly agents: AgentRow[];
  readonly credentials: CredentialRow[];
}

export function reach(
  detected: readonly DetectedAgent[],
  names: ReadonlyMap<string, string>,
  servers: readonly ServerRow[],
  found: readonly FoundCredential[],
  clis: readonly CliRow[],
  loc: { home: string; cwd: string; repo: string },
): Reach {
  const via = new Map<string, Via[]>(found.map((c) => [c.path, []]));
  const agents = detected.map((a): AgentRow => {
    const own = serversOf(a, servers, loc.repo).filter((s) => !s.disabled);
    const runner = own.find((s) => s.tools?.some((t) => runsCommands(t.name)));
    const shell = a.shell.has
      ? a.shell
      : runner
        ? { has: true, why: `its MCP server ${runner.name} runs commands`, grantedBy: runner.file }
        : a.shell;
    const reached = new Set<string>();
    for (const c of found) {
      if (!c.usable) continue;
      const paths: Via[] = [];
      if (shell.has) paths.push({ agentId: a.id, through: "shell", grantedBy: shell.grantedBy });
      for (const s of own) {
        const reads = s.tools === null || s.tools.some((t) => t.class === "read");
        if (c.kind !== "socket" && reads && serverRoots(s, loc.home, loc.cwd).some((r) => under(c.path, r)))
          paths.push({ agentId: a.id, through: `mcp:${s.name}`, grantedBy: s.file });
      }
      if (paths.length > 0) reached.add(c.path);
      via.get(c.path)?.push(...paths);
    }
    return {
      id: a.id,
      name: names.get(a.id) ?? a.id,
      product: a.product,
      harness: a.harness,
      evidence: a.evidence,
      shell,
      servers: own.map((s) => s.id),
      reaches: [...reached].sort(),
      clis: shell.has ? clis.map((c) => c.cli) : [],
    };
  });
  const credentials = found.map((c) => ({ ...c, via: via.get(c.path) ?? [] }));
  return { agents, credentials };
}

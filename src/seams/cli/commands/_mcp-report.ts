// The human form of an `mcp wrap`/`unwrap` report; the JSON form is the report itself.
import { clientDef } from "../../../wire/clients.ts";
import type { ServerOutcome, ServerStatus } from "../../../wire/mcp-plan.ts";
import type { FileReport, McpReport } from "../../../wire/mcp-wrap.ts";
import type { Problem } from "../../../wire/read.ts";
import { pad } from "../output.ts";

const SERVER_WORDS: Readonly<Record<ServerStatus, string>> = {
  wrapped: "wrapped",
  "already-wrapped": "already wrapped",
  repointed: "repointed",
  remote: "remote",
  self: "memnox itself",
  "no-command": "no command",
  "left-alone": "left alone",
  unwrapped: "unwrapped",
  "not-wrapped": "not wrapped",
};

const SERVER_NOTES: Readonly<Partial<Record<ServerStatus, string>>> = {
  repointed: "the memnox binary it named is gone; it now starts this one",
  remote: "not wrapped: the proxy speaks stdio",
  self: "memnox-session is never put behind the proxy",
  "no-command": "not wrapped: nothing to put the proxy in front of",
};

const COUNT_WORDS: readonly [ServerStatus, string][] = [
  ["wrapped", "wrapped"],
  ["repointed", "repointed"],
  ["already-wrapped", "already wrapped"],
  ["unwrapped", "unwrapped"],
  ["remote", "remote and not wrapped"],
  ["self", "memnox-session left as it is"],
  ["no-command", "without a command"],
  ["left-alone", "left alone"],
];

const OWNER_WORDS: Readonly<Record<string, string>> = {
  "mcp-wrap": "the MCP wrapping",
  "agent-hook": "the hook",
  "mcp-session": "the session server",
  "login-path": "the PATH line",
  "native-permissions": "the Claude Code permissions",
};

/** Why only entries came out: memnox's other parts still in the file, or somebody's change since memnox wrote it. */
export function removedBecause(sharedWith: readonly string[] | undefined): string {
  if (!sharedWith?.length) return "the file changed since memnox wrote it, and everything else is kept";
  const parts = sharedWith.map((o) => OWNER_WORDS[o] ?? o).join(" and ");
  const many = sharedWith.length > 1;
  return `memnox's ${parts.replace(/^the /, "")} ${many ? "are" : "is"} still in it, and the original bytes come back when ${many ? "those go" : "that goes"} too`;
}

function where(p: Problem | undefined): string {
  if (!p) return "";
  return p.line !== undefined ? ` (line ${p.line}, column ${p.column ?? 1}: ${p.message})` : `: ${p.message}`;
}

function fileWords(f: FileReport, home: (path: string) => string): string {
  const backup = f.backup ? ` (backup ${home(f.backup)})` : "";
  switch (f.status) {
    case "changed":
      return `changed${backup}`;
    case "would-change":
      return "would change (dry run: nothing written)";
    case "unchanged":
      return "unchanged";
    case "unparsable":
      return `left alone, it does not parse${where(f.problem)}`;
    case "refused":
    case "left-alone":
      return `left alone${where(f.problem)}`;
    case "restored":
      return "restored byte for byte from the backup";
    case "removed":
      return `took out only memnox's wrapping: ${removedBecause(f.sharedWith)}${backup}`;
    case "missing":
      return "gone since memnox wrote it, nothing to restore";
  }
}

function serverLine(o: ServerOutcome): string {
  const s = o.server;
  const project = s.project !== undefined ? ` (project ${s.project})` : "";
  const what = s.url ?? [s.command, ...(s.args ?? [])].filter((x) => x !== undefined).join(" ");
  const note = SERVER_NOTES[o.status];
  const parts = [`${s.name}${project}`, what, note ? `(${note})` : ""].filter((p) => p !== "");
  return `  ${pad(SERVER_WORDS[o.status], 17)}${parts.join("  ")}`;
}

export function renderMcpReport(r: McpReport, homeDir: string): string[] {
  const home = (p: string) => (p.startsWith(`${homeDir}/`) ? `~${p.slice(homeDir.length)}` : p);
  if (r.files.length === 0) {
    return [r.action === "wrap" ? "found no MCP client config on this machine" : "nothing memnox wrapped is left"];
  }
  const lines: string[] = [];
  for (const f of r.files) {
    lines.push(`${clientDef(f.client).label}  ${home(f.file)}  ${fileWords(f, home)}`);
    for (const o of f.servers) if (o.status !== "not-wrapped") lines.push(serverLine(o));
  }
  const counts = COUNT_WORDS.filter(([k]) => r.counts[k]).map(([k, w]) => `${r.counts[k]} ${w}`);
  lines.push("", counts.length ? `${counts.join(", ")}.` : "no servers.");
  if (r.action === "wrap" && !r.dryRun && r.files.some((f) => f.status === "changed")) {
    lines.push("Restart the agents to start their servers through memnox. `memnox mcp unwrap` puts them back.");
  }
  return lines;
}

/** Non-zero when some file was left alone because it could not be read or safely rewritten. */
export function exitCodeOf(r: McpReport): number {
  return r.files.some((f) => f.status === "unparsable" || f.status === "refused") ? 1 : 0;
}

// The scan screen: agents, then what they reach (credentials lead), then servers, chains and what would not
// parse; the last two lines are the gap. Counts and names, never a percentage or a score.
import { principals } from "./harnesses.ts";
import { writeCapable } from "./outside.ts";
import type { Inventory, ServerRow } from "./types.ts";

const W = 20;
const pad = (s: string, w = W) => (s.length >= w ? `${s} ` : s + " ".repeat(w - s.length));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `~/…` for paths under the home directory. */
export function tilde(path: string, home: string): string {
  return path === home ? "~" : path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

export function toolSummary(s: ServerRow): string {
  if (s.tools === null) return s.toolsNote ?? "tools unknown";
  const w = s.tools.filter((t) => writeCapable(t.class)).length;
  return `${plural(s.tools.length, "tool")}, ${w} write-capable`;
}

function executionSurfaces(inv: Inventory): number {
  const served = new Set(inv.agents.flatMap((a) => a.servers));
  return inv.agents.filter((a) => a.shell.has).length + served.size + inv.clis.length;
}

function harnessLines(inv: Inventory): string[] {
  if (inv.harnesses.length === 0) return [];
  const nameOf = (id: string) => inv.agents.find((a) => a.id === id)?.name ?? id;
  const lines = [
    `${pad("HARNESSES")}${inv.harnesses.map((h) => nameOf(h.agentId)).join(", ")}   ${plural(principals(inv.harnesses), "principal")}`,
  ];
  for (const h of inv.harnesses) {
    const parts = [
      `${nameOf(h.agentId)}: ${plural(h.roles.length, "role")}`,
      ...(h.runtimes.length ? [`runs ${h.runtimes.join(", ")}`] : []),
      ...(h.hooks ? [plural(h.hooks, "hook file")] : []),
      ...(h.federated ? ["federated across machines"] : []),
    ];
    lines.push(`${pad("")}${parts.join(" · ")}`);
  }
  return lines;
}

/** Rows of cells aligned in columns (each at most 60 wide), the last cell left as it is. */
export function columns(rows: readonly (readonly string[])[], indent = "  "): string[] {
  const widths: number[] = [];
  for (const r of rows) {
    r.slice(0, -1).forEach((c, i) => {
      widths[i] = Math.min(60, Math.max(widths[i] ?? 0, c.length));
    });
  }
  return rows.map(
    (r) =>
      indent +
      r
        .map((c, i) => (i < r.length - 1 ? pad(c, (widths[i] ?? 0) + 2) : c))
        .join("")
        .trimEnd(),
  );
}

function reachLines(inv: Inventory): string[] {
  const reached = inv.credentials.filter((c) => c.via.length > 0);
  if (reached.length === 0)
    return ["REACHABLE FROM AN AGENT RIGHT NOW", "  nothing: no credential here is readable by an agent"];
  const rows = reached.map((c) => {
    const n = new Set(c.via.map((v) => v.agentId)).size;
    return [`! ${tilde(c.path, inv.home)}`, c.kind, plural(n, "agent")];
  });
  return ["REACHABLE FROM AN AGENT RIGHT NOW", ...columns(rows)];
}

function cliLines(inv: Inventory): string[] {
  if (inv.clis.length === 0) return [];
  const rows = inv.clis.map((c) => [
    c.cli,
    `${c.outside} verbs change something outside`,
    `${tilde(c.credential, inv.home)}${c.installed ? "" : "  (not on PATH)"}`,
  ]);
  return ["AUTHENTICATED CLIS", ...columns(rows)];
}

function serverLines(inv: Inventory): string[] {
  const shown = inv.mcpServers.filter((s) => inv.agents.some((a) => a.servers.includes(s.id)));
  if (shown.length === 0) return [];
  const hidden = shown.reduce((n, s) => n + s.hiddenByHost, 0);
  // Starting a server runs its code, so only a scan a person asked for does it; the others say what it would learn.
  const unstarted = inv.probed
    ? 0
    : shown.filter((s) => s.tools === null && s.transport === "stdio" && !s.disabled).length;
  const rows = shown.map((s) => [
    s.name,
    toolSummary(s),
    `${tilde(s.file, inv.home)}${s.wrapped ? "  (through memnox)" : ""}`,
  ]);
  return [
    "MCP SERVERS",
    ...columns(rows),
    ...(hidden
      ? [`  ${plural(hidden, "more tool")} hidden by the host's own filter, so they are not counted here`]
      : []),
    ...(unstarted > 0
      ? [`  ${plural(unstarted, "server")} not started, so their tools are unknown: memnox scan starts them to ask`]
      : []),
  ];
}

function chainLines(inv: Inventory): string[] {
  if (inv.chains.length === 0) return [];
  const nameOf = (id: string) => inv.agents.find((a) => a.id === id)?.name ?? id;
  return [
    "COMBINED CAPABILITY (no single tool does this)",
    ...inv.chains.flatMap((c) => [
      `  ! ${nameOf(c.agentId)}: ${c.consequence}`,
      `      ${c.steps.map((s) => `${s.server}.${s.tool}`).join(" → ")}`,
    ]),
  ];
}

function problemLines(inv: Inventory): string[] {
  if (inv.problems.length === 0) return [];
  return [
    "CONFIG THAT WILL NOT PARSE (it grants nothing here)",
    ...inv.problems.map((p) => {
      const at = p.line ? `:${p.line}${p.column ? `:${p.column}` : ""}` : "";
      return `  ! ${tilde(p.path, inv.home)}${at}  ${p.owner}: ${p.message}`;
    }),
  ];
}

/** The two counts the page exists for; a broken rule file makes the second a floor and is named. */
function gapLines(inv: Inventory): string[] {
  const c = inv.coverage;
  const lines = [`${plural(c.outside, "capability", "capabilities")} can change something outside this laptop.`];
  if (c.floor) {
    const files = [...new Set(c.ruleProblems.map((p) => p.file))].map((f) => tilde(f, inv.home));
    lines.push(
      `At least ${c.governed} of them ${c.governed === 1 ? "is" : "are"} governed by a policy: ${files.join(", ")} has ${plural(c.ruleProblems.length, "problem")}, so this count is a floor.`,
    );
  } else lines.push(`${c.governed} of them ${c.governed === 1 ? "is" : "are"} governed by a policy.`);
  return lines;
}

export function renderScan(inv: Inventory): string[] {
  const agents = inv.agents.filter((a) => !a.harness);
  const clients = inv.agents.filter((a) => a.servers.length > 0);
  const federated = inv.harnesses.some((h) => h.federated);
  return [
    agents.length || inv.harnesses.length
      ? `${pad("AI AGENTS")}${inv.agents.map((a) => a.name).join(", ")}`
      : "No AI agents found on this machine: no agent's config file is on this disk.",
    ...harnessLines(inv),
    ...(clients.length ? [`${pad("MCP CLIENTS")}${clients.map((a) => a.name).join(", ")}`] : []),
    ...reachLines(inv),
    ...cliLines(inv),
    ...serverLines(inv),
    ...chainLines(inv),
    ...problemLines(inv),
    ...(federated ? ["One of these works with agents on other machines; this scan sees only here."] : []),
    "",
    `${plural(executionSurfaces(inv), "execution surface")}.`,
    `${pad("memnox explain <thing>", 26)}where any of these comes from`,
    `${pad("memnox protect", 26)}put the dangerous ones behind ask or deny`,
    "",
    ...gapLines(inv),
  ];
}

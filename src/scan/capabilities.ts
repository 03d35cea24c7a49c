// What agents can do that changes something, each matched against the rules in force: the second number on the
// scan's last line counts rules that actually match what was listed, never rule files.
import type { Action } from "../core/action.ts";
import type { Instant } from "../policy/engine/index.ts";
import type { LoadedRuleSet } from "../policy/load/index.ts";
import { actionPattern, verbTable } from "../resolve/index.ts";
import { mcpActionName } from "../resolve/mcp-tools.ts";
import { verbOutside } from "./outside.ts";
import type { AgentRow, CapabilityRow, CliRow, Coverage, ServerRow } from "./types.ts";

type Draft = Omit<CapabilityRow, "governed" | "effect" | "rule">;

function merge(into: Map<string, Draft>, d: Draft): void {
  const key = `${d.via}:${d.action}`;
  const had = into.get(key);
  if (!had) {
    into.set(key, d);
    return;
  }
  into.set(key, {
    ...had,
    grantedBy: [...new Set([...had.grantedBy, ...d.grantedBy])].sort(),
    agents: [...new Set([...had.agents, ...d.agents])].sort(),
  });
}

function drafts(agents: readonly AgentRow[], servers: readonly ServerRow[], clis: readonly CliRow[]): Draft[] {
  const out = new Map<string, Draft>();
  for (const cli of clis) {
    const table = verbTable(cli.cli);
    const users = agents.filter((a) => a.clis.includes(cli.cli)).map((a) => a.id);
    if (!table || users.length === 0) continue;
    for (const v of table.verbs) {
      if (v.class === "read") continue;
      const action = actionPattern(v);
      const outside = verbOutside(cli.cli, v);
      merge(out, {
        action,
        class: v.class,
        via: "cli",
        source: cli.cli,
        grantedBy: [cli.credential],
        agents: users,
        outside,
      });
    }
  }
  for (const s of servers) {
    const users = agents.filter((a) => a.servers.includes(s.id)).map((a) => a.id);
    if (users.length === 0) continue;
    for (const t of s.tools ?? []) {
      if (t.class === "read") continue;
      const action = mcpActionName(s.name, t.name);
      merge(out, {
        action,
        class: t.class,
        via: "mcp",
        source: s.name,
        grantedBy: [s.file],
        agents: users,
        outside: t.outside,
      });
    }
  }
  return [...out.values()].sort((a, b) => a.action.localeCompare(b.action));
}

/** The rule in force for an action, asked as the gate asks it, with no state facts. */
export function verdictFor(rules: LoadedRuleSet, action: Action, cwd: string, at: Instant) {
  return rules.evaluate({ action, cwd, scope: "undeclared" }, [], at);
}

export function capabilities(
  agents: readonly AgentRow[],
  servers: readonly ServerRow[],
  clis: readonly CliRow[],
  rules: LoadedRuleSet,
  cwd: string,
  at: Instant,
): { rows: CapabilityRow[]; coverage: Coverage } {
  const rows = drafts(agents, servers, clis).map((d): CapabilityRow => {
    const action: Action = {
      name: d.action,
      class: d.class,
      targets: [],
      arguments: {},
      ...(d.via === "cli" ? { cli: d.source } : {}),
    };
    const v = verdictFor(rules, action, cwd, at);
    return { ...d, governed: v.governed, effect: v.effect, ...(v.rule ? { rule: v.rule.name } : {}) };
  });
  const outside = rows.filter((r) => r.outside);
  const coverage: Coverage = {
    outside: outside.length,
    governed: outside.filter((r) => r.governed).length,
    floor: rules.problems.length > 0,
    ruleSetHash: rules.hash,
    ruleFiles: rules.files,
    ruleProblems: rules.problems.map((p) => ({
      file: p.file,
      ...(p.line ? { line: p.line } : {}),
      message: p.message,
    })),
  };
  return { rows, coverage };
}

// One MCP server before you trust it: its tools split by what they do, who reaches it, and the rule each meets.
import type { ActionClass } from "../core/action.ts";
import type { Effect } from "../core/effect.ts";
import type { Instant } from "../policy/engine/index.ts";
import type { LoadedRuleSet } from "../policy/load/index.ts";
import { mcpActionName } from "../resolve/mcp-tools.ts";
import { verdictFor } from "./capabilities.ts";
import type { Inventory, ServerRow } from "./types.ts";

type Band = "high" | "medium" | "low" | "unknown";

interface ToolDetail {
  readonly name: string;
  readonly action: string;
  readonly class: ActionClass;
  readonly outside: boolean;
  readonly effect: Effect;
  readonly governed: boolean;
  readonly rule?: string;
}

interface ServerDetail {
  readonly server: ServerRow;
  readonly agents: readonly string[];
  readonly band: Band;
  readonly classes: Readonly<Record<ActionClass, number>>;
  readonly tools: readonly ToolDetail[];
}

/** high: it can destroy, or send outside; medium: it writes or runs what nobody classified; low: it only reads. */
function bandOf(s: ServerRow): Band {
  if (s.tools === null) return "unknown";
  if (s.tools.some((t) => t.class === "destructive" || (t.outside && t.class === "communication"))) return "high";
  if (s.tools.some((t) => t.class !== "read")) return "medium";
  return "low";
}

export function serverDetails(inv: Inventory, name: string, rules: LoadedRuleSet, at: Instant): ServerDetail[] {
  return inv.mcpServers
    .filter((s) => s.name === name)
    .map((s) => {
      const classes = { read: 0, write: 0, destructive: 0, communication: 0, unknown: 0 };
      const tools = (s.tools ?? []).map((t): ToolDetail => {
        classes[t.class] += 1;
        const action = mcpActionName(s.name, t.name);
        const v = verdictFor(rules, { name: action, class: t.class, targets: [], arguments: {} }, inv.cwd, at);
        return {
          name: t.name,
          action,
          class: t.class,
          outside: t.outside,
          effect: v.effect,
          governed: v.governed,
          ...(v.rule ? { rule: v.rule.name } : {}),
        };
      });
      const agents = inv.agents.filter((a) => a.servers.includes(s.id)).map((a) => a.name);
      return { server: s, agents, band: bandOf(s), classes, tools };
    });
}

// One drift the scan comparison found, in the words a config row, a log line and a notice say. Pure.
import type { Change } from "../../scan/diff.ts";
import type { Inventory } from "../../scan/types.ts";
import type { ConfigChange } from "../passes.ts";

interface Words {
  readonly what: string;
  readonly before: string;
  readonly after: string;
}

/** For a server that arrived: how many of its capabilities a rule in force covers (said as the spec's watch does). */
function coverage(inv: Inventory, server: string): string {
  const caps = inv.capabilities.filter((c) => c.via === "mcp" && c.source === server);
  if (caps.length === 0) return "";
  const governed = caps.filter((c) => c.governed).length;
  if (governed === 0) return "; no rule covers any of them";
  return `; rules cover ${governed} of ${caps.length}`;
}

function words(c: Change, inv: Inventory): Words {
  const added = c.sign === "+";
  switch (c.kind) {
    case "agent":
      return added
        ? { what: `new agent ${c.label}`, before: `no ${c.label} here`, after: `${c.label}: ${c.detail}` }
        : { what: `agent ${c.label} removed`, before: `${c.label} here`, after: `no ${c.label} here` };
    case "shell":
      return added
        ? { what: `${c.label} gained a shell`, before: `${c.label} had no shell`, after: c.detail }
        : { what: `${c.label} lost its shell`, before: `${c.label} had a shell`, after: c.detail };
    case "server":
      return added
        ? {
            what: `new MCP server ${c.label}`,
            before: `no MCP server ${c.label}`,
            after: `MCP server ${c.label}: ${c.detail}${coverage(inv, c.label)}`,
          }
        : { what: `MCP server ${c.label} removed`, before: `MCP server ${c.label}`, after: "no such server" };
    case "tool":
      return added
        ? {
            what: `new ${c.writeCapable ? "write-capable " : ""}tool ${c.label}`,
            before: `no tool ${c.label}`,
            after: `tool ${c.label} (${c.detail})`,
          }
        : { what: `tool ${c.label} removed`, before: `tool ${c.label}`, after: "no such tool" };
    case "secret":
      return added
        ? { what: `credential ${c.label} became reachable`, before: "out of reach or fewer agents", after: c.detail }
        : { what: `credential ${c.label} out of reach`, before: "reachable by agents", after: c.detail };
    case "cli":
      return added
        ? { what: `CLI ${c.label} authenticated`, before: "not authenticated", after: c.detail }
        : { what: `CLI ${c.label} no longer authenticated`, before: "authenticated", after: c.detail };
  }
}

/** The config row for one drift: `drift.widened` or `drift.narrowed`, so the two are never one count. */
export function driftChange(c: Change, inv: Inventory): ConfigChange {
  const w = words(c, inv);
  const direction = c.widens ? "widened" : "narrowed";
  return {
    operation: `drift.${direction}`,
    file: c.file ?? inv.home,
    before: w.before,
    after: w.after,
    reason: `authority ${direction}: ${w.what}`,
  };
}

/** A notice kind per kind of change and direction: one notice each, at most three a pass (the runner counts). */
export function driftNoticeKind(c: Change): string {
  return `drift-${c.kind}-${c.widens ? "widened" : "narrowed"}`;
}

export function driftNotice(c: Change, inv: Inventory): string {
  const w = words(c, inv);
  const head = c.widens ? "An agent can now reach more here" : "An agent reaches less here";
  return `${head}: ${w.what} (${w.after}). memnox timeline has it.`;
}

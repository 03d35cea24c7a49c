// One page of `tools/list`: each tool classified for the manifest, and the ones the agent may see.

import { isRecord } from "../../core/record.ts";
import { classifyTool, toolHints } from "../../resolve/mcp-tools.ts";
import type { ManifestTool } from "../../state/mcp-manifest.ts";
import type { Visibility } from "./visibility.ts";

function manifestTool(tool: Record<string, unknown>, hiddenBy: string | undefined): ManifestTool | undefined {
  const name = tool.name;
  if (typeof name !== "string") return undefined;
  const c = classifyTool(name, tool.annotations);
  const hints = toolHints(tool.annotations);
  const title = typeof tool.title === "string" ? tool.title : undefined;
  return {
    name,
    ...(title ? { title: title.slice(0, 200) } : {}),
    class: c.class,
    basis: c.basis,
    hidden: hiddenBy !== undefined,
    ...(hiddenBy ? { hiddenBy } : {}),
    ...(hints && Object.keys(hints).length > 0 ? { hints } : {}),
  };
}

/** One page of `tools/list`: every tool classified for the manifest, and the ones the agent may see. */
export function sortPage(
  tools: readonly unknown[],
  visibility: Visibility,
): { entries: ManifestTool[]; shown: unknown[] } {
  const entries: ManifestTool[] = [];
  const shown: unknown[] = [];
  for (const tool of tools) {
    const name = isRecord(tool) ? tool.name : undefined;
    const hiddenBy = typeof name === "string" ? visibility.hiddenBy(name) : undefined;
    const entry = isRecord(tool) ? manifestTool(tool, hiddenBy) : undefined;
    if (entry) entries.push(entry);
    if (!hiddenBy) shown.push(tool);
  }
  return { entries, shown };
}

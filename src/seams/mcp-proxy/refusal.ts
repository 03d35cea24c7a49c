// The refusal a model reads: the policy, the reason and at most one alternative, and nothing it could take as an order.
import type { Alternative, RuleRef } from "../../core/verdict.ts";
import { type Json, SERVER_INFO_KEY } from "./jsonrpc.ts";

export interface Refusal {
  /** `mcp.<server>.<tool>` */
  readonly action: string;
  readonly reason: string;
  readonly rule?: RuleRef;
  /** Names the policy when no rule decided (a hidden tool, memnox itself). */
  readonly policy?: string;
  readonly alternative?: Alternative;
}

function refusalText(r: Refusal): string {
  const policy = r.rule ? `${r.rule.name} (${r.rule.file}:${r.rule.line})` : (r.policy ?? "memnox");
  const lines = [`memnox refused ${r.action}`, `policy: ${oneLine(policy)}`, `reason: ${oneLine(r.reason)}`];
  const alt = r.alternative;
  if (alt) {
    const on = alt.resource ? ` on ${alt.resource}` : "";
    lines.push(`alternative: ${oneLine(`${alt.action}${on}: ${alt.note}`)}`);
  }
  return lines.join("\n");
}

/** A normal tool result with isError, as MCP asks for execution refusals; the modern era also wants resultType. */
export function refusalResult(r: Refusal, modern: boolean, serverInfo: unknown): Json {
  const base: Json = { content: [{ type: "text", text: refusalText(r) }], isError: true };
  if (!modern) return base;
  return { ...base, resultType: "complete", ...(serverInfo ? { _meta: { [SERVER_INFO_KEY]: serverInfo } } : {}) };
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

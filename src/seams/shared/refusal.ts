// The words a shell seam prints when memnox stops or holds a call: reason, rule and what to use instead.
import { maskSecrets } from "../../core/secrets.ts";
import type { GateAnswer } from "../../gate/types.ts";

export const DENY_EXIT = 126;

export function refusalText(what: string, a: GateAnswer): string {
  const lines = [`memnox: ${maskSecrets(what)} was refused: ${a.reason}`];
  if (a.rule) lines.push(`  rule ${a.rule.name} (${a.rule.file}:${a.rule.line})`);
  if (a.alternative) lines.push(`  instead: ${a.alternative.note}`);
  // Typed by a person at their own terminal, never by an agent: from an agent's seat the command is refused.
  if (a.allowOnce)
    lines.push(
      `  a person who wants it anyway can let this exact call through once, from their own terminal: memnox allow-once ${a.allowOnce}`,
    );
  return `${lines.join("\n")}\n`;
}

export function askText(what: string, a: GateAnswer): string[] {
  const lines = [`[memnox] ${maskSecrets(what)}`, `  asks: ${a.reason}`];
  if (a.rule) lines.push(`  rule ${a.rule.name} (${a.rule.file}:${a.rule.line})`);
  return lines;
}

export function adviseText(what: string, a: GateAnswer): string {
  return `memnox (${a.mode}): in enforce, ${maskSecrets(what)} would ${a.enforceEffect === "deny" ? "be refused" : "ask first"}: ${a.reason}\n`;
}

/** Who must answer: a person, or the named approvers and how many of them. */
export function whoMustSay(a: GateAnswer): string {
  const q = a.quorum;
  if (!q) return "a person must say yes";
  const named = q.approvers.length > 0 ? ` of ${q.approvers.join(", ")}` : "";
  return q.minApprovals > 1 ? `${q.minApprovals} people${named} must say yes` : `one${named} must say yes`;
}

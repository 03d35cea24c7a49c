// `memnox why [id]`: rule, file and line, reason, alternative and evidence, read from the row and never re-evaluated.
import type { StateFact } from "../../core/request.ts";
import type { LedgerRow } from "../row.ts";
import type { Ledger } from "../store.ts";
import { type Entry, entryJson, joinEntries } from "./entries.ts";
import { clock } from "./format.ts";
import { childrenOf, rowByIdPrefix } from "./window.ts";

// A call to memnox's own session tools is never what a "why" asks about: the agent asking is not the refusal before it.
const NOTABLE =
  "kind = 'decision' AND (effect <> 'allow' OR enforce_effect <> 'allow') AND operation NOT LIKE 'mcp.memnox-session.%'";

/**
 * The row and what came of it: the given id (a prefix will do), or the last decision that did not simply proceed
 * (`which: "any"`: the last decision at all), in `session` when one is given.
 */
export function findEntry(
  ledger: Ledger,
  idPrefix?: string,
  session?: string,
  which: "notable" | "any" = "notable",
  agent?: string,
): Entry | undefined {
  let row: LedgerRow | undefined;
  const where = which === "notable" ? NOTABLE : "kind = 'decision'";
  if (idPrefix) row = rowByIdPrefix(ledger, idPrefix);
  else if (agent)
    [row] = ledger.select(`SELECT * FROM events WHERE ${where} AND agent = ? ORDER BY seq DESC LIMIT 1`, agent);
  else if (session)
    [row] = ledger.select(`SELECT * FROM events WHERE ${where} AND session = ? ORDER BY seq DESC LIMIT 1`, session);
  else [row] = ledger.select(`SELECT * FROM events WHERE ${where} ORDER BY seq DESC LIMIT 1`);
  if (!row) return undefined;
  if (row.kind !== "decision" && row.parent) {
    const [parent] = ledger.select("SELECT * FROM events WHERE id = ?", row.parent);
    if (parent) row = parent;
  }
  const [entry] = joinEntries([row], childrenOf(ledger, [row.id]));
  return entry;
}

export function whyJson(e: Entry): Record<string, unknown> {
  const r = e.row;
  return {
    event: entryJson(e),
    rule: r.ruleId ? { name: r.ruleId, file: r.ruleFile ?? null, line: r.ruleLine ?? null } : null,
    reason: r.reason ?? null,
    alternative: r.alternative ?? null,
    evidence: evidence(e),
  };
}

function evidence(e: Entry): Record<string, unknown> {
  const r = e.row;
  const q = r.request;
  return {
    mode: r.mode ?? null,
    effect: r.effect ?? null,
    enforceEffect: r.enforceEffect ?? null,
    governed: r.governed ?? null,
    source: r.detail?.source ?? null,
    // A refused read of a credential: what it opens, from the scan's reach on this machine.
    wouldReach: typeof r.detail?.wouldReach === "string" ? r.detail.wouldReach : null,
    facts: q?.facts ?? [],
    argumentMatches: q?.argumentMatches ?? [],
    scope: q?.scope ?? null,
    targets: q?.targets ?? [],
    branch: q?.branch ?? null,
    environment: q?.environment ?? null,
    // Every environment ruled on; `environment` is the one whose verdict decided.
    environments: q?.environments ?? (q?.environment ? [q.environment] : []),
    policyHash: r.policyHash ?? null,
    // Decided on the cached workspace bundle while the workspace could not be reached.
    stale: r.stale === true,
    ruleFiles: q?.ruleFiles ?? [],
    answer: e.answer
      ? { effect: e.answer.effect ?? null, by: e.answer.detail?.by ?? null, at: e.answer.occurredAt }
      : null,
  };
}

export function renderWhy(e: Entry): string[] {
  const r = e.row;
  const who = [r.agent, r.agentSessionId, clock(r.occurredAt), r.mode].filter(Boolean).join(" · ");
  const lines = [`${r.effect ?? "-"}  ${r.operation}  ${r.resourceRef ?? ""}`.trimEnd(), `        ${who}`];
  if (r.enforceEffect && r.enforceEffect !== r.effect) lines.push(`would   ${r.enforceEffect} in enforce`);
  const where = r.ruleFile ? ` (${r.ruleFile}${r.ruleLine ? `:${r.ruleLine}` : ""})` : "";
  lines.push(r.ruleId ? `rule    ${r.ruleId}${where}` : `rule    none${r.governed === false ? " (ungoverned)" : ""}`);
  if (r.reason) lines.push(`reason  ${r.reason}`);
  const envs = r.request?.environments ?? [];
  if (envs.length > 1) lines.push(`env     ${r.request?.environment ?? "-"}, the strictest of ${envs.join(", ")}`);
  if (r.alternative) lines.push(`instead ${r.alternative.action}: ${r.alternative.note}`);
  if (typeof r.detail?.wouldReach === "string")
    lines.push(`reach   had it been read, it opens: ${r.detail.wouldReach}`);
  if (r.stale) lines.push("stale   decided on the cached workspace rules while the workspace could not be reached");
  const ev = evidenceWords(r.request?.facts ?? [], r.request?.argumentMatches ?? []);
  if (ev.length) lines.push(`evidence ${ev.join("; ")}`);
  if (e.answer)
    lines.push(
      `answer  ${e.answer.effect === "allow" ? "granted" : "refused"} by ${e.answer.detail?.by ?? "a person"}`,
    );
  lines.push(`id      ${r.id}${r.policyHash ? ` · rules ${r.policyHash.slice(0, 16)}` : ""}`);
  return lines;
}

function evidenceWords(facts: readonly StateFact[], args: readonly { argument: string; pattern: string }[]): string[] {
  const out = facts.map((f) => {
    const extra = [f.reason, f.by].filter(Boolean).join(", ");
    return `${f.kind}:${f.subject} until ${f.expiresAt}${extra ? ` (${extra})` : ""}`;
  });
  for (const a of args) out.push(`argument \`${a.argument}\` matched \`${a.pattern}\``);
  return out;
}

export function nothingNotable(): string[] {
  return ["nothing has been refused or asked about yet: every recorded action simply proceeded"];
}

// How readers print a row for a person; the JSON is the contract, this wording is not.
import type { LedgerRow } from "../row.ts";
import type { Entry } from "./entries.ts";

/** `2026-11-30 11:58:02` (UTC) */
export function clock(iso: string): string {
  return iso.replace("T", " ").slice(0, 19);
}

/** Enough of an id to paste into `memnox trace`. */
export function shortId(id: string): string {
  return id.slice(0, 12);
}

export function took(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function cell(s: string, width: number): string {
  const t = s.length > width ? `${s.slice(0, width - 1)}…` : s;
  return t.padEnd(width);
}

/** What happened, in a few words: the exit, the answer, what enforce would have done. */
function notes(e: Entry): string[] {
  const r = e.row;
  const out: string[] = [];
  if (r.enforceEffect && r.enforceEffect !== r.effect) out.push(`would ${r.enforceEffect} (${r.mode ?? "observe"})`);
  if (e.answer) out.push(`${e.answer.effect === "allow" ? "granted" : "refused"}${by(e.answer)}`);
  else if (e.final === "held") out.push("held for a person");
  if (e.outcome?.exitCode !== undefined) out.push(`exit ${e.outcome.exitCode}`);
  if (e.outcome?.durationMs !== undefined) out.push(took(e.outcome.durationMs));
  if (r.governed === false && r.kind === "decision") out.push("ungoverned");
  return out;
}

function by(r: LedgerRow): string {
  const who = r.detail?.by;
  return typeof who === "string" && who ? ` by ${who}` : "";
}

/** One line for any entry: decisions by verdict, everything else by kind and words. */
export function entryLine(e: Entry): string {
  const r = e.row;
  const when = clock(r.occurredAt);
  if (r.kind !== "decision") {
    const what = r.kind === "outcome" || r.kind === "answer" ? `${r.kind} of ${shortId(r.parent ?? "")}` : r.reason;
    return `${when}  ${cell(r.kind, 8)} ${cell(r.operation, 24)} ${what ?? ""}`.trimEnd();
  }
  const effect = r.effect ?? "-";
  const target = r.resourceRef ?? "";
  const extra = notes(e).join(" · ");
  return `${when}  ${cell(effect, 8)} ${cell(r.operation, 24)} ${cell(target, 28)} ${shortId(r.id)}  ${extra}`.trimEnd();
}

export function sessionHeader(r: LedgerRow): string {
  if (!r.agentSessionId && !r.agent) return `── ${r.kind === "decision" ? "no session" : "this machine"}`;
  return `── ${[r.agent, r.agentSessionId].filter(Boolean).join(" · ")}`;
}

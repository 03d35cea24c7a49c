// `memnox trace <id-prefix>`: one action end to end, from the decision through a person's answer to its exit.
import type { Paths } from "../../ports/paths.ts";
import { transcriptPath, transcriptTail } from "../transcripts.ts";
import { type Entry, entryJson } from "./entries.ts";
import { clock, took } from "./format.ts";

interface Trace {
  readonly entry: Entry;
  readonly transcript: { readonly file: string; readonly tail: readonly string[] } | null;
}

export function traceOf(entry: Entry, paths: Pick<Paths, "transcripts">): Trace {
  const session = entry.row.agentSessionId;
  const tail = session ? transcriptTail(paths, session) : undefined;
  const file = session ? transcriptPath(paths, session) : undefined;
  return { entry, transcript: tail && file ? { file, tail } : null };
}

export function traceJson(t: Trace): Record<string, unknown> {
  const r = t.entry.row;
  const o = t.entry.outcome;
  return {
    event: entryJson(t.entry),
    rule: r.ruleId ? { name: r.ruleId, file: r.ruleFile ?? null, line: r.ruleLine ?? null } : null,
    exitCode: o?.exitCode ?? r.exitCode ?? null,
    durationMs: o?.durationMs ?? r.durationMs ?? null,
    argsDigest: r.argsDigest ?? null,
    transcript: t.transcript,
  };
}

export function renderTrace(t: Trace): string[] {
  const r = t.entry.row;
  const o = t.entry.outcome;
  const a = t.entry.answer;
  const line = (k: string, v: string | number | undefined | null) =>
    v === undefined || v === null || v === "" ? [] : [`${k.padEnd(9)}${v}`];
  const decision = [
    r.effect,
    r.mode ? `(${r.mode})` : "",
    r.enforceEffect && r.enforceEffect !== r.effect ? `enforce would ${r.enforceEffect}` : "",
  ];
  const exit = o?.exitCode ?? r.exitCode;
  const ms = o?.durationMs ?? r.durationMs;
  const lines = [
    ...line("action", `${r.operation}${r.surface ? `  (${r.surface})` : ""}`),
    ...line("target", r.resourceRef),
    ...line("cwd", r.cwd),
    ...line("agent", r.agent),
    ...line("session", r.agentSessionId),
    ...line("at", clock(r.occurredAt)),
    ...line("decision", decision.filter(Boolean).join(" ")),
    ...line("reason", r.reason),
    ...line(
      "rule",
      r.ruleId ? `${r.ruleId}${r.ruleFile ? ` (${r.ruleFile}${r.ruleLine ? `:${r.ruleLine}` : ""})` : ""}` : undefined,
    ),
    ...line("instead", r.alternative ? `${r.alternative.action}: ${r.alternative.note}` : undefined),
    ...line(
      "reach",
      typeof r.detail?.wouldReach === "string" ? `had it been read, it opens: ${r.detail.wouldReach}` : undefined,
    ),
    ...line(
      "answer",
      a
        ? `${a.effect === "allow" ? "granted" : "refused"} by ${a.detail?.by ?? "a person"} at ${clock(a.occurredAt)}`
        : undefined,
    ),
    ...line("final", t.entry.final),
    ...line("exit", exit),
    ...line("took", ms === undefined ? undefined : took(ms)),
    ...line("args", r.argsDigest?.slice(0, 16)),
    ...line("id", `${r.id}  seq ${r.seq}  hash ${r.hash.slice(0, 16)}`),
  ];
  if (t.transcript)
    lines.push(
      "",
      `transcript (last ${t.transcript.tail.length} lines of ${t.transcript.file}):`,
      ...t.transcript.tail.map((l) => `  ${l}`),
    );
  return lines;
}

// `memnox timeline`: every row in chain order, decisions joined with their outcomes, grouped into session runs.
import { MemnoxError } from "../../core/errors.ts";
import type { LedgerRow } from "../row.ts";
import type { Ledger } from "../store.ts";
import { type Entry, entryJson, joinEntries } from "./entries.ts";
import { clock, entryLine, sessionHeader } from "./format.ts";
import { childrenOf, rowsIn, type Window } from "./window.ts";

const ONLY = ["allow", "ask", "deny", "blocked"] as const;
type Only = (typeof ONLY)[number];

export interface TimelineQuery {
  readonly window: Window;
  readonly agent?: string;
  readonly session?: string;
  readonly only?: Only;
}

interface SessionSummary {
  readonly agentSessionId: string | null;
  readonly agent: string | null;
  readonly actions: number;
  readonly blocked: number;
  readonly firstAt: string;
  readonly lastAt: string;
}

export interface Timeline {
  readonly query: TimelineQuery;
  readonly entries: readonly Entry[];
  readonly sessions: readonly SessionSummary[];
}

export function parseOnly(v: string): Only {
  if ((ONLY as readonly string[]).includes(v)) return v as Only;
  throw new MemnoxError("usage", `\`--only ${v}\` is not one of ${ONLY.join(", ")}`);
}

export function buildTimeline(ledger: Ledger, q: TimelineQuery): Timeline {
  const rows = rowsIn(ledger, q.window);
  // Without an upper bound every child of a decision in the window is in the window too.
  const late = q.window.until ? childrenOf(ledger, decisionIds(rows)) : [];
  const entries = joinEntries(rows, late).filter((e) => matches(e, q));
  return { query: q, entries, sessions: summarize(entries) };
}

function decisionIds(rows: readonly LedgerRow[]): string[] {
  return rows.filter((r) => r.kind === "decision").map((r) => r.id);
}

/** `--only` matches the verdict or what the call got (in observe the two differ); `blocked` what finally happened. */
export function matches(e: Entry, q: Pick<TimelineQuery, "agent" | "session" | "only">): boolean {
  const r = e.row;
  if (q.agent !== undefined && r.agent !== q.agent) return false;
  if (q.session !== undefined && r.agentSessionId !== q.session) return false;
  if (q.only === undefined) return true;
  if (r.kind !== "decision") return false;
  if (q.only === "blocked") return e.final === "blocked";
  return r.effect === q.only || r.enforceEffect === q.only;
}

function summarize(entries: readonly Entry[]): SessionSummary[] {
  const by = new Map<string, SessionSummary>();
  for (const e of entries) {
    const r = e.row;
    if (r.kind !== "decision" || !r.agentSessionId) continue;
    const s = by.get(r.agentSessionId);
    by.set(r.agentSessionId, {
      agentSessionId: r.agentSessionId,
      agent: s?.agent ?? r.agent ?? null,
      actions: (s?.actions ?? 0) + 1,
      blocked: (s?.blocked ?? 0) + (e.final === "blocked" ? 1 : 0),
      firstAt: s?.firstAt ?? r.occurredAt,
      lastAt: r.occurredAt,
    });
  }
  return [...by.values()];
}

export function timelineJson(t: Timeline): Record<string, unknown> {
  return {
    range: { since: t.query.window.since ?? null, until: t.query.window.until ?? null },
    filters: { agent: t.query.agent ?? null, session: t.query.session ?? null, only: t.query.only ?? null },
    count: t.entries.length,
    sessions: t.sessions,
    events: t.entries.map(entryJson),
  };
}

/** A header each time the session changes, so interleaved sessions stay readable and the order stays true. */
export function renderTimeline(t: Timeline): string[] {
  if (t.entries.length === 0)
    return [`nothing recorded${t.query.window.since ? ` since ${t.query.window.since}` : ""}`];
  const lines: string[] = [];
  let group: string | undefined;
  for (const e of t.entries) {
    const key = `${e.row.agent ?? ""}\u0000${e.row.agentSessionId ?? ""}`;
    if (key !== group) {
      lines.push(sessionHeader(e.row));
      group = key;
    }
    lines.push(entryLine(e));
  }
  const actions = t.entries.filter((e) => e.row.kind === "decision").length;
  const first = t.entries[0]?.row.occurredAt ?? "";
  const last = t.entries.at(-1)?.row.occurredAt ?? "";
  lines.push("", `${actions} action(s) in ${t.sessions.length} session(s), ${clock(first)} to ${clock(last)}`);
  return lines;
}

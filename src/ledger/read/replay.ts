// `memnox replay [session]`: one session step by step, the five actions before each failure or refusal marked.
import { MemnoxError } from "../../core/errors.ts";
import type { Ledger } from "../store.ts";
import { type Entry, entryJson, joinEntries } from "./entries.ts";
import { clock, entryLine, shortId } from "./format.ts";
import { asideLines, NO_ASIDES, type ReplayAsides } from "./replay-asides.ts";
import { childrenOf, sessionRows } from "./window.ts";

const MARKED_BEFORE = 5;

interface ReplayStep {
  readonly entry: Entry;
  /** 1-based position among the session's actions; null for rows that are not actions. */
  readonly step: number | null;
  readonly trigger: "failure" | "refusal" | "breaker" | null;
  /** Ids of the failures, refusals and circuit-breaker trips this action came shortly before. */
  readonly before: readonly string[];
}

export interface Replay {
  readonly session: string;
  readonly agent: string | null;
  readonly steps: readonly ReplayStep[];
  /** Read from beside the ledger: held calls still waiting, pause records, milestones. */
  readonly asides: ReplayAsides;
}

/** The named session (an unambiguous prefix will do), or the most recent one. */
export function pickSession(ledger: Ledger, given?: string): string {
  if (given) {
    const exact = ledger.db.query<{ s: string }, [string]>("SELECT session AS s FROM events WHERE session = ? LIMIT 1");
    if (exact.get(given)) return given;
    const like = ledger.db
      .query<{ s: string }, [string, string]>(
        "SELECT DISTINCT session AS s FROM events WHERE session >= ? AND session < ? LIMIT 6",
      )
      .all(given, `${given}\u{10FFFF}`);
    if (like.length === 1 && like[0]) return like[0].s;
    if (like.length > 1)
      throw new MemnoxError("usage", `\`${given}\` matches ${like.length} sessions`, like.map((l) => l.s).join(", "));
    throw new MemnoxError("not_found", `no session \`${given}\` in the ledger`, "memnox timeline lists the sessions");
  }
  const last = ledger.db
    .query<{ s: string }, []>("SELECT session AS s FROM events WHERE session IS NOT NULL ORDER BY seq DESC LIMIT 1")
    .get();
  if (!last) throw new MemnoxError("not_found", "no session has been recorded yet");
  return last.s;
}

/** The newest session `agent` recorded, or undefined when it has none in the ledger. */
export function newestSessionOf(ledger: Ledger, agent: string): string | undefined {
  return (
    ledger.db
      .query<{ s: string }, [string]>(
        "SELECT session AS s FROM events WHERE agent = ? AND session IS NOT NULL ORDER BY seq DESC LIMIT 1",
      )
      .get(agent)?.s ?? undefined
  );
}

export function buildReplay(ledger: Ledger, session: string, asides: ReplayAsides = NO_ASIDES): Replay {
  const rows = sessionRows(ledger, session);
  const entries = joinEntries(
    rows,
    childrenOf(
      ledger,
      rows.filter((r) => r.kind === "decision").map((r) => r.id),
    ),
  );
  const actions = entries.filter((e) => e.row.kind === "decision");
  const before = new Map<string, string[]>();
  // A trip is marked like a failure: the five actions before it, wherever the trip row falls among them.
  let taken = 0;
  for (const e of entries) {
    const isAction = e.row.kind === "decision";
    if (triggerOf(e)) {
      for (const prior of actions.slice(Math.max(0, taken - MARKED_BEFORE), taken)) {
        const list = before.get(prior.row.id) ?? [];
        list.push(e.row.id);
        before.set(prior.row.id, list);
      }
    }
    if (isAction) taken += 1;
  }
  const stepNo = new Map(actions.map((e, i) => [e.row.id, i + 1]));
  return {
    session,
    agent: actions.find((e) => e.row.agent)?.row.agent ?? null,
    steps: entries.map((e) => ({
      entry: e,
      step: stepNo.get(e.row.id) ?? null,
      trigger: triggerOf(e),
      before: before.get(e.row.id) ?? [],
    })),
    asides,
  };
}

/** The state row the circuit breaker writes when it pauses a session. */
const BREAKER_TRIP = "memnox.paused";

function triggerOf(e: Entry): ReplayStep["trigger"] {
  if (e.row.kind === "state" && e.row.operation === BREAKER_TRIP) return "breaker";
  if (e.final === "failed") return "failure";
  if (e.final === "blocked") return "refusal";
  return null;
}

export function replayJson(r: Replay): Record<string, unknown> {
  const actions = r.steps.filter((s) => s.step !== null);
  return {
    session: r.session,
    agent: r.agent,
    from: r.steps[0]?.entry.row.occurredAt ?? null,
    to: r.steps.at(-1)?.entry.row.occurredAt ?? null,
    actions: actions.length,
    failures: actions.filter((s) => s.trigger === "failure").length,
    refusals: actions.filter((s) => s.trigger === "refusal").length,
    trips: r.steps.filter((s) => s.trigger === "breaker").length,
    steps: r.steps.map((s) => ({
      step: s.step,
      marked: s.before.length > 0,
      trigger: s.trigger,
      before: s.before,
      ...entryJson(s.entry),
    })),
    waiting: r.asides.waiting,
    pauses: r.asides.pauses,
    milestones: r.asides.milestones,
  };
}

export function renderReplay(r: Replay): string[] {
  const j = replayJson(r);
  const paused = j.trips ? `, paused ${j.trips} time(s) by the circuit breaker` : "";
  const head = `session ${r.session}${r.agent ? ` · ${r.agent}` : ""} · ${j.actions} action(s), ${j.failures} failed, ${j.refusals} refused${paused}`;
  const waiting = r.asides.waiting.length;
  const lines = [waiting ? `${head}, ${waiting} waiting for a person` : head];
  const asides = asideLines(r.asides);
  // Asides go in where their time falls among the rows, so a hold sits right under the call it holds.
  const flush = (until?: string) => {
    while (asides[0] && (until === undefined || asides[0].at < until)) lines.push(`       ${asides.shift()?.text}`);
  };
  // The actions that led up to a trip are what a person reads it for: they keep `>` even when they failed too.
  const trips = new Set(r.steps.filter((s) => s.trigger === "breaker").map((s) => s.entry.row.id));
  for (const s of r.steps) {
    flush(s.entry.row.occurredAt);
    const led = s.before.some((id) => trips.has(id));
    const mark = led ? ">" : s.trigger ? "!" : s.before.length ? ">" : " ";
    const no = s.step === null ? "    " : String(s.step).padStart(4);
    lines.push(`${mark}${no}  ${entryLine(s.entry)}`);
    if (s.trigger || s.before.length) {
      // A state row's line already carries its reason.
      const why = s.entry.row.reason && s.entry.row.kind !== "state" ? `${s.entry.row.reason} · ` : "";
      lines.push(`        ${why}memnox trace ${shortId(s.entry.row.id)}`);
    }
  }
  flush();
  if (r.steps.length)
    lines.push(
      "",
      `from ${clock(r.steps[0]?.entry.row.occurredAt ?? "")} to ${clock(r.steps.at(-1)?.entry.row.occurredAt ?? "")}`,
    );
  return lines;
}

// `memnox report`: counts by agent, verdict and class, and what was redone (the same action again after a failure).
import type { Entry } from "./entries.ts";
import { shortId } from "./format.ts";
import type { Window } from "./window.ts";

type Counts = Record<string, number>;

interface AgentCounts {
  readonly agent: string;
  readonly actions: number;
  readonly verdicts: Counts;
  readonly final: Counts;
}

interface Redone {
  readonly operation: string;
  readonly resourceRef: string | null;
  readonly agent: string | null;
  readonly agentSessionId: string | null;
  /** What happened the first time: it failed, or it was refused. */
  readonly after: "failed" | "blocked";
  readonly firstFailedId: string;
  readonly repeats: number;
  readonly lastId: string;
  readonly lastFinal: string | null;
}

export interface Report {
  readonly range: { since: string | null; until: string | null };
  readonly actions: number;
  readonly verdicts: Counts;
  readonly wouldHave: Counts;
  readonly final: Counts;
  readonly byClass: Counts;
  readonly byAgent: readonly AgentCounts[];
  readonly redone: { readonly actions: number; readonly repeats: number; readonly list: readonly Redone[] };
}

export function buildReport(entries: readonly Entry[], w: Window): Report {
  const decisions = entries.filter((e) => e.row.kind === "decision");
  const verdicts: Counts = {};
  const wouldHave: Counts = {};
  const final: Counts = {};
  const byClass: Counts = {};
  const agents = new Map<string, { actions: number; verdicts: Counts; final: Counts }>();
  for (const e of decisions) {
    const r = e.row;
    bump(verdicts, r.effect ?? "none");
    bump(wouldHave, r.enforceEffect ?? r.effect ?? "none");
    bump(final, e.final ?? "none");
    for (const c of r.classes ?? []) bump(byClass, c);
    const a = agents.get(r.agent ?? "unknown") ?? { actions: 0, verdicts: {}, final: {} };
    a.actions += 1;
    bump(a.verdicts, r.effect ?? "none");
    bump(a.final, e.final ?? "none");
    agents.set(r.agent ?? "unknown", a);
  }
  const list = redone(decisions);
  return {
    range: { since: w.since ?? null, until: w.until ?? null },
    actions: decisions.length,
    verdicts,
    wouldHave,
    final,
    byClass,
    byAgent: [...agents.entries()].map(([agent, a]) => ({ agent, ...a })).sort((x, y) => y.actions - x.actions),
    redone: { actions: list.length, repeats: list.reduce((n, r) => n + r.repeats, 0), list },
  };
}

function redone(decisions: readonly Entry[]): Redone[] {
  const open = new Map<string, Redone>();
  const done: Redone[] = [];
  for (const e of decisions) {
    const r = e.row;
    const key = [r.agentSessionId ?? r.agent ?? "", r.operation, r.argsDigest ?? r.resourceRef ?? ""].join("\u0000");
    const prior = open.get(key);
    if (prior) {
      const next = { ...prior, repeats: prior.repeats + 1, lastId: r.id, lastFinal: e.final ?? null };
      open.set(key, next);
      const i = done.indexOf(prior);
      if (i >= 0) done[i] = next;
      else done.push(next);
    } else if (e.final === "failed" || e.final === "blocked") {
      open.set(key, {
        operation: r.operation,
        resourceRef: r.resourceRef ?? null,
        agent: r.agent ?? null,
        agentSessionId: r.agentSessionId ?? null,
        after: e.final,
        firstFailedId: r.id,
        repeats: 0,
        lastId: r.id,
        lastFinal: e.final,
      });
    }
  }
  return done;
}

function bump(c: Counts, k: string): void {
  c[k] = (c[k] ?? 0) + 1;
}

export function renderReport(r: Report): string[] {
  const fmt = (c: Counts) =>
    Object.entries(c)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${n} ${k}`)
      .join(", ") || "none";
  const lines = [
    `${r.actions} action(s)${r.range.since ? ` since ${r.range.since}` : ""}`,
    `verdicts   ${fmt(r.verdicts)}`,
    `enforce    ${fmt(r.wouldHave)}`,
    `outcome    ${fmt(r.final)}`,
    `classes    ${fmt(r.byClass)}`,
    "",
    ...r.byAgent.map(
      (a) => `${a.agent.padEnd(16)} ${String(a.actions).padStart(6)}  ${fmt(a.verdicts)}; ${fmt(a.final)}`,
    ),
  ];
  lines.push(
    "",
    `redone: ${r.redone.actions} action(s) taken again after they ${"failed or were refused"}, ${r.redone.repeats} repeat(s)`,
  );
  for (const d of r.redone.list)
    lines.push(
      `  ${d.operation} ${d.resourceRef ?? ""} (${d.agent ?? "?"}${d.agentSessionId ? ` · ${d.agentSessionId}` : ""}): ${d.after} first (${shortId(d.firstFailedId)}), ${d.repeats} more time(s), last ${d.lastFinal ?? "?"}`,
    );
  return lines;
}

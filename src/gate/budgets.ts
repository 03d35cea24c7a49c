// What a budget has spent, counted from the ledger (never kept anywhere else), and the state facts decide() is
// handed for it. The daemon and a seam deciding in process both count with budgetUses(), on the same rows.
import type { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import type { Action } from "../core/action.ts";
import type { StateFact } from "../core/request.ts";
import { outcomeMs, proceededSince } from "../ledger/read/rows.ts";
import { type Ledger, openLedger } from "../ledger/store.ts";
import type { Paths } from "../ports/paths.ts";
import type { Budget } from "../state/budgets.ts";
import { namedBy } from "./findings.ts";

export interface BudgetUse {
  readonly budget: Budget;
  /** In the budget's unit. */
  readonly used: number;
  readonly left: number;
  /** When the oldest use counted leaves the window: the earliest a spent budget has room again. */
  readonly freesAt?: string;
}

/** Counts every budget on an open ledger; the same function wherever decide() runs. */
export type BudgetCounter = (budgets: readonly Budget[], nowMs: number) => BudgetUse[];

/** Whether an action falls under a budget. */
function inBudget(b: Pick<Budget, "actions">, action: string): boolean {
  return namedBy(b.actions, action);
}

/**
 * What each budget used in its own window: calls that proceeded (a decision that allowed, or a person's yes to one
 * that asked), each counted once, matched by the action the row names or the budgets the decision said it spent;
 * `minutes` adds up how long those calls ran. Config and state rows are not agent work and never count.
 */
export function budgetUses(db: Database | undefined, budgets: readonly Budget[], nowMs: number): BudgetUse[] {
  if (budgets.length === 0) return [];
  const widest = Math.max(...budgets.map((b) => b.windowMs));
  const rows = db ? proceededSince(db, new Date(nowMs - widest).toISOString()) : [];
  return budgets.map((b) => {
    const since = new Date(nowMs - b.windowMs).toISOString();
    const calls = new Map<string, string>();
    for (const r of rows) {
      if (r.at < since) continue;
      const named = r.spends?.split(",").includes(b.name) ?? false;
      if (!named && !inBudget(b, r.operation)) continue;
      const call = r.kind === "answer" ? r.parent : r.id;
      if (call && !calls.has(call)) calls.set(call, r.at);
    }
    const used = b.unit === "calls" ? calls.size : minutes(db, [...calls.keys()]);
    const oldest = [...calls.values()].sort()[0];
    return {
      budget: b,
      used,
      left: Math.max(0, b.limit - used),
      ...(oldest ? { freesAt: new Date(Date.parse(oldest) + b.windowMs).toISOString() } : {}),
    };
  });
}

function minutes(db: Database | undefined, calls: readonly string[]): number {
  if (!db || calls.length === 0) return 0;
  return Math.round((outcomeMs(db, calls) / 60_000) * 10) / 10;
}

/** One fact per budget: `budget:<name>` while some is left, `budget-spent:<name>` once none is. */
export function budgetFacts(uses: readonly BudgetUse[], nowMs: number): StateFact[] {
  return uses.map(({ budget: b, used, left, freesAt }) => {
    const spent = left <= 0;
    const until = spent && freesAt ? Math.max(Date.parse(freesAt), nowMs + 1) : nowMs + b.windowMs;
    return {
      kind: spent ? "budget-spent" : "budget",
      subject: b.name,
      actions: b.actions,
      expiresAt: new Date(until).toISOString(),
      setAt: b.setAt,
      by: b.by,
      reason: `${used} of ${b.limit} ${b.unit} used in ${b.window}, ${left} left`,
    };
  });
}

/** The budgets a call with these actions spends, for its row, so a later count finds it whichever action spoke. */
export function budgetsSpentBy(facts: readonly StateFact[], actions: readonly Action[]): string[] {
  return facts
    .filter((f) => (f.kind === "budget" || f.kind === "budget-spent") && f.actions)
    .filter((f) => actions.some((a) => namedBy(f.actions, a.name)))
    .map((f) => f.subject);
}

/** A counter over the ledger file, opened only when some budget is set; the seam's own process uses this one. */
export function ledgerCounter(paths: Pick<Paths, "db">, before?: () => void): BudgetCounter {
  let ledger: Ledger | undefined;
  return (budgets, nowMs) => {
    if (budgets.length === 0) return [];
    before?.();
    if (!ledger && existsSync(paths.db)) ledger = openLedger(paths, { busyTimeoutMs: 1000 });
    return budgetUses(ledger?.db, budgets, nowMs);
  };
}

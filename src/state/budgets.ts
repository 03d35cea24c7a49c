// Budgets (`memnox budget set`): how much of some actions may proceed in a window. Only the limits live here; what
// is spent is counted from the ledger every time, so a restart, a second process or the daemon all count the same.
import { MemnoxError } from "../core/errors.ts";
import { isRecord } from "../core/record.ts";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../io/files.ts";

/** `calls`: actions that proceeded; `minutes`: how long they ran (from their outcome rows). */
export const BUDGET_UNITS = ["calls", "minutes"] as const;
export type BudgetUnit = (typeof BUDGET_UNITS)[number];

export interface Budget {
  readonly name: string;
  /** Action patterns, as in a rule's `actions`. */
  readonly actions: readonly string[];
  readonly limit: number;
  /** The window as the person wrote it (`1d`), and in milliseconds. */
  readonly window: string;
  readonly windowMs: number;
  readonly unit: BudgetUnit;
  readonly setAt: string;
  readonly by: string;
}

interface BudgetsFile {
  readonly version: 1;
  readonly budgets: readonly Budget[];
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

export function checkBudgetName(name: string): string {
  if (!NAME.test(name))
    throw new MemnoxError(
      "usage",
      `\`${name}\` is not a budget name`,
      "a name is letters, digits, - and _, like deploys",
    );
  return name;
}

/** The budgets set; a file that is there but unreadable throws, so the gate fails closed rather than forgetting them. */
export function readBudgets(file: string): Budget[] {
  const raw = readJsonIfExists(file);
  if (raw === undefined) return [];
  const list = isRecord(raw) ? raw.budgets : undefined;
  if (!Array.isArray(list))
    throw new MemnoxError("io", `\`${file}\` holds no budget list`, "memnox budget list shows it; move it aside");
  return list.filter(isBudget);
}

/** Sets (or replaces, by name) one budget. */
export function setBudget(file: string, budget: Budget): void {
  withLock(file, () => {
    const others = readBudgets(file).filter((b) => b.name !== budget.name);
    writeJsonAtomic(file, { version: 1, budgets: [...others, budget] } satisfies BudgetsFile);
  });
}

/** Drops one budget; returns it, or undefined when none has that name. */
export function removeBudget(file: string, name: string): Budget | undefined {
  return withLock(file, () => {
    const all = readBudgets(file);
    const gone = all.find((b) => b.name === name);
    if (gone) writeJsonAtomic(file, { version: 1, budgets: all.filter((b) => b !== gone) } satisfies BudgetsFile);
    return gone;
  });
}

function isBudget(v: unknown): v is Budget {
  if (typeof v !== "object" || v === null) return false;
  const b = v as Record<string, unknown>;
  return (
    typeof b.name === "string" &&
    Array.isArray(b.actions) &&
    b.actions.every((a) => typeof a === "string") &&
    typeof b.limit === "number" &&
    typeof b.windowMs === "number" &&
    b.windowMs > 0 &&
    typeof b.window === "string" &&
    (BUDGET_UNITS as readonly unknown[]).includes(b.unit) &&
    typeof b.setAt === "string" &&
    typeof b.by === "string"
  );
}

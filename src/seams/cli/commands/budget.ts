// `memnox budget set|list|suggest|remove`: how much of some actions may proceed in a window before it asks. Only
// the limits are kept (budgets.json); what is spent is counted from the ledger, the way the gate counts it.
import { type ActionClass, isActionClass } from "../../../core/action.ts";
import { parseDuration } from "../../../core/duration.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { type BudgetUse, ledgerCounter } from "../../../gate/budgets.ts";
import { withLedger } from "../../../ledger/open.ts";
import { rowsIn } from "../../../ledger/read/window.ts";
import type { Context } from "../../../ports/context.ts";
import {
  BUDGET_UNITS,
  type Budget,
  type BudgetUnit,
  checkBudgetName,
  readBudgets,
  removeBudget,
  setBudget,
} from "../../../state/budgets.ts";
import { personName } from "../../../state/identity.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { recordState } from "./_state-record.ts";

const GLOB = /^[a-z0-9*][a-z0-9_.*:-]*$/i;
const DAY = 86_400_000;

interface BudgetView {
  readonly name: string;
  readonly actions: readonly string[];
  readonly limit: number;
  readonly window: string;
  readonly unit: BudgetUnit;
  readonly used: number;
  readonly left: number;
  readonly freesAt: string | null;
  readonly setAt: string;
  readonly by: string;
}

function views(ctx: Context): BudgetView[] {
  const uses = ledgerCounter(ctx.paths)(readBudgets(ctx.paths.budgets), ctx.clock.now());
  return uses.map((u: BudgetUse) => ({
    name: u.budget.name,
    actions: u.budget.actions,
    limit: u.budget.limit,
    window: u.budget.window,
    unit: u.budget.unit,
    used: u.used,
    left: u.left,
    freesAt: u.left <= 0 ? (u.freesAt ?? null) : null,
    setAt: u.budget.setAt,
    by: u.budget.by,
  }));
}

function viewLine(v: BudgetView): string {
  const spent = v.left <= 0 ? `, spent: it asks until ${v.freesAt ?? "the window moves"}` : "";
  return `${v.name.padEnd(16)} ${v.used} of ${v.limit} ${v.unit} in ${v.window}, ${v.left} left${spent}  (${v.actions.join(", ")})`;
}

function actionsArg(text: string | undefined): string[] {
  const list = (text ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0)
    throw new MemnoxError(
      "usage",
      "a budget needs --actions",
      'name what it counts: --actions "railway.up,vercel.deploy*"',
    );
  const bad = list.find((a) => !GLOB.test(a));
  if (bad) throw new MemnoxError("usage", `\`${bad}\` is not an action pattern`, 'like "git.push", "railway.*"');
  return list;
}

function limitArg(text: string | undefined): number {
  const n = Number(text);
  if (text === undefined || !Number.isInteger(n) || n < 1)
    throw new MemnoxError("usage", `--limit must be a whole number of 1 or more, not \`${text ?? ""}\``);
  return n;
}

function unitArg(text: string | undefined): BudgetUnit {
  const u = text ?? "calls";
  if (!(BUDGET_UNITS as readonly string[]).includes(u))
    throw new MemnoxError("usage", `\`${u}\` is not a budget unit`, `one of ${BUDGET_UNITS.join(", ")}`);
  return u as BudgetUnit;
}

interface Suggestion {
  readonly name: string;
  readonly action: string;
  readonly class: ActionClass;
  readonly busiestDay: number;
  readonly limit: number;
}

/** Outward and destructive actions that proceeded in the last 30 days, each with room above its busiest day. */
function suggestions(ctx: Context): Suggestion[] {
  const now = ctx.clock.now();
  const rows = withLedger(
    ctx,
    (l) => rowsIn(l, { since: new Date(now - 30 * DAY).toISOString() }),
    () => [],
  );
  const perDay = new Map<string, { cls: ActionClass; days: Map<string, number> }>();
  for (const r of rows) {
    if (r.kind !== "decision" || r.effect !== "allow") continue;
    const cls = r.request?.class ?? r.classes?.[0];
    if (!cls || !isActionClass(cls) || (cls !== "communication" && cls !== "destructive")) continue;
    const a = perDay.get(r.operation) ?? { cls, days: new Map<string, number>() };
    const day = r.occurredAt.slice(0, 10);
    a.days.set(day, (a.days.get(day) ?? 0) + 1);
    perDay.set(r.operation, a);
  }
  return [...perDay.entries()]
    .map(([action, a]) => {
      const busiest = Math.max(...a.days.values());
      return {
        name: action.replace(/[^a-z0-9]+/gi, "-").toLowerCase(),
        action,
        class: a.cls,
        busiestDay: busiest,
        limit: Math.max(busiest + 2, Math.ceil(busiest * 1.5)),
      };
    })
    .sort((x, y) => y.busiestDay - x.busiestDay || (x.action < y.action ? -1 : 1))
    .slice(0, 10);
}

export const budget: CommandFactory = (ctx) => {
  const set = (b: Omit<Budget, "setAt" | "by">): Budget => {
    const full = { ...b, setAt: new Date(ctx.clock.now()).toISOString(), by: personName(ctx.env) };
    setBudget(ctx.paths.budgets, full);
    recordState(
      ctx,
      "memnox.budget-set",
      `${full.by} set the budget ${b.name}: ${b.limit} ${b.unit} of ${b.actions.join(", ")} per ${b.window}`,
    );
    return full;
  };
  return command({
    meta: { name: "budget", description: "how much of some actions may proceed in a window, counted from the ledger" },
    default: "list",
    subCommands: {
      list: command({
        meta: { name: "list", description: "what is set and how much is left" },
        args: { json: { type: "boolean", description: "structured output" } },
        run({ args }) {
          const v = views(ctx);
          emit(ctx, args.json, { budgets: v }, () =>
            v.length === 0 ? ["no budget is set (memnox budget suggest drafts a starting set)"] : v.map(viewLine),
          );
          return 0;
        },
      }),
      set: command({
        meta: { name: "set", description: "add or replace one budget" },
        args: {
          name: { type: "positional", description: "its name, e.g. deploys" },
          actions: { type: "string", description: "comma-separated action patterns it counts" },
          limit: { type: "string", description: "how many may proceed in the window" },
          window: { type: "string", description: "the window: 1h, 1d (default), 7d" },
          unit: { type: "string", description: `what is counted: ${BUDGET_UNITS.join(" or ")} (default calls)` },
          json: { type: "boolean", description: "structured output" },
        },
        run({ args }) {
          const window = args.window ?? "1d";
          const b = set({
            name: checkBudgetName(args.name ?? ""),
            actions: actionsArg(args.actions),
            limit: limitArg(args.limit),
            window,
            windowMs: parseDuration(window),
            unit: unitArg(args.unit),
          });
          const v = views(ctx).find((x) => x.name === b.name);
          emit(ctx, args.json, { budget: v ?? b }, () => [
            `set ${b.name}: ${b.limit} ${b.unit} of ${b.actions.join(", ")} per ${b.window}`,
            ...(v ? [viewLine(v)] : []),
            "past it, these actions ask in enforce, naming the budget and when it has room again",
          ]);
          return 0;
        },
      }),
      suggest: command({
        meta: { name: "suggest", description: "write a starting set from the last 30 days of outward actions" },
        args: {
          "dry-run": { type: "boolean", description: "say what would be set, and set nothing" },
          json: { type: "boolean", description: "structured output" },
        },
        run({ args }) {
          const have = new Set(readBudgets(ctx.paths.budgets).map((b) => b.name));
          const s = suggestions(ctx).filter((x) => !have.has(x.name));
          if (!args["dry-run"])
            for (const x of s)
              set({ name: x.name, actions: [x.action], limit: x.limit, window: "1d", windowMs: DAY, unit: "calls" });
          emit(ctx, args.json, { suggested: s, written: !args["dry-run"] }, () =>
            s.length === 0
              ? ["nothing outward or destructive proceeded in the last 30 days that a budget does not already count"]
              : [
                  ...s.map(
                    (x) =>
                      `${args["dry-run"] ? "would set" : "set"} ${x.name}: ${x.limit} calls of ${x.action} per 1d (busiest day: ${x.busiestDay})`,
                  ),
                  ...(args["dry-run"] ? [] : ["memnox budget list shows them; memnox budget remove <name> drops one"]),
                ],
          );
          return 0;
        },
      }),
      remove: command({
        meta: { name: "remove", description: "drop one budget" },
        args: {
          name: { type: "positional", description: "the budget's name" },
          json: { type: "boolean", description: "structured output" },
        },
        run({ args }) {
          const gone = removeBudget(ctx.paths.budgets, args.name ?? "");
          if (gone) recordState(ctx, "memnox.budget-remove", `${personName(ctx.env)} removed the budget ${gone.name}`);
          emit(ctx, args.json, { removed: gone ?? null }, () =>
            gone ? [`removed ${gone.name}: its actions no longer count against it`] : [`no budget \`${args.name}\``],
          );
          return gone ? 0 : 1;
        },
      }),
    },
  });
};

// `memnox next`: the ledger read backwards. What a person said yes to often enough that asking again wastes their
// attention: counts and distinct days are the argument, and a single refusal disqualifies rather than averages away.
// A destructive, outward or unknown action is never handed over however routine it became.
import type { ActionClass } from "../../core/action.ts";
import type { LedgerRow } from "../row.ts";
import { cell, clock } from "./format.ts";
import type { Window } from "./window.ts";

/** Yeses, on at least this many distinct days, with no refusal in the window. */
const READY = { approvals: 5, days: 3 } as const;

const NEVER: ReadonlySet<ActionClass> = new Set(["destructive", "communication"]);

type NextStatus = "ready" | "not-yet" | "refused" | "never" | "unknown" | "not-a-rule" | "opaque";

export interface NextItem {
  readonly action: string;
  /** The targets the asks named (a path, a host), when the row kept them; a hand-over rule names them too. */
  readonly targets: readonly string[];
  readonly class: ActionClass | null;
  readonly approvals: number;
  readonly days: number;
  readonly refusals: number;
  readonly firstAt: string;
  readonly lastAt: string;
  readonly lastRefusalAt: string | null;
  /** The rule that asked (the newest ask's), which a hand-over relaxes. */
  readonly rule: { readonly name: string; readonly file: string } | null;
  readonly agents: readonly string[];
  readonly status: NextStatus;
  readonly why: string;
  /** The newest ask's row, so the engine can be asked about the same call again. */
  readonly lastAskId: string;
}

export interface NextReport {
  readonly range: { readonly since: string | null; readonly until: string | null };
  readonly thresholds: typeof READY;
  readonly ready: readonly NextItem[];
  readonly notYet: readonly NextItem[];
  /** Approved, and still never handed over: each with why. */
  readonly kept: readonly NextItem[];
}

interface Group {
  action: string;
  targets: readonly string[];
  asks: LedgerRow[];
  yes: LedgerRow[];
  no: LedgerRow[];
}

/** What a row says a person answered to the ask it names: a yes, a no, or nothing. */
function answerOf(r: LedgerRow): "yes" | "no" | undefined {
  if (!r.parent) return undefined;
  if (r.kind === "answer") return r.effect === "allow" ? "yes" : r.effect === "deny" ? "no" : undefined;
  if (r.kind === "state" && r.operation === "memnox.approve") return "yes";
  if (r.kind === "state" && r.operation === "memnox.deny") return "no";
  return undefined;
}

function keyOf(r: LedgerRow): string {
  return `${r.operation}\u0000${(r.request?.targets ?? []).join("\u0000")}`;
}

/** The asks in `rows` (what a person was actually asked, in enforce) joined to the answers that name them. */
export function buildNext(rows: readonly LedgerRow[], w: Window): NextReport {
  const groups = new Map<string, Group>();
  const asks = new Map<string, Group>();
  for (const r of rows) {
    if (r.kind !== "decision" || r.effect !== "ask") continue;
    const key = keyOf(r);
    const g = groups.get(key) ?? { action: r.operation, targets: r.request?.targets ?? [], asks: [], yes: [], no: [] };
    g.asks.push(r);
    groups.set(key, g);
    asks.set(r.id, g);
  }
  const answered = new Set<string>();
  for (const r of rows) {
    const said = answerOf(r);
    const g = said && r.parent ? asks.get(r.parent) : undefined;
    // One answer per ask: a hold answered twice (a quorum) is still one yes from the person's point of view.
    if (!g || !r.parent || answered.has(r.parent)) continue;
    answered.add(r.parent);
    (said === "yes" ? g.yes : g.no).push(r);
  }
  const items = [...groups.values()].filter((g) => g.yes.length + g.no.length > 0).map(item);
  const by = (s: NextStatus[]) =>
    items.filter((i) => s.includes(i.status)).sort((a, b) => b.approvals - a.approvals || cmp(a.action, b.action));
  return {
    range: { since: w.since ?? null, until: w.until ?? null },
    thresholds: READY,
    ready: by(["ready"]),
    notYet: by(["not-yet"]),
    kept: by(["refused", "never", "unknown", "not-a-rule", "opaque"]),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function item(g: Group): NextItem {
  const last = g.asks[g.asks.length - 1] ?? g.asks[0];
  if (!last) throw new Error("a group has at least one ask");
  const cls = last.request?.class ?? last.classes?.[0] ?? null;
  const days = new Set(g.yes.map((r) => r.occurredAt.slice(0, 10))).size;
  const lastNo = g.no[g.no.length - 1];
  const source = last.detail?.source;
  const rule = last.ruleId && last.ruleFile ? { name: last.ruleId, file: last.ruleFile } : null;
  const [status, why] = verdict(g, cls, days, source, rule, lastNo);
  const times = [...g.yes, ...g.no].map((r) => r.occurredAt).sort();
  return {
    action: g.action,
    targets: g.targets,
    class: cls,
    approvals: g.yes.length,
    days,
    refusals: g.no.length,
    firstAt: times[0] ?? last.occurredAt,
    lastAt: times[times.length - 1] ?? last.occurredAt,
    lastRefusalAt: lastNo?.occurredAt ?? null,
    rule,
    agents: [...new Set(g.asks.map((r) => r.agent ?? "unknown"))].sort(),
    status,
    why,
    lastAskId: last.id,
  };
}

function verdict(
  g: Group,
  cls: ActionClass | null,
  days: number,
  source: unknown,
  rule: NextItem["rule"],
  lastNo: LedgerRow | undefined,
): [NextStatus, string] {
  const n = g.yes.length;
  if (cls && NEVER.has(cls))
    return ["never", `${cls === "destructive" ? "destructive" : "outward"}: never handed over, however routine`];
  if (cls === "unknown" || cls === null) return ["unknown", "memnox cannot tell what it does, so it keeps asking"];
  if (lastNo) return ["refused", `refused ${g.no.length} time(s), last at ${clock(lastNo.occurredAt)}`];
  if (source !== "rule" || !rule) return ["not-a-rule", `asked by memnox's own check (${String(source)}), not a rule`];
  if (g.action === "shell.execute")
    return ["opaque", "the command line is kept only as a digest, so no rule can name it"];
  if (n >= READY.approvals && days >= READY.days)
    return ["ready", `approved ${n} times on ${days} days, never refused`];
  const more = [
    n < READY.approvals ? `${READY.approvals - n} more yes` : "",
    days < READY.days ? `${READY.days - days} more day(s)` : "",
  ].filter(Boolean);
  return ["not-yet", `approved ${n} times on ${days} day(s); needs ${more.join(" and ")}`];
}

export function renderNext(r: NextReport): string[] {
  const since = r.range.since ? ` since ${clock(r.range.since)}` : "";
  const head = `${cell("count", 6)}${cell("days", 5)}${cell("refused", 8)}action`;
  const line = (i: NextItem) =>
    `  ${cell(String(i.approvals), 6)}${cell(String(i.days), 5)}${cell(i.refusals ? String(i.refusals) : "none", 8)}${i.action}${i.targets.length ? ` ${i.targets.join(" ")}` : ""}`;
  const out: string[] = [];
  if (r.ready.length === 0 && r.notYet.length === 0 && r.kept.length === 0) {
    return [`nothing you were asked about was answered${since}, so there is nothing to hand over yet`];
  }
  out.push(`WHAT YOU COULD STOP BEING ASKED ABOUT${since}`);
  if (r.ready.length === 0)
    out.push(
      `  nothing yet: an action is ready after ${r.thresholds.approvals} yeses on ${r.thresholds.days} different days with no refusal`,
    );
  else out.push(`  ${head}`, ...r.ready.map(line));
  if (r.notYet.length > 0) out.push("", "NOT YET", ...r.notYet.map((i) => `${line(i)}  (${i.why})`));
  if (r.kept.length > 0)
    out.push("", "STILL ASKED, WHATEVER THE COUNT", ...r.kept.map((i) => `${line(i)}  (${i.why})`));
  if (r.ready.length > 0)
    out.push("", "memnox next --hand-over writes an allow rule for each ready action, shown as a diff first.");
  return out;
}

// What the team did, read against what it said, by counting and never by a model: approvals that keep being granted
// become proposed rules (patterns), decisions that have aged are surfaced for confirmation (decay), and practice that
// moved away from a decision is reported (drift). None of it changes anything in force on its own.
import type { Db } from "../store/db.ts";
import type { GrantRow } from "../store/practice.ts";
import * as store from "../store/practice.ts";

/** The same verb at the same size, approved by the same person this many times, is a rule nobody wrote down yet. */
const PATTERN_GRANTS = 3;
const PATTERN_WINDOW_DAYS = 30;

/** A target's shape: numbers and hex ids stand for any, so the fifth `deploy web-42` is the same size as the first. */
export function shapeOf(target: string | null): string {
  if (!target) return "*";
  return target.replace(/\b[0-9a-f]{7,40}\b/gi, "*").replace(/\d+/g, "*");
}

export interface Pattern {
  readonly action: string;
  readonly shape: string;
  readonly by: string;
  readonly holds: string[];
  readonly count: number;
  readonly rule: Record<string, unknown>;
}

/** Grants grouped by (action, shape, who said yes); a group with any denial of the same is no pattern. */
export function patternsIn(grants: readonly GrantRow[], denied: ReadonlySet<string>): Pattern[] {
  const groups = new Map<string, GrantRow[]>();
  for (const g of grants) {
    const key = `${g.action}\n${shapeOf(g.target)}\n${g.answered_by}`;
    groups.set(key, [...(groups.get(key) ?? []), g]);
  }
  const out: Pattern[] = [];
  for (const [key, rows] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const [action = "", shape = "*", by = ""] = key.split("\n");
    if (rows.length < PATTERN_GRANTS || denied.has(`${action}\n${shape}`)) continue;
    const rules = [...new Set(rows.flatMap((r) => (r.rule_id ? [r.rule_id] : [])))].sort();
    const slug = `${action}-${shape}`
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60);
    out.push({
      action,
      shape,
      by,
      holds: rows.map((r) => r.id).sort(),
      count: rows.length,
      rule: {
        name: `approved-${slug}`,
        description: `${by} approved ${action} on ${shape} ${rows.length} times`,
        match: { actions: [action], ...(shape !== "*" ? { targets: [shape] } : {}) },
        decision: {
          effect: "allow",
          reason: `${by} has approved this ${rows.length} times; the team wrote it down as a rule`,
          ...(rules.length > 0 ? { relaxes: rules } : {}),
        },
      },
    });
  }
  return out;
}

/** Every pattern in the window not proposed before, as a pending candidate with the approvals as its evidence. */
export async function detectPatterns(db: Db, workspaceId: string): Promise<number> {
  const grants = await store.approvalsWithin(db, workspaceId, PATTERN_WINDOW_DAYS);
  const denials = await store.refusalsWithin(db, workspaceId, PATTERN_WINDOW_DAYS);
  const denied = new Set(denials.map((d) => `${d.action}\n${shapeOf(d.target)}`));
  let made = 0;
  for (const p of patternsIn(grants, denied)) {
    const key = `${p.action}\n${p.shape}\n${p.by}`;
    const rows = await store.insertPatternCandidate(db, {
      id: `cand_${crypto.randomUUID().replace(/-/g, "").slice(0, 18)}`,
      workspaceId,
      statement: `${p.action} on ${p.shape} is allowed without asking`,
      rationale: `${p.by} approved it ${p.count} times in ${PATTERN_WINDOW_DAYS} days, and nobody refused it`,
      affects: [p.action],
      pattern: JSON.stringify(p),
      key,
    });
    made += rows.length;
  }
  return made;
}

/** Evidence this old, an owner gone, or nothing touching it this long: a reason to ask, never to act. */
const DECAY_EVIDENCE_DAYS = 365;
const DECAY_UNTOUCHED_DAYS = 180;

interface Decayed {
  readonly id: string;
  readonly statement: string;
  readonly reasons: string[];
}

export async function decayCheck(db: Db, workspaceId: string, nowMs: number): Promise<Decayed[]> {
  const rows = await store.decayFacts(db, workspaceId);
  const days = (d: Date | null) => (d ? (nowMs - d.getTime()) / 86_400_000 : Number.POSITIVE_INFINITY);
  const out: Decayed[] = [];
  for (const r of rows) {
    const reasons: string[] = [];
    const confirmed = r.confirmed_at && r.confirmed_at > r.approved_at ? r.confirmed_at : r.approved_at;
    if (days(r.newest_evidence) > DECAY_EVIDENCE_DAYS && days(confirmed) > DECAY_EVIDENCE_DAYS)
      reasons.push(`its newest evidence is ${Math.floor(days(r.newest_evidence))} days old`);
    if (r.owner_status !== "active") reasons.push(`${r.approved_by}, who approved it, is no longer an active member`);
    const touched = [confirmed, r.last_matched].reduce<Date | null>((a, b) => (b && (!a || b > a) ? b : a), null);
    if (days(touched) > DECAY_UNTOUCHED_DAYS)
      reasons.push(`nothing has confirmed it or met it for ${Math.floor(days(touched))} days`);
    if (reasons.length > 0) out.push({ id: r.id, statement: r.statement, reasons });
  }
  return out;
}

interface Drifted {
  readonly id: string;
  readonly statement: string;
  /** Actions its rules met that went ahead anyway: a person's yes, or a machine that only watches. */
  readonly proceeded: number;
  readonly refused: number;
  readonly machines: string[];
  readonly examples: { event: number; operation: string; machine: string; at: string }[];
}

/** Practice against what was said: how often a decision's rules met actions that went ahead. Reported, not resolved. */
export async function driftReport(db: Db, workspaceId: string): Promise<Drifted[]> {
  const rows = await store.driftFacts(db, workspaceId);
  const by = new Map<string, typeof rows>();
  for (const r of rows) by.set(r.id, [...(by.get(r.id) ?? []), r]);
  const out: Drifted[] = [];
  for (const [id, list] of by) {
    // An outcome row carries the rule too; only the decisions themselves are counted.
    const proceeded = list.filter((r) => r.effect === "allow");
    if (proceeded.length === 0) continue;
    out.push({
      id,
      statement: list[0]?.statement ?? "",
      proceeded: proceeded.length,
      refused: list.filter((r) => r.effect === "deny" || r.effect === "ask").length,
      machines: [...new Set(proceeded.flatMap((r) => (r.machine_id ? [r.machine_id] : [])))].sort(),
      examples: proceeded.slice(0, 5).map((r) => ({
        event: Number(r.event),
        operation: r.operation ?? "",
        machine: r.machine_id ?? "",
        at: r.occurred_at?.toISOString() ?? "",
      })),
    });
  }
  return out;
}

// What a project holds, said at a session's start with no prompt to match: its durable pages (decisions,
// preferences, procedures and the like, never raw episodes or summaries of them), most important first, within the
// same limit and budget as any reminder. A store without an index says nothing.
import { isoSeconds } from "../format/time.ts";
import type { Store } from "../pages/store.ts";
import type { Row } from "../search/index-db.ts";
import { estimateTokens } from "./pack.ts";
import { DEFAULT_REMINDER_BUDGET, DEFAULT_REMINDER_LIMIT, type Reminder, reminderKey } from "./remind.ts";

/** Types that are history rather than knowledge: recalled when asked for, never pushed at a session's start. */
const HISTORY_TYPES = new Set(["episode", "summary"]);

/** Decisions first, then preferences and procedures, then the rest. */
const TYPE_ORDER: Readonly<Record<string, number>> = { decision: 0, preference: 1, procedure: 2 };

function shown(row: Row, now: string): boolean {
  if (row.status !== "active") return false;
  return !((row.valid_from && row.valid_from > now) || (row.valid_until && row.valid_until <= now));
}

interface HeldInput {
  readonly store: Store;
  /** The session's project ids: only their project pages are "what the project holds". */
  readonly projects: readonly string[];
  readonly alreadySaid?: ReadonlySet<string>;
  readonly limit?: number;
  readonly budgetTokens?: number;
}

export function heldReminders(input: HeldInput): Reminder[] {
  const { store } = input;
  if (!store.hasIndex() || !store.index().ready()) return [];
  const now = isoSeconds(store.now());
  const said = input.alreadySaid ?? new Set<string>();
  const rows = store
    .index()
    .all()
    .filter(
      (r) =>
        r.scope === "project" &&
        input.projects.includes(r.project_id) &&
        !HISTORY_TYPES.has(r.node_type) &&
        shown(r, now) &&
        !said.has(reminderKey(r.scope, r.project_id || null, r.slug)),
    )
    .sort(
      (a, b) =>
        (TYPE_ORDER[a.node_type] ?? 9) - (TYPE_ORDER[b.node_type] ?? 9) ||
        b.importance - a.importance ||
        (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0) ||
        (a.slug < b.slug ? -1 : 1),
    );
  const limit = input.limit ?? DEFAULT_REMINDER_LIMIT;
  const budget = input.budgetTokens ?? DEFAULT_REMINDER_BUDGET;
  const out: Reminder[] = [];
  let used = 0;
  for (const r of rows) {
    if (out.length >= limit) break;
    const text = r.description.length <= 280 ? r.description : `${r.description.slice(0, 279)}…`;
    const cost = estimateTokens(`${r.title} ${text} ${r.file_path}`);
    if (out.length > 0 && used + cost > budget) continue;
    used += cost;
    out.push({
      key: reminderKey(r.scope, r.project_id || null, r.slug),
      slug: r.slug,
      title: r.title,
      type: r.node_type,
      scope: r.scope,
      project_id: r.project_id || null,
      file_path: r.file_path,
      text,
      coverage: 1,
      matched: 0,
      terms: 0,
      score: 0,
    });
  }
  return out;
}

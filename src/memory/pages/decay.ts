// Recency decay, applied only when asked: importance halves per half-life a page goes unrecalled. Recall's access
// telemetry is what "unrecalled" is read from; catalogue pages (knowledge) never age.
import { isCatalogue } from "../format/kinds.ts";
import { roundImportance } from "../format/page.ts";
import { memoryConfig } from "./config.ts";
import { restamp } from "./lifecycle.ts";
import { logOp } from "./oplog.ts";
import { type Store, scanPages } from "./store.ts";

interface DecayChange {
  readonly slug: string;
  readonly old: number;
  readonly new: number;
}

const DAY_MS = 86_400_000;

/** Every page whose importance would move (by more than the three decimals a page keeps); written unless `dryRun`. */
export function applyDecay(store: Store, opts: { dryRun?: boolean } = {}): DecayChange[] {
  const config = memoryConfig(store);
  if (!config.decayEnabled) return [];
  const lambda = Math.LN2 / Math.max(1, config.halfLifeDays);
  const index = store.hasIndex() ? store.index() : undefined;
  const changes: DecayChange[] = [];
  for (const page of scanPages(store)) {
    if (isCatalogue(page.type)) continue;
    const row = index?.get(page.scope, page.project_id ?? "", page.slug);
    const last = [page.last_access, row?.last_access ?? null, page.created]
      .filter((v): v is string => Boolean(v))
      .sort()
      .at(-1);
    const since = Date.parse(last ?? page.created);
    if (!Number.isFinite(since)) continue;
    const idleDays = Math.max(0, (store.now() - since) / DAY_MS);
    const next = roundImportance(Math.max(0, page.importance * Math.exp(-lambda * idleDays)));
    if (next === roundImportance(page.importance)) continue;
    changes.push({ slug: page.slug, old: page.importance, new: next });
    if (!opts.dryRun) restamp(store, page, { importance: next });
  }
  if (!opts.dryRun) logOp(store, { op: "decay", count: changes.length });
  return changes;
}

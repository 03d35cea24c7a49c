// Task mode: one goal, up to three questions, distinct pages spread across them inside one project and one budget.
import { MemnoxError } from "../../core/errors.ts";
import { isoSeconds } from "../format/time.ts";
import type { Store } from "../pages/store.ts";
import { queryTokens } from "../search/query.ts";
import { expandLinks, type LinkedEntry } from "./linked.ts";
import { DEFAULT_MAX_TOKENS } from "./pack.ts";
import { type Candidate, candidates, filtersOf, refuseQuery } from "./recall.ts";

export const TASK_PAGE_CAP = 36;

export interface TaskQuery {
  readonly goal: string;
  readonly questions: readonly string[];
  readonly projectId: string;
  readonly topK?: number;
  readonly maxTokens?: number;
}

export interface TaskSource {
  readonly slug: string;
  readonly title: string;
  readonly file_path: string;
  readonly node_type: string;
  readonly description: string;
  readonly snippet: string;
  readonly snippet_source: string;
  readonly question: number;
}

export interface TaskResult {
  readonly goal: string;
  readonly search_engine: string;
  readonly sources: readonly TaskSource[];
  readonly questions: readonly { question: string; sources: readonly string[] }[];
  readonly unanswered: readonly string[];
  readonly omitted: readonly { question: string; reason: "page_budget" | "token_budget" }[];
  readonly linked: readonly Omit<LinkedEntry, "lines" | "tokens">[];
  readonly linked_omitted: number;
  readonly tokens_used: number;
}

export function taskRecall(store: Store, q: TaskQuery): TaskResult {
  if (q.questions.length < 1 || q.questions.length > 3)
    throw new MemnoxError("refused", "task mode takes one to three --question");
  const cap = q.topK ?? TASK_PAGE_CAP;
  if (!Number.isInteger(cap) || cap < 1 || cap > TASK_PAGE_CAP)
    throw new MemnoxError("refused", `top-k in task mode is from 1 to ${TASK_PAGE_CAP}`);
  const budget = q.maxTokens ?? DEFAULT_MAX_TOKENS;
  const f = filtersOf(store, { scope: { kind: "project", projectId: q.projectId } });
  let engine = "semantic-and-fallback-fts5";
  const perQuestion = q.questions.map((question) => {
    let tokens: string[];
    try {
      tokens = queryTokens(question);
    } catch (e) {
      refuseQuery(e);
    }
    const r = candidates(store, tokens, f, cap, "fts5");
    engine = r.engine;
    return r.found;
  });
  const chosen: { c: Candidate; question: number }[] = [];
  const taken = new Set<string>();
  const droppedByCap = new Set<number>();
  for (let round = 0; perQuestion.some((list) => round < list.length); round++) {
    perQuestion.forEach((list, i) => {
      const c = list[round];
      if (!c || taken.has(c.hit.slug)) return;
      if (chosen.length >= cap) droppedByCap.add(i);
      else {
        taken.add(c.hit.slug);
        chosen.push({ c, question: i });
      }
    });
  }
  const kept: { c: Candidate; question: number }[] = [];
  let used = 0;
  for (const item of chosen) {
    if (kept.length > 0 && used + item.c.cost > budget) continue;
    kept.push(item);
    used += item.c.cost;
  }
  const ids = kept.flatMap(({ c }) => (c.id === undefined ? [] : [c.id]));
  if (store.hasIndex()) store.index().recordAccess(ids, isoSeconds(store.now()));
  const sources = kept.map(({ c, question }) => ({
    slug: c.hit.slug,
    title: c.hit.title,
    file_path: c.hit.file_path,
    node_type: c.hit.node_type,
    description: c.hit.description,
    snippet: c.hit.snippet,
    snippet_source: c.hit.snippet_source,
    question,
  }));
  const seeds = kept.flatMap(({ c }) =>
    c.id === undefined ? [] : [{ id: c.id, slug: c.hit.slug, scope: "project", projectId: q.projectId }],
  );
  const room = Math.max(0, budget - used);
  const linked = expandLinks(store, seeds, { kind: "project", projectId: q.projectId }, isoSeconds(store.now()), room);
  const linkedUsed = linked.entries.reduce((n, e) => n + e.tokens, 0);
  return {
    goal: q.goal,
    search_engine: engine,
    sources,
    questions: q.questions.map((question, i) => ({
      question,
      sources: sources.filter((s) => s.question === i).map((s) => s.slug),
    })),
    unanswered: q.questions.filter((_, i) => (perQuestion[i] ?? []).length === 0),
    omitted: q.questions.flatMap((question, i) => {
      if ((perQuestion[i] ?? []).length === 0 || sources.some((s) => s.question === i)) return [];
      return [{ question, reason: droppedByCap.has(i) ? ("page_budget" as const) : ("token_budget" as const) }];
    }),
    linked: linked.entries.map(({ lines, tokens, ...entry }) => entry),
    linked_omitted: linked.omitted,
    tokens_used: used + linkedUsed,
  };
}

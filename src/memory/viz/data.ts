// What the dashboard reads, and only reads: page rows from the index when it is there (the pages otherwise), projects,
// sessions and token use. Nothing here writes a file, a row or an access counter.
import { existsSync, lstatSync, readFileSync } from "node:fs";
import type { Page } from "../format/page.ts";
import { type Store, scanPages } from "../pages/store.ts";
import { listSessions, type SessionSummary } from "../pages/transcripts.ts";

export const PER_PAGE = 20;

export interface Card {
  readonly slug: string;
  readonly title: string;
  readonly description: string;
  readonly type: string;
  readonly scope: string;
  readonly project_id: string | null;
  readonly project_label: string | null;
  readonly status: string;
  readonly timestamp: string;
  readonly tags: readonly string[];
}

export interface Project {
  readonly id: string;
  readonly label: string;
}

export type Namespace =
  | { readonly kind: "all" }
  | { readonly kind: "global" }
  | { readonly kind: "project"; readonly id: string };

function indexReady(store: Store): boolean {
  try {
    return store.hasIndex() && store.index().ready();
  } catch {
    return false;
  }
}

interface IndexRow {
  slug: string;
  title: string;
  description: string;
  node_type: string;
  scope: string;
  project_id: string;
  project_label: string | null;
  status: string;
  timestamp: string;
  tags: string;
}

function fromRow(r: IndexRow): Card {
  return {
    slug: r.slug,
    title: r.title,
    description: r.description,
    type: r.node_type,
    scope: r.scope,
    project_id: r.project_id || null,
    project_label: r.project_label,
    status: r.status,
    timestamp: r.timestamp,
    tags: JSON.parse(r.tags) as string[],
  };
}

function fromPage(p: Page): Card {
  return {
    slug: p.slug,
    title: p.title,
    description: p.description,
    type: p.type,
    scope: p.scope,
    project_id: p.project_id,
    project_label: p.project_label,
    status: p.status,
    timestamp: p.timestamp,
    tags: p.tags,
  };
}

const newestFirst = (a: Card, b: Card) =>
  a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;

function matches(c: Card, type: string | undefined, ns: Namespace): boolean {
  if (type && c.type !== type) return false;
  if (ns.kind === "global") return c.scope === "global";
  if (ns.kind === "project") return c.scope === "project" && c.project_id === ns.id;
  return true;
}

/** One page of cards, newest first, and how many match in all. */
export function cards(
  store: Store,
  type: string | undefined,
  ns: Namespace,
  page: number,
): { cards: Card[]; total: number } {
  if (indexReady(store)) {
    const where: string[] = [];
    const params: string[] = [];
    if (type) {
      where.push("node_type = ?");
      params.push(type);
    }
    if (ns.kind === "global") where.push("scope = 'global'");
    if (ns.kind === "project") {
      where.push("scope = 'project' AND project_id = ?");
      params.push(ns.id);
    }
    const sql = where.length ? ` WHERE ${where.join(" AND ")}` : "";
    const db = store.index().db;
    const total = (db.query(`SELECT count(*) AS n FROM pages${sql}`).get(...params) as { n: number }).n;
    const rows = db
      .query(
        `SELECT slug, title, description, node_type, scope, project_id, project_label, status, timestamp, tags
         FROM pages${sql} ORDER BY timestamp DESC, slug LIMIT ? OFFSET ?`,
      )
      .all(...params, PER_PAGE, (page - 1) * PER_PAGE) as IndexRow[];
    return { cards: rows.map(fromRow), total };
  }
  const all = scanPages(store)
    .map(fromPage)
    .filter((c) => matches(c, type, ns))
    .sort(newestFirst);
  return { cards: all.slice((page - 1) * PER_PAGE, page * PER_PAGE), total: all.length };
}

/** Every project with pages, by label. */
export function projects(store: Store): Project[] {
  const seen = new Map<string, string>();
  if (indexReady(store)) {
    const rows = store
      .index()
      .db.query("SELECT DISTINCT project_id, project_label FROM pages WHERE scope = 'project' ORDER BY project_id")
      .all() as { project_id: string; project_label: string | null }[];
    for (const r of rows)
      if (!seen.has(r.project_id) || r.project_label) seen.set(r.project_id, r.project_label ?? r.project_id);
  } else {
    for (const p of scanPages(store))
      if (p.scope === "project" && p.project_id) seen.set(p.project_id, p.project_label ?? p.project_id);
  }
  return [...seen]
    .map(([id, label]) => ({ id, label }))
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

/** The types pages have, for the Memories view's filter. */
export function types(store: Store): string[] {
  if (indexReady(store))
    return (
      store.index().db.query("SELECT DISTINCT node_type FROM pages ORDER BY node_type").all() as { node_type: string }[]
    ).map((r) => r.node_type);
  return [...new Set(scanPages(store).map((p) => p.type))].sort();
}

interface Counts {
  readonly pages: number;
  readonly byStatus: Readonly<Record<string, number>>;
  readonly byType: Readonly<Record<string, number>>;
}

export function counts(store: Store): Counts {
  const byStatus: Record<string, number> = { active: 0, pending: 0, superseded: 0, archived: 0 };
  const byType: Record<string, number> = {};
  let pages = 0;
  const add = (status: string, type: string, n: number) => {
    pages += n;
    byStatus[status] = (byStatus[status] ?? 0) + n;
    byType[type] = (byType[type] ?? 0) + n;
  };
  if (indexReady(store)) {
    const rows = store
      .index()
      .db.query("SELECT status, node_type, count(*) AS n FROM pages GROUP BY status, node_type")
      .all() as { status: string; node_type: string; n: number }[];
    for (const r of rows) add(r.status, r.node_type, r.n);
  } else for (const p of scanPages(store)) add(p.status, p.type, 1);
  return { pages, byStatus, byType };
}

const MAX_TOKENS = 1_000_000_000_000;

function validCount(v: unknown): number | undefined {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && v <= MAX_TOKENS ? v : undefined;
}

/** A session's total tokens as its harness reported them (never summed twice), or undefined when not usable. */
function tokenTotal(usage: Readonly<Record<string, unknown>> | null | undefined): number | undefined {
  if (!usage) return undefined;
  const total = validCount(usage.total_tokens);
  if (total !== undefined) return total;
  if ("total_tokens" in usage) return undefined;
  const parts = ["input_tokens", "output_tokens"].map((k) => validCount(usage[k]));
  return parts.some((p) => p === undefined) ? undefined : parts.reduce((a = 0, b = 0) => a + b, 0);
}

interface SessionsRead {
  readonly sessions: SessionSummary[];
  readonly unreadable: number;
}

export function sessions(store: Store): SessionsRead {
  const all = listSessions(store);
  return { sessions: all, unreadable: all.filter((s) => s.meta_unreadable).length };
}

/** A session's token usage read straight from its sidecar, so a malformed value is refused here, not trusted. */
export function sessionTokens(s: SessionSummary): number | undefined {
  if (!s.meta_path || !existsSync(s.meta_path) || !lstatSync(s.meta_path).isFile()) return undefined;
  try {
    const meta = JSON.parse(readFileSync(s.meta_path, "utf8")) as { token_usage?: Record<string, unknown> } | null;
    return tokenTotal(meta?.token_usage);
  } catch {
    return undefined;
  }
}

export interface ReplayTurn {
  readonly role: "user" | "agent" | "tool";
  readonly content: string;
  readonly ts?: string;
  readonly tool_name?: string;
  readonly query?: string;
  readonly result?: string;
}

/** A transcript's turns, tolerantly: a line that is not a turn (the header, a torn line) is skipped, never fatal. */
export function replayTurns(path: string): ReplayTurn[] {
  if (!existsSync(path) || !lstatSync(path).isFile()) return [];
  const out: ReplayTurn[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (!o || typeof o !== "object" || !["user", "agent", "tool"].includes(String(o.role))) continue;
    const s = (k: string) => (typeof o[k] === "string" ? (o[k] as string) : undefined);
    out.push({
      role: o.role as ReplayTurn["role"],
      content: s("content") ?? "",
      ...(s("ts") ? { ts: s("ts") as string } : {}),
      ...(s("tool_name") ? { tool_name: s("tool_name") as string } : {}),
      ...(s("query") ? { query: s("query") as string } : {}),
      ...(s("result") ? { result: s("result") as string } : {}),
    });
  }
  return out;
}

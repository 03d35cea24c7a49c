// Each view as an HTML fragment: what htmx swaps into #main, and what a direct URL renders inside the shell.
import { isBuiltin } from "../format/kinds.ts";
import { isPageSlug } from "../format/slug.ts";
import { status } from "../pages/status.ts";
import { findPages, type Store } from "../pages/store.ts";
import { verify } from "../pages/verify.ts";
import { recall } from "../recall/recall.ts";
import type { ScopeFilter } from "../search/search.ts";
import {
  type Card,
  cards,
  counts,
  type Namespace,
  PER_PAGE,
  type Project,
  projects,
  type ReplayTurn,
  replayTurns,
  sessions,
  sessionTokens,
  types,
} from "./data.ts";
import { badge, empty, escapeHtml, navLink, notice, number, query, section } from "./html.ts";
import { renderMarkdown } from "./markdown.ts";

export type Params = URLSearchParams;

const PREVIEW = 240;
const DETAIL = 2000;

function scopeLabel(c: Pick<Card, "scope" | "project_label" | "project_id">): string {
  return c.scope === "global" ? "Global" : (c.project_label ?? "a project");
}

function pageLink(c: Pick<Card, "slug" | "scope" | "project_id">, label: string): string {
  const q = query({ project: c.scope === "project" ? (c.project_id ?? "") : undefined });
  return navLink(`/view/page/${c.slug}${q}`, `/page/${c.slug}${q}`, label);
}

function card(c: Card, snippet?: string): string {
  const status = c.status === "active" ? "" : badge(c.status, c.status === "pending" ? "pending" : "");
  const text = snippet ?? escapeHtml(c.description);
  return `<article class="card">
  <h3>${pageLink(c, escapeHtml(c.title))}</h3>
  <div class="meta">${badge(c.type)}${badge(scopeLabel(c))}${status}<time>${escapeHtml(c.timestamp.slice(0, 10))}</time></div>
  ${text ? `<p>${text}</p>` : ""}
</article>`;
}

// ---------------------------------------------------------------- Memories

interface Selection {
  readonly type: string | undefined;
  readonly scope: "all" | "global" | "project";
  readonly project: Project | undefined;
  readonly problem?: string;
}

function select(store: Store, p: Params): Selection {
  const type = p.get("type") || undefined;
  const raw = p.get("scope") || (p.get("project") ? "project" : "all");
  const scope = raw === "best" ? "all" : raw;
  const all = projects(store);
  const project = all.find((x) => x.id === p.get("project"));
  if (type !== undefined && !isBuiltin(type) && !types(store).includes(type))
    return { type, scope: "all", project, problem: `Unknown memory type \`${type}\`` };
  if (scope !== "all" && scope !== "global" && scope !== "project")
    return { type, scope: "all", project, problem: `Unknown memory scope \`${raw}\`` };
  if (scope === "project" && !project)
    return { type, scope, project, problem: p.get("project") ? "Unknown project scope" : "Choose a project" };
  return { type, scope, project };
}

function namespace(s: Selection): Namespace {
  if (s.scope === "global") return { kind: "global" };
  if (s.scope === "project" && s.project) return { kind: "project", id: s.project.id };
  return { kind: "all" };
}

function memoriesQuery(s: Pick<Selection, "type" | "scope" | "project">, page?: number) {
  return query({
    type: s.type,
    scope: s.scope === "all" ? undefined : s.scope,
    project: s.scope === "project" ? s.project?.id : undefined,
    page: page !== undefined && page > 1 ? page : undefined,
  });
}

function memoriesLink(s: Pick<Selection, "type" | "scope" | "project">, label: string, page?: number, current = false) {
  const q = memoriesQuery(s, page);
  return navLink(`/view/memories${q}`, `/pages${q}`, label, current ? ' aria-current="true"' : "");
}

export function memoriesView(store: Store, p: Params): string {
  const s = select(store, p);
  const typeFilters = [undefined, ...types(store)].map((t) =>
    memoriesLink({ ...s, type: t }, escapeHtml(t ?? "All types"), 1, t === s.type),
  );
  const scopes = [
    memoriesLink({ ...s, scope: "all", project: undefined }, "All memory", 1, s.scope === "all"),
    memoriesLink({ ...s, scope: "global", project: undefined }, "Global only", 1, s.scope === "global"),
    ...projects(store).map((pr) =>
      memoriesLink({ ...s, scope: "project", project: pr }, escapeHtml(pr.label), 1, s.project?.id === pr.id),
    ),
  ];
  const head = `<h1>Memories</h1>
<div class="filters" aria-label="Scope">${scopes.join("")}</div>
<div class="filters" aria-label="Type">${typeFilters.join("")}</div>`;
  if (s.problem) return `${head}\n${empty(s.problem)}`;
  const requested = Number.parseInt(p.get("page") ?? "1", 10);
  const first = cards(store, s.type, namespace(s), 1);
  const pages = Math.max(1, Math.ceil(first.total / PER_PAGE));
  const page = Number.isFinite(requested) ? Math.min(Math.max(1, requested), pages) : 1;
  const { cards: shown, total } = page === 1 ? first : cards(store, s.type, namespace(s), page);
  if (total === 0) return `${head}\n${empty("No memories match this selection")}`;
  const pager = `<nav class="pager" aria-label="Pages">
  ${page > 1 ? memoriesLink(s, "← Previous", page - 1) : "<span></span>"}
  <span>Page ${page} of ${pages} · ${number(total)} memories</span>
  ${page < pages ? memoriesLink(s, "Next →", page + 1) : "<span></span>"}
</nav>`;
  return `${head}\n<div class="cards">\n${shown.map((c) => card(c)).join("\n")}\n</div>\n${pager}`;
}

// ---------------------------------------------------------------- Search

function searchForm(q: string, scope: string, project: Project | undefined, all: readonly Project[]): string {
  const options = [
    `<option value="">All memory</option>`,
    ...all.map(
      (pr) =>
        `<option value="${escapeHtml(pr.id)}"${pr.id === project?.id ? " selected" : ""}>${escapeHtml(pr.label)}</option>`,
    ),
  ].join("");
  return `<form class="search" action="/view/search" method="get" hx-get="/search" hx-target="#search-results" hx-push-url="false">
  <input type="search" name="q" value="${escapeHtml(q)}" placeholder="Search memory (BM25)" aria-label="Search memory">
  <select name="project" aria-label="Project">${options}</select>
  <button class="primary" type="submit" name="scope" value="best"${scope === "all" ? "" : ' aria-pressed="true"'}>Best match</button>
  <button type="submit" name="scope" value="all"${scope === "all" ? ' aria-pressed="true"' : ""}>Search everywhere</button>
</form>`;
}

/** A snippet as FTS5 marks it: the text escaped, then only its <mark> pairs let back in. */
function snippetHtml(snippet: string): string {
  return escapeHtml(snippet).replaceAll("&lt;mark&gt;", "<mark>").replaceAll("&lt;/mark&gt;", "</mark>");
}

function hitsOf(store: Store, q: string, scope: ScopeFilter) {
  return recall(store, { query: q, scope, topK: 20, recordAccess: false, maxTokens: 1_000_000 }).hits;
}

export function searchResults(store: Store, p: Params): string {
  const q = (p.get("q") ?? "").trim();
  const scope = p.get("scope") || "best";
  const all = projects(store);
  const projectId = p.get("project") || undefined;
  const project = all.find((x) => x.id === projectId);
  if (!q) return empty("Enter a search term");
  if (!["best", "all", "project", "global"].includes(scope)) return empty(`Unknown search scope \`${scope}\``);
  if (scope === "project" && !projectId) return empty("Choose a project");
  if (projectId && !project && scope !== "all") return empty("Unknown project scope");
  let hits: ReturnType<typeof hitsOf>;
  let note = "";
  try {
    if (scope === "global") hits = hitsOf(store, q, { kind: "global" });
    else if ((scope === "project" || scope === "best") && project) {
      hits = hitsOf(store, q, { kind: "project", projectId: project.id });
      if (hits.length === 0 && scope === "best") {
        hits = hitsOf(store, q, { kind: "all" });
        if (hits.length) note = `Nothing in ${project.label}; showing matches from all memory.`;
      }
    } else hits = hitsOf(store, q, { kind: "all" });
  } catch (e) {
    return empty("That search cannot run", e instanceof Error ? e.message : "");
  }
  if (hits.length === 0) return empty("No memories match", `nothing found for “${q}”`);
  const list = hits
    .map((h) =>
      card(
        {
          slug: h.slug,
          title: h.title,
          description: h.description,
          type: h.node_type,
          scope: h.scope,
          project_id: h.project_id,
          project_label: h.project_label,
          status: h.status,
          timestamp: h.timestamp,
          tags: h.tags,
        },
        snippetHtml(h.snippet),
      ),
    )
    .join("\n");
  return `${note ? notice(note) : ""}<div class="cards">\n${list}\n</div>`;
}

export function searchView(store: Store, p: Params): string {
  const q = (p.get("q") ?? "").trim();
  const scope = p.get("scope") || "best";
  const project = projects(store).find((x) => x.id === p.get("project"));
  const results = q ? searchResults(store, p) : "";
  return `<h1>Search</h1>
<p class="meta">Best match searches the chosen project first and falls back to all memory; Search everywhere searches every namespace. Searching never counts as recall.</p>
${searchForm(q, scope, project, projects(store))}
<div id="search-results">${results}</div>`;
}

// ---------------------------------------------------------------- Overview and health

function stat(value: string, label: string): string {
  return `<div class="stat"><b>${value}</b><span>${escapeHtml(label)}</span></div>`;
}

export function overviewView(store: Store): string {
  const c = counts(store);
  const s = sessions(store);
  const tokens = s.sessions.reduce((n, x) => n + (sessionTokens(x) ?? 0), 0);
  const recent = cards(store, undefined, { kind: "all" }, 1).cards.slice(0, 6);
  return `<h1>Overview</h1>
<div class="stats">
  ${stat(number(c.pages), "Memory pages")}
  ${stat(number(c.byStatus.pending ?? 0), "Pending approval")}
  ${stat(number(projects(store).length), "Projects")}
  ${stat(number(s.sessions.length), "Sessions captured")}
  ${stat(number(tokens), "Tokens reported")}
</div>
${s.unreadable ? notice(`${s.unreadable} session metadata record(s) unreadable`) : ""}
${searchForm("", "best", undefined, projects(store))}
<div id="search-results"></div>
${section("Recent memories", recent.length ? `<div class="cards">${recent.map((x) => card(x)).join("\n")}</div>` : empty("No memories yet", "memnox memory write, or a harness hook, adds the first"))}
${section("Recent sessions", s.sessions.length ? `<div class="sessions">${s.sessions.slice(0, 5).map(sessionCard).join("\n")}</div>` : empty("No sessions captured yet"))}`;
}

export function healthView(store: Store): string {
  const st = status(store);
  const v = verify(store);
  const idx = st.index;
  const rows = v.checks
    .map(
      (c) =>
        `<tr><td>${escapeHtml(c.check)}</td><td>${badge(c.ok ? "ok" : "fail", c.ok ? "ok" : "fail")}</td><td>${escapeHtml(c.detail)}</td></tr>`,
    )
    .join("\n");
  const capture = Object.entries(st.last_capture)
    .map(([h, at]) => `<tr><td>${escapeHtml(h)}</td><td>${escapeHtml(at)}</td></tr>`)
    .join("");
  return `<h1>Health</h1>
<div class="stats">
  ${stat(number(idx.pages_on_disk), "pages on disk")}
  ${stat(number(idx.rows), "index rows")}
  ${stat(idx.fresh ? "fresh" : "stale", "index")}
  ${stat(number(st.statuses.pending ?? 0), "pending")}
  ${stat(number(st.statuses.archived ?? 0), "archived")}
  ${stat(number(st.zero_yield_consolidations), "zero-yield consolidations in a row")}
</div>
${section("Checks", `<table><thead><tr><th>check</th><th>result</th><th>detail</th></tr></thead><tbody>${rows}</tbody></table>`)}
${v.warnings.length ? section("Warnings", `<ul>${v.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join("")}</ul>`) : ""}
${section("Last capture per harness", capture ? `<table><tbody>${capture}</tbody></table>` : empty("No captures yet"))}
<p class="meta">Index last rebuilt ${escapeHtml(idx.last_rebuild ?? "never")}; ${number(idx.missing)} missing, ${number(idx.changed)} changed, ${number(idx.orphaned)} orphaned rows.</p>`;
}

// ---------------------------------------------------------------- Sessions, replay and tokens

type Session = ReturnType<typeof sessions>["sessions"][number];

function sessionCard(s: Session): string {
  const tokens = sessionTokens(s);
  const link = navLink(
    `/view/session/${encodeURIComponent(s.session_id)}`,
    `/session/${encodeURIComponent(s.session_id)}`,
    escapeHtml(s.session_id),
  );
  return `<article class="session-card">
  <h3>${link}</h3>
  <div class="meta">${badge(s.harness ?? "manual")}${escapeHtml(s.started_at ?? s.date)} · ${number(s.turn_count)} turns${tokens !== undefined ? ` · ${number(tokens)} tokens` : ""}</div>
</article>`;
}

export function sessionsView(store: Store): string {
  const { sessions: all, unreadable } = sessions(store);
  const warn = unreadable ? notice(`${unreadable} session metadata record(s) unreadable`) : "";
  if (all.length === 0)
    return `<h1>Sessions</h1>\n${warn}${empty("No sessions captured yet", "memnox memory hook transcript captures one")}`;
  const days = new Map<string, Map<string, Session[]>>();
  for (const s of all) {
    const group = `${s.project_label ?? "Global or unscoped"} · ${s.harness ?? "manual"}`;
    const day = days.get(s.date) ?? new Map<string, Session[]>();
    day.set(group, [...(day.get(group) ?? []), s]);
    days.set(s.date, day);
  }
  const html = [...days]
    .sort(([a], [b]) => (a < b ? 1 : -1))
    .map(
      ([date, groups]) => `<section class="session-day"><h2>${escapeHtml(date)}</h2>
${[...groups]
  .sort(([a], [b]) => (a < b ? -1 : 1))
  .map(
    ([group, list]) =>
      `<div class="session-group"><h4>${escapeHtml(group)}</h4><div class="sessions">${list.map(sessionCard).join("\n")}</div></div>`,
  )
  .join("\n")}
</section>`,
    )
    .join("\n");
  return `<h1>Sessions</h1>\n${warn}${html}`;
}

/** A bounded preview, the detail behind <details> up to 2,000 characters, and a notice when even that was cut. */
function bounded(label: string, text: string): string {
  if (text.length <= PREVIEW) return `<pre>${escapeHtml(text)}</pre>`;
  const cut = text.length > DETAIL;
  return `<pre>${escapeHtml(text.slice(0, PREVIEW))}…</pre>
<details><summary>Show more ${escapeHtml(label)}</summary><pre>${escapeHtml(text.slice(0, DETAIL))}</pre>${cut ? `<p class="meta">Truncated after ${number(DETAIL)} characters (${number(text.length)} in all).</p>` : ""}</details>`;
}

function turnCard(t: ReplayTurn, i: number): string {
  const when = t.ts ? `<time>${escapeHtml(t.ts)}</time>` : "";
  if (t.role === "tool") {
    const name = t.tool_name ?? (t.content && !t.result && !t.query ? "" : t.content);
    const parts = [
      t.query ? `<div class="meta">input</div>${bounded("input", t.query)}` : "",
      t.result ? `<div class="meta">output</div>${bounded("result", t.result)}` : "",
      !t.query && !t.result && t.content ? bounded("result", t.content) : "",
    ].join("\n");
    return `<article class="turn tool"><header><span>Tool${name ? ` · ${escapeHtml(name)}` : ""}</span><span>#${i + 1} ${when}</span></header>\n${parts}</article>`;
  }
  const who = t.role === "user" ? "User" : "AI assistant";
  const body = t.role === "agent" ? renderMarkdown(t.content) : `<p>${escapeHtml(t.content)}</p>`;
  return `<article class="turn ${t.role}"><header><span>${who}</span><span>#${i + 1} ${when}</span></header>\n${body}</article>`;
}

export function sessionView(store: Store, id: string): string {
  const s = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id)
    ? sessions(store).sessions.find((x) => x.session_id === id)
    : undefined;
  if (!s)
    return `<h1>Session not found</h1>\n${empty("Session not found", "it was never captured here, or its file is not a plain file in the store")}`;
  const turns = replayTurns(s.file_path);
  const tokens = sessionTokens(s);
  return `<h1>Session ${escapeHtml(s.session_id)}</h1>
<p class="meta">${badge(s.harness ?? "manual")}${s.project_label ? badge(s.project_label) : ""}${escapeHtml(s.started_at ?? s.date)} · ${number(s.turn_count || turns.length)} turns${tokens !== undefined ? ` · ${number(tokens)} tokens` : ""}${s.episode_slug ? ` · episode ${navLink(`/view/page/${s.episode_slug}`, `/page/${s.episode_slug}`, escapeHtml(s.episode_slug))}` : ""}</p>
${turns.length ? turns.map(turnCard).join("\n") : empty("This transcript holds no readable turns")}`;
}

export function tokensView(store: Store): string {
  const withTokens = sessions(store)
    .sessions.map((s) => ({ s, n: sessionTokens(s) }))
    .filter((x): x is { s: Session; n: number } => x.n !== undefined);
  if (withTokens.length === 0) return `<h1>Token use</h1>\n${empty("No session reported token use yet")}`;
  const byDay = new Map<string, number>();
  const byHarness = new Map<string, number>();
  for (const { s, n } of withTokens) {
    byDay.set(s.date, (byDay.get(s.date) ?? 0) + n);
    const h = s.harness ?? "manual";
    byHarness.set(h, (byHarness.get(h) ?? 0) + n);
  }
  const days = [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).slice(-30);
  const max = Math.max(...days.map(([, n]) => n), 1);
  const w = 24;
  const bars = days
    .map(([d, n], i) => {
      const h = Math.max(1, Math.round((n / max) * 140));
      return `<g><title>${escapeHtml(d)}: ${number(n)} tokens</title><rect x="${i * (w + 8) + 8}" y="${160 - h}" width="${w}" height="${h}"></rect><text x="${i * (w + 8) + 8}" y="176">${escapeHtml(d.slice(5))}</text></g>`;
    })
    .join("");
  const chart = `<svg class="chart" viewBox="0 0 ${days.length * (w + 8) + 16} 184" role="img" aria-label="Tokens per day">${bars}</svg>`;
  const harnessRows = [...byHarness]
    .sort(([, a], [, b]) => b - a)
    .map(([h, n]) => `<tr><td>${escapeHtml(h)}</td><td class="num">${number(n)}</td></tr>`)
    .join("");
  const sessionRows = withTokens
    .map(
      ({ s, n }) =>
        `<tr><td>${navLink(`/view/session/${encodeURIComponent(s.session_id)}`, `/session/${encodeURIComponent(s.session_id)}`, escapeHtml(s.session_id))}</td><td>${escapeHtml(s.date)}</td><td>${escapeHtml(s.harness ?? "manual")}</td><td class="num">${number(n)}</td></tr>`,
    )
    .join("");
  const total = withTokens.reduce((a, x) => a + x.n, 0);
  return `<h1>Token use</h1>
<p class="meta">As each harness reported it: ${number(total)} tokens across ${number(withTokens.length)} sessions.</p>
${chart}
${section("By harness", `<table><thead><tr><th>harness</th><th class="num">tokens</th></tr></thead><tbody>${harnessRows}</tbody></table>`)}
${section("By session", `<table><thead><tr><th>session</th><th>date</th><th>harness</th><th class="num">tokens</th></tr></thead><tbody>${sessionRows}</tbody></table>`)}`;
}

// ---------------------------------------------------------------- One page

export function pageView(store: Store, slug: string, p: Params): string {
  const projectId = p.get("project") || undefined;
  const found = isPageSlug(slug)
    ? findPages(store, slug, projectId ? { scope: "project", projectId } : { scope: "global" })
    : [];
  const page = found[0];
  if (!page)
    return `<h1>Page not found</h1>\n${empty("Page not found", projectId ? "no such page in that project" : "no such global page")}`;
  const links = [...new Set([...page.links.map((l) => l.target), ...page.supersedes, ...page.depends_on])];
  const href = (s: string) =>
    `/view/page/${s}${query({ project: page.scope === "project" ? (page.project_id ?? "") : undefined })}`;
  const facts = [
    ["type", page.type],
    ["scope", page.scope === "global" ? "global" : (page.project_label ?? "project")],
    ["status", page.status],
    ["updated", page.updated_at],
    ["source", page.source ?? ""],
    ["harness", page.harness ?? ""],
    ["tags", page.tags.join(", ")],
    ["importance", String(page.importance)],
  ].filter(([, v]) => v);
  return `<h1>${escapeHtml(page.title)} ${page.status === "active" ? "" : badge(page.status, page.status === "pending" ? "pending" : "")}</h1>
${page.description ? `<p>${escapeHtml(page.description)}</p>` : ""}
<table><tbody>${facts.map(([k, v]) => `<tr><th>${escapeHtml(k ?? "")}</th><td>${escapeHtml(v ?? "")}</td></tr>`).join("")}</tbody></table>
<div class="page-body">${renderMarkdown(page.body, href)}</div>
${links.length ? section("Links", `<ul>${links.map((l) => `<li><a href="${escapeHtml(href(l))}">${escapeHtml(l)}</a></li>`).join("")}</ul>`) : ""}`;
}

export function notFoundView(path: string): string {
  return `<h1>Not found</h1>\n${empty("Not found", `nothing is served at ${path}`)}`;
}

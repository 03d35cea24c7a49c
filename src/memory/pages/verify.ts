// Deterministic checks for CI: pages parse, the index matches, links resolve, OKF rules hold, navigation is current.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { builtinForDir } from "../format/kinds.ts";
import { subdirs } from "../format/layout.ts";
import { hashBody, type Page } from "../format/page.ts";
import { isoSeconds, normalizeTimestamp } from "../format/time.ts";
import { edges } from "../search/index-db.ts";
import { diagnose, type NavChange } from "./navigation.ts";
import { type ScanError, type Store, scanPages, typeInfo } from "./store.ts";

interface Check {
  readonly check: string;
  readonly ok: boolean;
  readonly detail: string;
}

interface VerifyReport {
  readonly ok: boolean;
  readonly checks: readonly Check[];
  readonly recall_evidence: boolean;
  readonly write_evidence: boolean;
  readonly warnings: readonly string[];
}

interface VerifyOptions {
  readonly since?: string;
  readonly requireRecall?: boolean;
  readonly requireWrite?: boolean;
}

/** A count and at most three names; never content. */
function bounded(label: string, names: readonly string[]): string {
  if (names.length === 0) return `0 ${label}`;
  return `${names.length} ${label}: ${[...names].sort().slice(0, 3).join(", ")}`;
}

/** A check that passes when it found nothing, its detail the count and at most three names. */
function found(check: string, label: string, names: readonly string[]): Check {
  return { check, ok: names.length === 0, detail: bounded(label, names) };
}

const keyOf = (p: Page) => `${p.scope}\0${p.project_id ?? ""}`;

/** Targets a page may link to: its own namespace or a global page. */
function resolver(pages: readonly Page[]): (from: Page, target: string) => boolean {
  const byNs = new Map<string, Set<string>>();
  for (const p of pages) {
    const set = byNs.get(keyOf(p)) ?? new Set<string>();
    set.add(p.slug);
    byNs.set(keyOf(p), set);
  }
  return (from, target) => Boolean(byNs.get(keyOf(from))?.has(target) || byNs.get("global\0")?.has(target));
}

function okfChecks(pages: readonly Page[], resolves: (from: Page, target: string) => boolean): Check[] {
  const bySlug = new Map(pages.map((p) => [`${keyOf(p)}\0${p.slug}`, p]));
  const parentOf = (p: Page) =>
    p.parent ? (bySlug.get(`${keyOf(p)}\0${p.parent}`) ?? bySlug.get(`global\0\0${p.parent}`)) : undefined;
  const unresolvedParents = pages.filter((p) => p.parent && !resolves(p, p.parent)).map((p) => p.slug);
  const cyclic = pages
    .filter((p) => {
      const seen = new Set([p.slug]);
      for (let cur = parentOf(p); cur; cur = parentOf(cur)) {
        if (seen.has(cur.slug)) return true;
        seen.add(cur.slug);
      }
      return false;
    })
    .map((p) => p.slug);
  const relations = (p: Page) => [...p.supersedes, ...p.implements, ...p.depends_on, ...p.links.map((l) => l.target)];
  const unresolvedRelations = pages.filter((p) => relations(p).some((t) => !resolves(p, t))).map((p) => p.slug);
  const norm = (v: string | null) => (v ? normalizeTimestamp(v) : null);
  const inverted = pages
    .filter((p) => p.valid_from && p.valid_until && (norm(p.valid_from) ?? "") > (norm(p.valid_until) ?? ""))
    .map((p) => p.slug);
  const outOfWindow = pages
    .filter((p) => {
      const [from, until, stale] = [norm(p.valid_from), norm(p.valid_until), norm(p.stale_after)];
      return stale && from && until && !(from <= stale && stale <= until);
    })
    .map((p) => p.slug);
  return [
    found("okf-parent-resolves", "unresolved parents", unresolvedParents),
    found("okf-parent-acyclic", "parent cycles", cyclic),
    found("okf-relations-resolve", "unresolved relation targets", unresolvedRelations),
    found("okf-validity-ordered", "pages with valid_from after valid_until", inverted),
    found("okf-stale-in-window", "pages with stale_after outside the validity window", outOfWindow),
  ];
}

function navigationDetail(changes: readonly NavChange[]): string {
  if (changes.length === 0) return "navigation current";
  const cats = ["missing", "stale", "orphan", "collision"] as const;
  const counts = cats
    .map((c) => [c, changes.filter((x) => x.category === c).length] as const)
    .filter(([, n]) => n > 0)
    .map(([c, n]) => `${c}=${n}`)
    .join(" ");
  return `${counts}: ${[...new Set(changes.map((c) => c.path))].sort().join("; ")}`;
}

/** memex's type checks: a page's type matches its directory, every project directory is declared, drafts wait. */
function typeChecks(store: Store, pages: readonly Page[], mismatched: readonly string[]): Check[] {
  const undeclared: string[] = [];
  const notPending: string[] = [];
  for (const locator of subdirs(store.layout.projects)) {
    const root = join(store.layout.projects, locator);
    for (const e of readdirSync(root, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const kind = builtinForDir(e.name) ? "builtin" : typeInfo(store, locator, e.name).kind;
      if (kind === "undeclared") undeclared.push(`${locator}/${e.name}`);
      if (kind === "draft")
        for (const p of pages)
          if (dirname(p.path) === join(root, e.name) && p.status !== "pending") notPending.push(p.slug);
    }
  }
  return [
    found("types-match-directory", "pages whose type differs from their directory", mismatched),
    found("types-declared", "project directories without a declaration", undeclared),
    found("draft-types-pending", "non-pending pages inside draft types", notPending),
  ];
}

export function zeroYieldStreak(store: Store): number {
  if (!existsSync(store.layout.runsLog)) return 0;
  let streak = 0;
  for (const line of readFileSync(store.layout.runsLog, "utf8").trim().split("\n").reverse()) {
    try {
      const run = JSON.parse(line) as { mode?: string; created?: number };
      if (run.mode === "dry-run") continue;
      if ((run.created ?? 0) > 0) break;
      streak++;
    } catch {
      break;
    }
  }
  return streak;
}

/** Symlinks anywhere under docs/ or transcripts/: memory refuses to follow them, so verify names them. */
function symlinks(store: Store): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isSymbolicLink()) out.push(relative(store.layout.root, p));
      else if (e.isDirectory()) walk(p);
    }
  };
  walk(store.layout.docs);
  walk(store.layout.transcripts);
  return out;
}

export function verify(store: Store, opts: VerifyOptions = {}): VerifyReport {
  const scanned: ScanError[] = [];
  const pages = scanPages(store, scanned);
  // A page filed under another type's directory parses; memex reports it by its own check, not as malformed.
  const mismatched = scanned.filter((e) => e.mismatch).map((e) => basename(e.path, ".md"));
  const errors = scanned.filter((e) => !e.mismatch);
  const checks: Check[] = [
    found(
      "wiki-parseable",
      "malformed pages",
      errors.map((e) => e.path),
    ),
  ];
  const index = store.hasIndex() ? store.index() : undefined;
  const stale = pages.filter((p) => {
    const row = index?.get(p.scope, p.project_id ?? "", p.slug);
    return (
      !row || row.content_hash !== hashBody(p.body) || row.description !== p.description || row.status !== p.status
    );
  });
  const indexedPaths = new Set(pages.map((p) => p.path));
  const extra = (index?.all() ?? []).filter((r) => !indexedPaths.has(r.file_path));
  const staleRows = stale.length + extra.length;
  checks.push({ check: "index-fresh", ok: staleRows === 0, detail: `${staleRows} stale or missing rows` });
  const resolves = resolver(pages);
  // memex counts broken links; the pages holding them are named after the count.
  const broken = pages.flatMap((p) =>
    edges(p)
      .filter(([target, rel]) => rel === "mentions" && !resolves(p, target))
      .map(() => p.slug),
  );
  const holders = [...new Set(broken)].sort().slice(0, 3);
  checks.push({
    check: "links-resolve",
    ok: broken.length === 0,
    detail: `${broken.length} broken links${holders.length ? `: ${holders.join(", ")}` : ""}`,
  });
  checks.push(...okfChecks(pages, resolves));
  checks.push(...typeChecks(store, pages, mismatched));
  const nav = diagnose(store, pages);
  const defects = nav.filter((c) => c.category !== "collision");
  checks.push({ check: "navigation-consistent", ok: defects.length === 0, detail: navigationDetail(nav) });
  const links = symlinks(store);
  checks.push(found("no-symlinks", "symlinked paths", links));

  const warnings: string[] = [];
  const streak = zeroYieldStreak(store);
  if (streak >= 3) warnings.push(`${streak} consecutive zero-yield consolidations`);
  const now = isoSeconds(store.now());
  const staleAfter = pages.filter((p) => p.stale_after && normalizeTimestamp(p.stale_after) <= now).map((p) => p.slug);
  if (staleAfter.length > 0) warnings.push(bounded("pages past stale_after", staleAfter));
  let recallEvidence = false;
  let writeEvidence = false;
  if (opts.since !== undefined) {
    const since = normalizeTimestamp(opts.since);
    recallEvidence = (index?.all() ?? []).some((r) => r.last_access !== null && r.last_access >= since);
    writeEvidence = pages.some((p) => p.updated_at >= since);
    if (!recallEvidence) warnings.push(`no recall activity recorded since ${opts.since}`);
    if (!writeEvidence) warnings.push(`no memory writes since ${opts.since}`);
  } else if (opts.requireRecall || opts.requireWrite) {
    warnings.push("--require-recall and --require-write look for evidence since --since, and none was given");
  }
  const ok =
    checks.every((c) => c.ok) && !(opts.requireRecall && !recallEvidence) && !(opts.requireWrite && !writeEvidence);
  return { ok, checks, recall_evidence: recallEvidence, write_evidence: writeEvidence, warnings };
}

// Generated index.md navigation: deterministic bytes per directory, spliced on a single write, diagnosed by verify.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { withLock, writeFileAtomic } from "../../io/files.ts";
import { BUILTIN_TYPES, builtinForDir, sectionHeading } from "../format/kinds.ts";
import { pageFiles, subdirs } from "../format/layout.ts";
import { OKF_VERSION, type Page } from "../format/page.ts";
import { type Spliced, spliceRow } from "./nav-rows.ts";
import { readPage, type Store } from "./store.ts";

const INDEX = "index.md";
const SUBDIRS = "Subdirectories";
const ROOT_HEAD = `---\nokf_version: "${OKF_VERSION}"\n---\n`;
const ESCAPE = /[\\`*_[\]<>]/g;

type NavCategory = "written" | "removed" | "collision" | "write_failed" | "missing" | "stale" | "orphan";

export interface NavChange {
  readonly category: NavCategory;
  readonly path: string;
}

type Entries = Map<string, Map<string, string>>;

/** What an index row needs from a page; index rows and parsed pages both have it. */
export interface NavPage {
  readonly slug: string;
  readonly type: string;
  readonly title: string;
  readonly description: string;
  readonly path: string;
}

function escapeText(text: string): string {
  return text.replace(ESCAPE, (c) => `\\${c}`);
}

/** Where a directory sits in the docs tree: the root, a container, a type directory, or outside the layout. */
function position(store: Store, dir: string): "root" | "container" | "type" | "none" {
  const parts = relative(store.layout.docs, dir).split(sep).filter(Boolean);
  if (parts.length === 0) return "root";
  if (parts[0] === "global") {
    if (parts.length === 1) return "container";
    return parts.length === 2 && builtinForDir(parts[1] ?? "") ? "type" : "none";
  }
  if (parts[0] === "projects") return parts.length <= 2 ? "container" : parts.length === 3 ? "type" : "none";
  return "none";
}

export function hasPages(store: Store, dir: string): boolean {
  const pos = position(store, dir);
  if (pos === "type") return pageFiles(dir).length > 0;
  if (pos === "none") return false;
  return subdirs(dir).some((child) => hasPages(store, join(dir, child)));
}

function heading(store: Store, dir: string): string {
  const r = relative(store.layout.docs, dir).split(sep).join("/");
  return r ? `# ${r}` : "# index";
}

function sectionOrder(types: Iterable<string>): string[] {
  const all = [...types];
  const builtin: string[] = BUILTIN_TYPES.filter((t) => all.includes(t));
  return [...builtin, ...all.filter((t) => !builtin.includes(t)).sort()];
}

function entry(page: NavPage): string {
  const line = `- [${escapeText(page.title)}](${page.slug}.md)`;
  return page.description ? `${line} — ${escapeText(page.description)}` : line;
}

function compose(store: Store, dir: string, entries: Entries, children: readonly string[]): string {
  const lines = [heading(store, dir)];
  for (const type of sectionOrder(entries.keys())) {
    const rows = entries.get(type);
    if (!rows || rows.size === 0) continue;
    lines.push("", `## ${sectionHeading(type)}`);
    for (const slug of [...rows.keys()].sort()) lines.push(rows.get(slug) ?? "");
  }
  if (children.length > 0) {
    lines.push("", `## ${SUBDIRS}`);
    for (const c of children) lines.push(`- [${c}/](${c}/${INDEX})`);
  }
  const body = `${lines.join("\n")}\n`;
  return dir === store.layout.docs ? `${ROOT_HEAD}${body}` : body;
}

export function render(store: Store, dir: string, pages: readonly NavPage[]): string {
  const entries: Entries = new Map();
  for (const p of pages) {
    if (dirname(p.path) !== dir) continue;
    const rows = entries.get(p.type) ?? new Map<string, string>();
    rows.set(p.slug, entry(p));
    entries.set(p.type, rows);
  }
  const children = subdirs(dir).filter((c) => hasPages(store, join(dir, c)));
  return compose(store, dir, entries, children);
}

/** A generator-owned index (no front matter, or only the root's okf_version); anything else is never touched. */
function structuralText(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, "utf8");
  if (!text.startsWith("---\n") || text.startsWith(ROOT_HEAD)) return text;
  return undefined;
}

function isCollision(path: string): boolean {
  return existsSync(path) && structuralText(path) === undefined;
}

function write(store: Store, dir: string, text: string, out: NavChange[]): void {
  const target = join(dir, INDEX);
  const path = relative(store.layout.docs, target).split(sep).join("/");
  if (isCollision(target)) {
    out.push({ category: "collision", path });
    return;
  }
  if (existsSync(target) && readFileSync(target, "utf8") === text) return;
  try {
    writeFileAtomic(target, text, 0o644);
    out.push({ category: "written", path });
  } catch {
    out.push({ category: "write_failed", path });
  }
}

function remove(store: Store, dir: string, out: NavChange[]): void {
  const target = join(dir, INDEX);
  if (!existsSync(target)) return;
  const path = relative(store.layout.docs, target).split(sep).join("/");
  if (isCollision(target)) {
    out.push({ category: "collision", path });
    return;
  }
  rmSync(target, { force: true });
  out.push({ category: "removed", path });
}

/** The directory and its ancestors up to docs/. */
function chain(store: Store, dir: string): string[] {
  const out: string[] = [];
  let current = dir;
  while (current.startsWith(store.layout.docs) && current !== store.layout.docs) {
    out.push(current);
    current = dirname(current);
  }
  out.push(store.layout.docs);
  return out;
}

function pagesIn(store: Store, dir: string): Page[] {
  if (position(store, dir) !== "type") return [];
  const out: Page[] = [];
  for (const file of pageFiles(dir)) {
    try {
      out.push(readPage(store, join(dir, file)));
    } catch {
      // malformed pages are not listed; verify names them
    }
  }
  return out;
}

/** Re-renders one directory's chain, parsing only the pages directly in those directories. */
function refreshChain(store: Store, dir: string): NavChange[] {
  const out: NavChange[] = [];
  for (const d of chain(store, dir)) {
    if (hasPages(store, d)) write(store, d, render(store, d, pagesIn(store, d)), out);
    else remove(store, d, out);
  }
  return out;
}

/**
 * After one page write (`page`) or delete (undefined): splice its row into its type directory's index in sorted
 * position, which gives the bytes a full render gives without reading a sibling; anything unexpected re-renders.
 * The index is handled as bytes and rewritten in place from the row on: a large directory costs its tail, once.
 */
export function refreshPage(store: Store, path: string, page: NavPage | undefined): NavChange[] {
  const dir = dirname(path);
  const target = join(dir, INDEX);
  if (position(store, dir) !== "type" || !existsSync(target)) return refreshChain(store, dir);
  // Two writers splicing one index at once would tear it: the lock makes them take turns.
  return withLock(target, () => splice(store, dir, target, path, page));
}

function splice(store: Store, dir: string, target: string, path: string, page: NavPage | undefined): NavChange[] {
  const type = page?.type ?? builtinForDir(basename(dir)) ?? basename(dir);
  const head = Buffer.from(`${heading(store, dir)}\n\n## ${sectionHeading(type)}\n`);
  const row = page ? Buffer.from(`${entry(page)}\n`) : undefined;
  const relPath = relative(store.layout.docs, target).split(sep).join("/");
  let done: Spliced;
  try {
    done = spliceRow(target, head, basename(path, ".md"), row);
  } catch {
    return [{ category: "write_failed", path: relPath }];
  }
  if (done === "render") return refreshChain(store, dir);
  return done === "written" ? [{ category: "written", path: relPath }] : [];
}

function neededDirs(store: Store): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    if (!hasPages(store, dir)) return;
    out.push(dir);
    if (position(store, dir) !== "type") for (const c of subdirs(dir)) visit(join(dir, c));
  };
  visit(store.layout.docs);
  return out.sort();
}

function existingIndexes(store: Store): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    if (existsSync(join(dir, INDEX))) out.push(dir);
    for (const c of subdirs(dir)) visit(join(dir, c));
  };
  if (existsSync(store.layout.docs)) visit(store.layout.docs);
  return out.sort();
}

/** Rewrites every needed index and removes generator-owned ones where no pages remain. */
function byDir(pages: readonly NavPage[]): Map<string, NavPage[]> {
  const out = new Map<string, NavPage[]>();
  for (const p of pages) {
    const dir = dirname(p.path);
    const list = out.get(dir) ?? [];
    list.push(p);
    out.set(dir, list);
  }
  return out;
}

export function regenerate(store: Store, pages: readonly NavPage[]): NavChange[] {
  const out: NavChange[] = [];
  const needed = neededDirs(store);
  const grouped = byDir(pages);
  for (const dir of needed) write(store, dir, render(store, dir, grouped.get(dir) ?? []), out);
  for (const dir of existingIndexes(store)) if (!needed.includes(dir)) remove(store, dir, out);
  return out;
}

/** Read-only comparison of the expected tree with the index files on disk. */
export function diagnose(store: Store, pages: readonly NavPage[]): NavChange[] {
  const out: NavChange[] = [];
  const needed = neededDirs(store);
  const grouped = byDir(pages);
  const relPath = (dir: string) => relative(store.layout.docs, join(dir, INDEX)).split(sep).join("/");
  for (const dir of needed) {
    const target = join(dir, INDEX);
    if (!existsSync(target)) out.push({ category: "missing", path: relPath(dir) });
    else if (isCollision(target)) out.push({ category: "collision", path: relPath(dir) });
    else if (readFileSync(target, "utf8") !== render(store, dir, grouped.get(dir) ?? []))
      out.push({ category: "stale", path: relPath(dir) });
  }
  for (const dir of existingIndexes(store))
    if (!needed.includes(dir) && !isCollision(join(dir, INDEX))) out.push({ category: "orphan", path: relPath(dir) });
  return out;
}

// A memory store on disk: its layout, its pages, its project folders and its (lazily opened) index.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import type { Env } from "../../ports/index.ts";
import { BUILTIN_DIRS, builtinForDir, isCatalogue, type Kind, typeDir, validTypeName } from "../format/kinds.ts";
import { type Layout, layoutOf, pageFiles, refuseSymlinks, scopeRoot, subdirs } from "../format/layout.ts";
import { type Page, PageError, parsePage, type Scope } from "../format/page.ts";
import type { ProjectRef } from "../format/project.ts";
import { isPageSlug } from "../format/slug.ts";
import { readEvents, stateOf } from "../format/typelog.ts";
import { IndexDb } from "../search/index-db.ts";

export interface Store {
  readonly layout: Layout;
  readonly now: () => number;
  readonly env: Env;
  /** The index, opened on first use; read-only stores never create one. */
  index(): IndexDb;
  /** Whether an index file exists yet. */
  hasIndex(): boolean;
  readonly locators: Map<string, string>;
  close(): void;
}

export interface OpenOptions {
  readonly dir: string;
  readonly now: () => number;
  readonly env?: Env;
  readonly readonly?: boolean;
}

export function openStore(opts: OpenOptions): Store {
  const layout = layoutOf(opts.dir);
  for (const p of [layout.docs, layout.global, layout.projects, layout.transcripts, layout.logs])
    refuseSymlinks(layout, p);
  let db: IndexDb | undefined;
  return {
    layout,
    now: opts.now,
    env: opts.env ?? {},
    locators: new Map(),
    index() {
      db ??= new IndexDb(layout.db, { readonly: opts.readonly === true && existsSync(layout.db) });
      return db;
    },
    hasIndex: () => existsSync(layout.db),
    close() {
      db?.close();
      db = undefined;
    },
  };
}

/** Creates the skeleton memex creates: docs/global/<built-in>/, transcripts/, logs/. */
export function ensureStore(store: Store): void {
  for (const dir of Object.values(BUILTIN_DIRS)) mkdirSync(join(store.layout.global, dir), { recursive: true });
  mkdirSync(store.layout.projects, { recursive: true });
  mkdirSync(store.layout.transcripts, { recursive: true });
  mkdirSync(store.layout.logs, { recursive: true });
}

export interface TypeDirRef {
  readonly scope: Scope;
  readonly locator?: string;
  readonly name: string;
  readonly path: string;
}

/** Every directory that can hold pages: docs/global/<built-in>/ and docs/projects/<locator>/<type>/. */
export function typeDirs(store: Store): TypeDirRef[] {
  const { global, projects } = store.layout;
  const out: TypeDirRef[] = [];
  for (const name of subdirs(global))
    if (builtinForDir(name)) out.push({ scope: "global", name, path: join(global, name) });
  for (const locator of subdirs(projects))
    for (const name of subdirs(join(projects, locator)))
      out.push({ scope: "project", locator, name, path: join(projects, locator, name) });
  return out;
}

/** The type a directory declares, by name: a built-in plural, else the directory's own name. */
export function dirType(name: string): string {
  return builtinForDir(name) ?? name;
}

export function readPage(store: Store, path: string): Page {
  refuseSymlinks(store.layout, path);
  const slug = basename(path, ".md");
  const text = readFileSync(path, "utf8");
  const page = parsePage(text, slug, path);
  const dir = basename(join(path, ".."));
  if (typeDir(page.type) !== dir) throw new PageError(`type \`${page.type}\` does not belong in directory \`${dir}/\``);
  return page;
}

const HEAD_CHUNK = 4096;

/**
 * A page's front matter only, its body never read: what the navigation engine returns. The file is read in chunks up
 * to the closing `---`, so a large body costs nothing; `bodyBytes` is what the rest of the file holds.
 */
export function readPageHead(store: Store, path: string): { page: Page; bodyBytes: number } {
  refuseSymlinks(store.layout, path);
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    let head = Buffer.alloc(0);
    let end = -1;
    for (let at = 0; end === -1 && at < size; at += HEAD_CHUNK) {
      const chunk = Buffer.alloc(Math.min(HEAD_CHUNK, size - at));
      readSync(fd, chunk, 0, chunk.length, at);
      head = Buffer.concat([head, chunk]);
      end = head.indexOf("\n---", 4);
    }
    if (end === -1) throw new PageError("closing `---` delimiter not found");
    const text = head.subarray(0, end + 4).toString("utf8");
    const page = parsePage(`${text}\n`, basename(path, ".md"), path);
    const dir = basename(join(path, ".."));
    if (typeDir(page.type) !== dir)
      throw new PageError(`type \`${page.type}\` does not belong in directory \`${dir}/\``);
    return { page, bodyBytes: Math.max(0, size - end - 4) };
  } finally {
    closeSync(fd);
  }
}

export interface ScanError {
  readonly path: string;
  readonly message: string;
}

/** Every page in the store; malformed ones are reported, never thrown, so one bad file cannot stop recall. */
export function scanPages(store: Store, errors: ScanError[] = []): Page[] {
  const pages: Page[] = [];
  for (const dir of typeDirs(store)) {
    for (const file of pageFiles(dir.path)) {
      const path = join(dir.path, file);
      try {
        pages.push(readPage(store, path));
      } catch (e) {
        errors.push({ path: rel(store, path), message: describe(e) });
      }
    }
  }
  return pages;
}

export function rel(store: Store, path: string): string {
  return relative(store.layout.root, path).split(sep).join("/");
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export interface Selector {
  readonly scope?: Scope;
  readonly projectId?: string;
}

/** A slug that names a file in a type directory and nothing else (`*`, `../x` and `Upper` are not slugs). */
export function checkSlug(slug: string): string {
  if (!isPageSlug(slug))
    throw new MemnoxError(
      "refused",
      `invalid slug \`${slug}\``,
      "a slug is lowercase letters, digits and `-`, as memnox memory recall shows it",
    );
  return slug;
}

/** Pages with this slug, found by checking each type directory rather than walking every page. */
export function findPages(store: Store, slug: string, sel: Selector = {}): Page[] {
  checkSlug(slug);
  const out: Page[] = [];
  for (const dir of typeDirs(store)) {
    if (sel.scope && dir.scope !== sel.scope) continue;
    const path = join(dir.path, `${slug}.md`);
    if (!existsSync(path)) continue;
    const page = readPage(store, path);
    if (sel.projectId !== undefined && page.project_id !== sel.projectId) continue;
    out.push(page);
  }
  return out;
}

/** Exactly one page, or an error naming how to tell them apart. */
export function findOne(store: Store, slug: string, sel: Selector = {}): Page {
  const found = findPages(store, slug, sel);
  const [only] = found;
  if (!only)
    throw new MemnoxError(
      "not_found",
      `no memory page \`${slug}\`: the page is missing`,
      "memnox memory recall finds slugs",
    );
  if (found.length > 1)
    throw new MemnoxError(
      "conflict",
      `\`${slug}\` names ${found.length} pages`,
      "say which with --scope global, or --scope project --project-id <id>",
    );
  return only;
}

/** The project id a folder under docs/projects/ belongs to: from its pages, else its type logs. */
export function ownerOf(store: Store, locator: string): string | undefined {
  const root = join(store.layout.projects, locator);
  for (const name of subdirs(root)) {
    for (const file of pageFiles(join(root, name))) {
      try {
        const page = readPage(store, join(root, name, file));
        if (page.project_id) return page.project_id;
      } catch {
        // a malformed page says nothing about ownership; verify reports it
      }
    }
    const events = readEvents(join(root, name), dirType(name));
    const last = events.at(-1);
    if (last) return last.project;
  }
  return undefined;
}

/** The folder a project's pages live in: its existing one, else its locator (suffixed when another owns it). */
export function projectLocator(store: Store, project: ProjectRef): string {
  const cached = store.locators.get(project.id);
  if (cached) return cached;
  const owned = subdirs(store.layout.projects).filter((loc) => ownerOf(store, loc) === project.id);
  if (owned.length > 1)
    throw new MemnoxError(
      "conflict",
      `project \`${project.id}\` spans several folders: ${owned.join(", ")}`,
      "move its pages into one folder",
    );
  let locator = owned[0];
  if (!locator) {
    const base = project.locator ?? project.id;
    locator = base;
    for (let n = 2; ; n++) {
      const owner = ownerOf(store, locator);
      if (owner === undefined || owner === project.id) break;
      if (project.explicitLocator)
        throw new MemnoxError("conflict", `project folder \`${base}\` belongs to a different project_id`);
      locator = `${base}-${n}`;
    }
  }
  refuseSymlinks(store.layout, join(store.layout.projects, locator));
  store.locators.set(project.id, locator);
  return locator;
}

/** The folder a project already has, without choosing one. */
export function existingLocator(store: Store, projectId: string): string | undefined {
  const cached = store.locators.get(projectId);
  if (cached) return cached;
  const found = subdirs(store.layout.projects).find((loc) => ownerOf(store, loc) === projectId);
  if (found) store.locators.set(projectId, found);
  return found;
}

export function pagePath(store: Store, scope: Scope, locator: string | undefined, type: string, slug: string): string {
  return join(scopeRoot(store.layout, scope, locator), typeDir(type), `${slug}.md`);
}

export interface TypeInfo {
  readonly kind: Kind | "undeclared";
  readonly description: string;
}

/** Whether a project has declared a type, and as what. */
export function typeInfo(store: Store, locator: string | undefined, type: string): TypeInfo {
  if (builtinForDir(typeDir(type))) return { kind: "builtin", description: "" };
  if (!locator || !validTypeName(type)) return { kind: "undeclared", description: "" };
  const dir = join(store.layout.projects, locator, typeDir(type));
  if (!isDirectory(dir)) return { kind: "undeclared", description: "" };
  return stateOf(readEvents(dir, type), isCatalogue(type));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function fileStamp(path: string): { mtime: number; size: number } {
  const s = statSync(path);
  return { mtime: s.mtimeMs, size: s.size };
}

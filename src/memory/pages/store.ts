// A memory store on disk: its layout, its pages, its project folders and its (lazily opened) index.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import type { Env } from "../../ports/index.ts";
import { BUILTIN_DIRS, builtinForDir, type Kind, TYPE_NAME, typeDir } from "../format/kinds.ts";
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

interface OpenOptions {
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

interface TypeDirRef {
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
  if (typeDir(page.type) !== dir)
    throw new MisfiledPage(`type \`${page.type}\` does not belong in directory \`${dir}/\``);
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
  /** The page parsed, but its type is not its directory's. */
  readonly mismatch?: boolean;
}

/** A page whose front matter names another type than its directory holds. */
class MisfiledPage extends PageError {}

/** Every page in the store; malformed ones are reported, never thrown, so one bad file cannot stop recall. */
export function scanPages(store: Store, errors: ScanError[] = []): Page[] {
  const pages: Page[] = [];
  for (const dir of typeDirs(store)) {
    for (const file of pageFiles(dir.path)) {
      const path = join(dir.path, file);
      try {
        pages.push(readPage(store, path));
      } catch (e) {
        errors.push({
          path: rel(store, path),
          message: describe(e),
          ...(e instanceof MisfiledPage ? { mismatch: true } : {}),
        });
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
function checkSlug(slug: string): string {
  if (!isPageSlug(slug))
    throw new MemnoxError(
      "refused",
      `invalid wiki slug: '${slug}'`,
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

/** A missing page, in memex's words (its FileNotFoundError) and with where to look. */
function missingPage(slug: string): MemnoxError {
  return new MemnoxError("not_found", `no wiki page for slug: '${slug}'`, "memnox memory recall finds slugs");
}

/** Exactly one page, or an error naming how to tell them apart. */
export function findOne(store: Store, slug: string, sel: Selector = {}): Page {
  const found = findPages(store, slug, sel);
  const [only] = found;
  if (!only) throw missingPage(slug);
  if (found.length > 1)
    throw new MemnoxError(
      "conflict",
      `ambiguous wiki page for slug '${slug}': ${found
        .map((p) => `scope='${p.scope}', project_id='${p.project_id ?? ""}', type='${p.type}', slug='${p.slug}'`)
        .join(", ")}`,
      "say which with --scope global, or --scope project --project-id <id>",
    );
  return only;
}

/** The project id a folder under docs/projects/ belongs to: from its pages, else from a type log memnox wrote before. */
export function ownerOf(store: Store, locator: string): string | undefined {
  const root = join(store.layout.projects, locator);
  const names = subdirs(root);
  for (const name of names) {
    for (const file of pageFiles(join(root, name))) {
      try {
        const page = readPage(store, join(root, name, file));
        if (page.project_id) return page.project_id;
      } catch {
        // a malformed page says nothing about ownership; verify reports it
      }
    }
  }
  for (const name of names) {
    const legacy = readEvents(join(root, name), dirType(name)).findLast((e) => e.project);
    if (legacy?.project) return legacy.project;
  }
  return undefined;
}

function ownedFolders(store: Store, projectId: string): string[] {
  return subdirs(store.layout.projects).filter((loc) => ownerOf(store, loc) === projectId);
}

function belongsElsewhere(locator: string): never {
  throw new MemnoxError("conflict", `project directory '${locator}' belongs to a different project_id`);
}

/**
 * The folder a project's pages live in, as memex places them: the folder its pages already hold (a legacy ID-named
 * one when several do), else the locator asked for, else its ID-named folder. A folder owned by another project is
 * refused when named explicitly; a derived locator takes the next free `-2`, `-3` instead.
 */
export function projectLocator(store: Store, project: ProjectRef): string {
  const cached = store.locators.get(project.id);
  if (cached) return cached;
  if (project.explicitLocator && project.locator) {
    const owner = ownerOf(store, project.locator);
    if (owner !== undefined && owner !== project.id) belongsElsewhere(project.locator);
  }
  const owned = ownedFolders(store, project.id);
  let locator = owned.length > 1 && owned.includes(project.id) ? project.id : owned[0];
  if (owned.length > 1 && locator !== project.id)
    throw new MemnoxError(
      "conflict",
      `project_id '${project.id}' spans multiple directories: ${owned.join(", ")}`,
      "move its pages into one folder (a maintenance step: back up first)",
    );
  if (!locator) {
    const base = project.locator ?? project.id;
    locator = base;
    for (let n = 2; ; n++) {
      const owner = ownerOf(store, locator);
      if (owner === undefined || owner === project.id) break;
      if (project.explicitLocator || base === project.id) belongsElsewhere(base);
      locator = `${base}-${n}`;
    }
  }
  refuseSymlinks(store.layout, join(store.layout.projects, locator));
  store.locators.set(project.id, locator);
  return locator;
}

/**
 * The folder a project already has, without making one: the folder its pages hold, else a folder of its locator or
 * its id that no other project's pages hold (declared types before any page).
 */
export function existingLocator(
  store: Store,
  project: string | Pick<ProjectRef, "id" | "locator">,
): string | undefined {
  const ref = typeof project === "string" ? { id: project } : project;
  const cached = store.locators.get(ref.id);
  if (cached) return cached;
  const owned = ownedFolders(store, ref.id);
  let found = owned.includes(ref.id) ? ref.id : owned[0];
  if (!found) {
    const present = new Set(subdirs(store.layout.projects));
    found = [ref.locator, ref.id].find((c) => c !== undefined && present.has(c) && ownerOf(store, c) === undefined);
  }
  if (found && owned.length <= 1) store.locators.set(ref.id, found);
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
  if (!locator || !TYPE_NAME.test(type)) return { kind: "undeclared", description: "" };
  const dir = join(store.layout.projects, locator, typeDir(type));
  if (!isDirectory(dir)) return { kind: "undeclared", description: "" };
  return stateOf(readEvents(dir, type), type);
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

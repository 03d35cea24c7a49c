// Managing a project's types: the directory is the declaration, log.md the history, and nothing is erased.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import {
  BUILTIN_TYPES,
  builtinForDir,
  CATALOGUE,
  isCatalogue,
  type Kind,
  typeDir,
  typeNameProblem,
  validTypeName,
} from "../format/kinds.ts";
import { pageFiles, refuseSymlinks, subdirs } from "../format/layout.ts";
import type { ProjectRef } from "../format/project.ts";
import { scrub } from "../format/scrub.ts";
import { isoSeconds } from "../format/time.ts";
import { appendEvent, checkDeclarationText } from "../format/typelog.ts";
import { forget } from "../pages/lifecycle.ts";
import { logOp } from "../pages/oplog.ts";
import { existingLocator, projectLocator, readPage, type Store, scanPages, typeInfo } from "../pages/store.ts";

export interface TypeRow {
  readonly name: string;
  readonly kind: Kind;
  readonly description: string;
  readonly pages: number;
  readonly directory: string;
}

function row(name: string, kind: Kind, description: string, directory: string): TypeRow {
  return { name, kind, description, pages: pageFiles(directory).length, directory };
}

/** The project's folder: the one its pages (or declarations) hold, else the one its next write would make. */
function projectRoot(store: Store, project: ProjectRef): { root: string; locator: string | undefined } {
  const locator = existingLocator(store, project);
  return { root: join(store.layout.projects, locator ?? project.locator ?? project.id), locator };
}

/** A project directory that could hold a declared type: not a built-in's plural, a name a type could have. */
function declarable(name: string): boolean {
  return !builtinForDir(name) && validTypeName(name);
}

/** The types a project (or, without one, the global scope) has, with their page counts; withdrawn ones included. */
export function listTypes(store: Store, project: ProjectRef | undefined): TypeRow[] {
  if (project === undefined)
    return BUILTIN_TYPES.map((t) => row(t, "builtin", "", join(store.layout.global, typeDir(t))));
  const { root, locator } = projectRoot(store, project);
  const out = BUILTIN_TYPES.map((t) => row(t, "builtin", "", join(root, typeDir(t))));
  if (!locator) return out;
  for (const name of subdirs(root)) {
    if (!declarable(name)) continue;
    const info = typeInfo(store, locator, name);
    // A folder with no declaration line in its log.md (a stray folder) declares nothing.
    if (info.kind === "undeclared" || info.kind === "builtin") continue;
    out.push(row(name, info.kind, info.description, join(root, name)));
  }
  return out;
}

function refuse(message: string, hint?: string): never {
  throw new MemnoxError("refused", message, hint);
}

/** Creates the type's directory and its first log.md line, or re-declares a withdrawn type by appending one. */
function declare(
  store: Store,
  project: ProjectRef,
  name: string,
  description: string,
  by: string,
  verb: "declare" | "propose",
): TypeRow {
  const text = scrub(description.trim()).text;
  checkDeclarationText(text);
  const locator = projectLocator(store, project);
  const dir = join(store.layout.projects, locator, name);
  refuseSymlinks(store.layout, dir);
  if (existsSync(dir)) {
    const kind = typeInfo(store, locator, name).kind;
    if (kind === "undeclared")
      refuse(
        `directory '${name}' exists without a declaration; remove or rename it first`,
        `a folder with no declaration in its log.md declares nothing: ${join(locator, name)}`,
      );
    // A draft is accepted by declaring it; anything else declared stays as it is.
    if (kind !== "withdrawn" && !(kind === "draft" && verb === "declare"))
      refuse(`type '${name}' is already declared`, "memnox memory types list shows the project's types");
  } else {
    mkdirSync(dir, { recursive: true });
  }
  appendEvent(dir, { at: isoSeconds(store.now()), verb, type: name, by: actor(by), text });
  logOp(store, { op: `types-${verb}`, slugs: [name] });
  const info = typeInfo(store, locator, name);
  return row(name, info.kind === "undeclared" || info.kind === "builtin" ? "custom" : info.kind, info.description, dir);
}

/** The actor of a log line is one word: the line's shape is `... by <actor>[: <text>]`. */
function actor(by: string): string {
  return by.replace(/\s+/g, "_").replace(/:/g, "_") || "user";
}

/** Declares a custom type (or accepts a draft, or brings a withdrawn one back). */
export function addType(store: Store, project: ProjectRef, name: string, description: string, by: string): TypeRow {
  if (isCatalogue(name))
    refuse(`'${name}' is a catalogue type; run memex types enable`, `memnox memory types enable ${name}`);
  const problem = typeNameProblem(name, true);
  if (problem) refuse(problem);
  return declare(store, project, name, description, by, "declare");
}

/** Turns on one of the catalogue types for a project. */
export function enableType(store: Store, project: ProjectRef, name: string, by: string): TypeRow {
  const problem = typeNameProblem(name);
  if (problem) refuse(problem);
  if (!isCatalogue(name))
    refuse(
      `'${name}' is not a catalogue type; run memex types add`,
      `the catalogue is ${Object.keys(CATALOGUE).join(", ")}; memnox memory types add ${name} declares a custom type`,
    );
  return declare(store, project, name, CATALOGUE[name] ?? "", by, "declare");
}

/** Nominates a draft type: its pages stay pending until a person declares it and approves them. */
export function proposeType(store: Store, project: ProjectRef, name: string, by: string, note: string): TypeRow {
  const problem = typeNameProblem(name, !isCatalogue(name));
  if (problem) refuse(problem);
  return declare(store, project, name, note, by, "propose");
}

interface Removed {
  readonly removed: string;
  readonly archived: number;
}

/** Withdraws a type; refuses while it holds pages unless `force`, which archives them first. */
export function removeType(
  store: Store,
  project: ProjectRef,
  name: string,
  opts: { force: boolean; by: string },
): Removed {
  const problem = typeNameProblem(name);
  if (problem) refuse(problem);
  const declared = listTypes(store, project).find((t) => t.name === name);
  if (!declared || declared.kind === "builtin")
    refuse(`type '${name}' is not declared for this project`, "memnox memory types list shows the project's types");
  if (declared.kind === "withdrawn") refuse(`type '${name}' is already withdrawn`);
  const dir = declared.directory;
  const live = pageFiles(dir)
    .map((f) => readPage(store, join(dir, f)))
    .filter((p) => p.status !== "archived");
  if (live.length > 0 && !opts.force)
    refuse(`type '${name}' holds ${live.length} page(s); pass --force to archive them first`);
  for (const p of live) forget(store, p.slug, "archive", { scope: "project", projectId: project.id });
  appendEvent(dir, {
    at: isoSeconds(store.now()),
    verb: "remove",
    type: name,
    by: actor(opts.by),
    text: `archived=${live.length}`,
  });
  logOp(store, { op: "types-remove", slugs: [name] });
  return { removed: name, archived: live.length };
}

interface Suggestion {
  readonly tag: string;
  readonly pages: number;
  /** How to accept it. */
  readonly command: string;
}

/** Tags that recur on at least `minPages` of a project's pages and are not types yet; no model involved. */
export function suggestTypes(store: Store, project: ProjectRef, minPages = 3): Suggestion[] {
  const known = new Set(listTypes(store, project).map((t) => t.name));
  const counts = new Map<string, number>();
  for (const page of scanPages(store)) {
    if (page.project_id !== project.id) continue;
    for (const tag of page.tags) {
      if (typeNameProblem(tag) || known.has(tag) || !validTypeName(tag)) continue;
      counts.set(tag, (counts.get(tag) ?? 0) + 1);
    }
  }
  return [...counts]
    .filter(([, n]) => n >= minPages)
    .map(([tag, pages]) => ({ tag, pages, command: `memnox memory types add ${tag}` }))
    .sort((a, b) => b.pages - a.pages || (a.tag < b.tag ? -1 : 1));
}

// Managing a project's types: the directory is the declaration, log.md the history, and nothing is erased.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import {
  BUILTIN_DESCRIPTIONS,
  BUILTIN_TYPES,
  builtinForDir,
  CATALOGUE,
  isBuiltin,
  isCatalogue,
  type Kind,
  typeDir,
  validTypeName,
} from "../format/kinds.ts";
import { pageFiles, subdirs } from "../format/layout.ts";
import type { ProjectRef } from "../format/project.ts";
import { scrub } from "../format/scrub.ts";
import { isoSeconds } from "../format/time.ts";
import { appendEvent, type TypeAction, type TypeEvent } from "../format/typelog.ts";
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

/** The types a project (or, without one, the global scope) has, with their page counts. */
export function listTypes(store: Store, project: ProjectRef | undefined): TypeRow[] {
  if (project === undefined)
    return BUILTIN_TYPES.map((t) => row(t, "builtin", BUILTIN_DESCRIPTIONS[t], join(store.layout.global, typeDir(t))));
  const locator = existingLocator(store, project.id);
  const root = join(store.layout.projects, locator ?? project.locator ?? project.id);
  const out = BUILTIN_TYPES.map((t) => row(t, "builtin", BUILTIN_DESCRIPTIONS[t], join(root, typeDir(t))));
  if (!locator) return out;
  for (const name of subdirs(root)) {
    // A directory whose name no type could have (a stray folder) declares nothing.
    if (builtinForDir(name) || !validTypeName(name)) continue;
    const info = typeInfo(store, locator, name);
    if (info.kind === "undeclared" || info.kind === "builtin") continue;
    const description = info.description || CATALOGUE[name] || "";
    out.push(row(name, info.kind, description, join(root, name)));
  }
  return out;
}

function record(
  store: Store,
  project: ProjectRef,
  name: string,
  action: TypeAction,
  kind: TypeEvent["kind"],
  by: string,
  note: string,
): TypeRow {
  const locator = projectLocator(store, project);
  const dir = join(store.layout.projects, locator, name);
  mkdirSync(dir, { recursive: true });
  const clean = scrub(note.replace(/\s+/g, " ").trim()).text;
  appendEvent(dir, {
    at: isoSeconds(store.now()),
    action,
    type: name,
    kind,
    project: project.id,
    by: by.replace(/\s+/g, "_") || "unknown",
    note: clean,
  });
  logOp(store, { op: `types-${action}`, slugs: [name] });
  const info = typeInfo(store, locator, name);
  return row(
    name,
    info.kind === "undeclared" || info.kind === "builtin" ? "custom" : info.kind,
    info.description || CATALOGUE[name] || "",
    dir,
  );
}

function checkName(name: string): void {
  if (isBuiltin(name))
    throw new MemnoxError("conflict", `type \`${name}\` already exists: it is a built-in type and always declared`);
  if (!validTypeName(name))
    throw new MemnoxError(
      "refused",
      `invalid type name \`${name}\`: not a usable type name`,
      "a type name is lowercase letters, digits and `-`, starts with a letter or digit, is at most 63 characters, and is not index, log or a built-in's directory",
    );
}

/** A type's description is one line, like a page's. */
function checkDescription(description: string): string {
  for (const ch of description)
    if (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)
      throw new MemnoxError("refused", "a type's description must be a single line");
  return description.trim();
}

function alreadyExists(name: string, kind: Kind | "undeclared"): never {
  throw new MemnoxError(
    "conflict",
    `type \`${name}\` already exists for this project (${kind})`,
    "memnox memory types list shows the project's types",
  );
}

function current(store: Store, project: ProjectRef, name: string): Kind | "undeclared" {
  const locator = existingLocator(store, project.id);
  return typeInfo(store, locator, name).kind;
}

/** Declares a custom type (or accepts a draft, or brings a withdrawn one back). */
export function addType(store: Store, project: ProjectRef, name: string, description: string, by: string): TypeRow {
  checkName(name);
  const note = checkDescription(description);
  if (isCatalogue(name)) return enableType(store, project, name, by);
  const kind = current(store, project, name);
  if (kind === "custom") alreadyExists(name, kind);
  return record(store, project, name, "declared", "custom", by, note);
}

/** Turns on one of the catalogue types for a project. */
export function enableType(store: Store, project: ProjectRef, name: string, by: string): TypeRow {
  if (!isCatalogue(name))
    throw new MemnoxError(
      "refused",
      `\`${name}\` is not in the catalogue (${Object.keys(CATALOGUE).join(", ")})`,
      `declare it with memnox memory types add ${name}`,
    );
  const kind = current(store, project, name);
  if (kind === "catalogue") alreadyExists(name, kind);
  return record(store, project, name, "declared", "catalogue", by, CATALOGUE[name] ?? "");
}

/** Nominates a draft type: its pages stay pending until a person declares it and approves them. */
export function proposeType(store: Store, project: ProjectRef, name: string, by: string, note: string): TypeRow {
  checkName(name);
  const kind = current(store, project, name);
  if (kind !== "undeclared" && kind !== "withdrawn") alreadyExists(name, kind);
  return record(store, project, name, "proposed", "draft", by, note);
}

/** Withdraws a type; refuses while it holds pages unless `force`, which archives them first. */
export function removeType(
  store: Store,
  project: ProjectRef,
  name: string,
  opts: { force: boolean; by: string },
): TypeRow & { archived: number } {
  checkName(name);
  const locator = existingLocator(store, project.id);
  const kind = typeInfo(store, locator, name).kind;
  if (kind === "undeclared" || kind === "withdrawn" || !locator)
    throw new MemnoxError("not_found", `\`${name}\` is not a declared type of this project`);
  const dir = join(store.layout.projects, locator, name);
  const live = pageFiles(dir)
    .map((f) => readPage(store, join(dir, f)))
    .filter((p) => p.status !== "archived");
  if (live.length > 0 && !opts.force)
    throw new MemnoxError(
      "refused",
      `type \`${name}\` still holds ${live.length} page${live.length === 1 ? "" : "s"}`,
      "pass --force to archive them first",
    );
  for (const p of live) forget(store, p.slug, "archive", { scope: "project", projectId: project.id });
  const out = record(
    store,
    project,
    name,
    "withdrawn",
    kind === "draft" ? "draft" : kind === "catalogue" ? "catalogue" : "custom",
    opts.by,
    "",
  );
  return { ...out, archived: live.length };
}

export interface Suggestion {
  /** The suggested type's name: the recurring tag. */
  readonly name: string;
  readonly tag: string;
  readonly pages: number;
  /** How to accept it. */
  readonly command: string;
}

/** Tags that recur on at least `minPages` of a project's pages and are not types yet; no model involved. */
export function suggestTypes(store: Store, project: ProjectRef, minPages = 3): Suggestion[] {
  const projectId = project.id;
  const known = new Set(listTypes(store, project).map((t) => t.name));
  const counts = new Map<string, number>();
  for (const page of scanPages(store)) {
    if (page.project_id !== projectId) continue;
    for (const tag of page.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  return [...counts]
    .filter(([tag, n]) => n >= minPages && !known.has(tag) && validTypeName(tag))
    .map(([name, pages]) => ({ name, tag: name, pages, command: `memnox memory types add ${name}` }))
    .sort((a, b) => b.pages - a.pages || (a.name < b.name ? -1 : 1));
}

// Writing a page: validate, redact, place by scope and type, keep identity on update, index it, splice navigation.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import { writeFileAtomic } from "../../io/files.ts";
import { isAutomaticMemory, isBuiltin, typeDir, typeNameProblem } from "../format/kinds.ts";
import { refuseSymlinks, scopeRoot, subdirs } from "../format/layout.ts";
import {
  hashBody,
  type Page,
  type PageMeta,
  renderPage,
  type Scope,
  type Status,
  type TypedLink,
} from "../format/page.ts";
import { labelProblem, type ProjectRef } from "../format/project.ts";
import { scrub } from "../format/scrub.ts";
import { deriveSlug, isPageSlug, RESERVED_SLUGS, slugify, uniqueSlug } from "../format/slug.ts";
import { isoProblem, isoSeconds, isTimestamp, normalizeTimestamp, timestampProblem } from "../format/time.ts";
import { memoryConfig } from "./config.ts";
import { refreshDecisions } from "./decisions.ts";
import { refreshPage } from "./navigation.ts";
import { logOp } from "./oplog.ts";
import {
  ensureStore,
  fileStamp,
  pagePath,
  projectLocator,
  readPage,
  type Store,
  type TypeInfo,
  typeInfo,
} from "./store.ts";

/** Who is writing: a person's write is active, a model's knowledge waits for approval. */
export type Author = "person" | "model";

export interface WriteInput {
  readonly type: string;
  readonly title: string;
  readonly body: string;
  readonly scope: Scope;
  readonly project?: ProjectRef;
  /** Update this slug in place; without it a new slug is derived from the title. */
  readonly slug?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly importance?: number;
  readonly links?: readonly TypedLink[];
  readonly resource?: string;
  readonly validFrom?: string;
  readonly validUntil?: string;
  readonly staleAfter?: string;
  readonly parent?: string;
  readonly supersedes?: readonly string[];
  readonly implements?: readonly string[];
  readonly dependsOn?: readonly string[];
  readonly occurredAt?: string;
  readonly source?: string;
  readonly harness?: string;
  readonly confidence?: string;
  readonly sessionId?: string;
  readonly transcriptRef?: string;
  readonly status?: Status;
  readonly author: Author;
  /** `kept` for a page carried in whole (an import): its times are read as written, and a past valid_until kept. */
  readonly window?: "checked" | "kept";
  /** Identity carried in from an import, used only when the page does not exist yet. */
  readonly preserve?: {
    readonly id?: string;
    readonly created?: string;
    readonly accessCount?: number;
    readonly lastAccess?: string;
  };
}

export interface WriteResult {
  readonly slug: string;
  readonly file_path: string;
  readonly id: string;
  readonly type: string;
  readonly scope: Scope;
  readonly project_id: string | null;
  readonly status: Status;
  readonly created: boolean;
  readonly redacted: readonly string[];
}

const MAX_DESCRIPTION_BYTES = 512;

function refuse(message: string, hint?: string): never {
  throw new MemnoxError("refused", message, hint);
}

const hasControl = (value: string) => [...value].some((ch) => ch < " " || ch === "\x7f");

function oneLine(field: string, value: string): string {
  if (hasControl(value)) refuse(`${field} must be a single line`);
  return value;
}

/** Lowercased, `-` for spaces; an empty tag or the same tag twice is an error, in memex's words. */
function normalizeTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of tags) {
    const clean = t.trim().toLowerCase().replace(/ /g, "-");
    if (!clean) refuse("tags must be non-empty", "drop the empty item from the comma-separated list");
    oneLine("a tag", clean);
    if (out.includes(clean)) refuse("tags must be unique", `\`${clean}\` is given twice`);
    out.push(clean);
  }
  return out;
}

/** A relation names a page: a title given for it is slugged, as `[[Ruff Linter]]` becomes `ruff-linter`. */
function relationSlug(value: string): string {
  return slugify(value.trim());
}

function checkSlugList(field: string, given: readonly string[]): string[] {
  const slugs = given.map(relationSlug);
  if (slugs.some((s) => !s)) refuse(`${field} must contain non-empty slugs`);
  const twice = slugs.find((s, i) => slugs.indexOf(s) !== i);
  if (twice !== undefined) refuse(`${field} must be unique`, `\`${twice}\` is given twice`);
  return slugs;
}

function checkLinks(links: readonly TypedLink[]): TypedLink[] {
  const out: TypedLink[] = [];
  for (const l of links) {
    if (!l.target.trim()) refuse("link target must be non-empty");
    const target = relationSlug(l.target);
    if (!target) refuse("link target must be non-empty", `\`${l.target}\` has no letters or digits to make a slug`);
    const rel = oneLine("link rel", l.rel.trim().toLowerCase().replace(/ /g, "-"));
    if (!rel) refuse("link rel must be non-empty");
    if (out.some((o) => o.target === target && o.rel === rel))
      refuse("links must be unique on (target, rel)", `\`${target}:${rel}\` is given twice`);
    out.push({ target, rel });
  }
  return out;
}

function checkTime(field: string, value: string | undefined, strict: boolean): string | null {
  if (value === undefined) return null;
  const problem = strict
    ? isoProblem(field, value)
    : isTimestamp(value, true)
      ? undefined
      : timestampProblem(field, value, true);
  if (problem) refuse(problem);
  return value;
}

/** Refuses a type the scope has not declared, before anything is written, in memex's words and with the remedy. */
function checkType(store: Store, input: WriteInput, locator: string | undefined): TypeInfo {
  if (isBuiltin(input.type)) return { kind: "builtin", description: "" };
  if (input.scope === "global")
    refuse(
      `undeclared type '${input.type}': global scope holds the built-in types only`,
      "catalogue and custom types are project-scoped: write it with --scope project",
    );
  const info = typeInfo(store, locator, input.type);
  if (info.kind === "undeclared")
    refuse(
      `undeclared type '${input.type}' for this project; run memex types add or memex types enable`,
      `memnox memory types add ${input.type}, or memnox memory types enable ${input.type} for a catalogue type`,
    );
  if (info.kind === "withdrawn")
    refuse(
      `undeclared type '${input.type}': withdrawn; run memex types add or memex types enable to re-declare it`,
      `memnox memory types add ${input.type} (or enable) declares it again`,
    );
  return info;
}

function defaultStatus(store: Store, input: WriteInput, info: TypeInfo): Status {
  if (info.kind === "draft") return "pending";
  if (input.author === "person" || isAutomaticMemory(input.type)) return "active";
  return memoryConfig(store).knowledgeApproval === "auto" ? "active" : "pending";
}

function slugTaken(root: string, slug: string): boolean {
  return subdirs(root).some((d) => existsSync(join(root, d, `${slug}.md`)));
}

function chooseSlug(store: Store, input: WriteInput, title: string, root: string, id: string): string {
  if (input.slug !== undefined) {
    if (!isPageSlug(input.slug) || RESERVED_SLUGS.has(input.slug)) refuse(`invalid wiki slug: '${input.slug}'`);
    const clash = subdirs(root).find((d) => d !== typeDir(input.type) && existsSync(join(root, d, `${input.slug}.md`)));
    if (clash) refuse(`\`${input.slug}\` already names a page in \`${clash}/\` of this scope`);
    return input.slug;
  }
  const base = deriveSlug(title, memoryConfig(store).slugAlgo) || id.slice(0, 8);
  return uniqueSlug(base, (s) => slugTaken(root, s));
}

function checkPreserved(p: WriteInput["preserve"]): NonNullable<WriteInput["preserve"]> {
  if (!p) return {};
  if (p.id !== undefined && !/^[A-Za-z0-9-]{1,64}$/.test(p.id))
    refuse("an imported id must be letters, digits and `-`");
  if (p.created !== undefined) checkTime("created", p.created, true);
  if (p.lastAccess !== undefined) checkTime("last_access", p.lastAccess, true);
  if (p.accessCount !== undefined && !(Number.isInteger(p.accessCount) && p.accessCount >= 0))
    refuse("access_count must be a whole number");
  return p;
}

const utf8 = (s: string) => new TextEncoder().encode(s).length;

/** The fields memex checks before anything is read or written, in its order and words. */
function checkInput(store: Store, input: WriteInput) {
  const config = memoryConfig(store);
  const typeIssue = typeNameProblem(input.type);
  if (typeIssue) refuse(typeIssue);
  const title = input.title.trim();
  if (!title) refuse("title must be non-empty");
  oneLine("title", input.title);
  const description = input.description ?? "";
  if (utf8(description) > MAX_DESCRIPTION_BYTES)
    refuse("description must stay within 512 UTF-8 bytes", "one sentence saying when the page helps");
  if (hasControl(description)) refuse("description must be a single line without control characters");
  const importance = input.importance ?? config.defaultImportance;
  if (!(importance >= 0 && importance <= 1)) refuse("importance must be within [0.0, 1.0]");
  const tags = normalizeTags(input.tags ?? []);
  const links = checkLinks(input.links ?? []);
  let parent: string | null = null;
  if (input.parent?.trim()) {
    parent = relationSlug(input.parent);
    if (!parent) refuse("parent must be a page's slug or title", `\`${input.parent ?? ""}\` has no letters or digits`);
  }
  const supersedes = checkSlugList("supersedes", input.supersedes ?? []);
  const implementsList = checkSlugList("implements", input.implements ?? []);
  const dependsOn = checkSlugList("depends_on", input.dependsOn ?? []);
  if (input.type === "episode" && !input.sessionId?.trim()) refuse("session_id is required for episode nodes");
  if (input.sessionId !== undefined && !input.sessionId.trim()) refuse("session_id must be non-empty when provided");
  // A caller's times are memex's exact form; a page carried in (an import) keeps what it was written with.
  const strict = input.window !== "kept";
  const staleAfter = checkTime("stale_after", input.staleAfter, strict);
  const validFrom = checkTime("valid_from", input.validFrom, strict);
  const validUntil = checkTime("valid_until", input.validUntil, strict);
  const occurredAt = checkTime("occurred_at", input.occurredAt, strict);
  if (strict && validUntil !== null) {
    const now = isoSeconds(store.now());
    if (normalizeTimestamp(validUntil) <= now)
      refuse(
        `valid_until must be in the future, not in the past (${validUntil})`,
        "a page is hidden from valid_until onward; memnox memory forget --mode soft retires a page now",
      );
  }
  if (validFrom !== null && validUntil !== null && normalizeTimestamp(validFrom) > normalizeTimestamp(validUntil))
    refuse("valid_from must not follow valid_until");
  if (input.scope === "global" && input.project) refuse("project_id is only allowed for project scope");
  if (input.scope === "project" && !input.project) refuse("project_id is required for project scope");
  const label = input.scope === "project" ? input.project?.label : undefined;
  const labelIssue = label === undefined ? undefined : labelProblem(label);
  if (labelIssue) refuse(labelIssue);
  if (input.body.length > config.maxBodyChars) refuse(`body exceeds wiki.max_body_chars (${config.maxBodyChars})`);
  return {
    title,
    description,
    importance,
    tags,
    links,
    parent,
    supersedes,
    implementsList,
    dependsOn,
    staleAfter,
    validFrom,
    validUntil,
    occurredAt,
  };
}

/** The access counters a page carries into an update: the file's, or the index's when recall moved them since. */
function counters(store: Store, existing: Page | undefined): { count: number; last: string | null } | undefined {
  if (!existing) return undefined;
  const row = store.hasIndex()
    ? store.index().get(existing.scope, existing.project_id ?? "", existing.slug)
    : undefined;
  const count = Math.max(existing.access_count, row?.access_count ?? 0);
  const last = [existing.last_access, row?.last_access ?? null]
    .filter((v): v is string => v !== null)
    .sort()
    .at(-1);
  return { count, last: last ?? null };
}

export function writePage(store: Store, input: WriteInput): WriteResult {
  const v = checkInput(store, input);
  const locator = input.scope === "project" && input.project ? projectLocator(store, input.project) : undefined;
  const info = checkType(store, input, locator);
  const root = scopeRoot(store.layout, input.scope, locator);
  const newId = crypto.randomUUID();
  // The slug derives from the redacted title, so a credential in a title never reaches a file name.
  const slug = chooseSlug(store, input, scrub(v.title).text, root, newId);
  const path = pagePath(store, input.scope, locator, input.type, slug);
  const existing = existsSync(path) ? readPage(store, path) : undefined;

  const redacted = new Set<string>();
  const clean = (s: string) => {
    const r = scrub(s);
    for (const k of r.kinds) redacted.add(k);
    return r.text;
  };
  const body = clean(input.body).replace(/^\n+/, "");
  const storedDescription = clean(v.description);
  // The budget is on what is stored: a redaction marker can make a description that fit too long.
  if (utf8(storedDescription) > MAX_DESCRIPTION_BYTES)
    refuse("description exceeds 512 UTF-8 bytes after secret redaction; shorten the description");
  const hash = hashBody(body);
  const now = isoSeconds(store.now());
  const keep = checkPreserved(input.preserve);
  const access = counters(store, existing);
  const meta: PageMeta = {
    type: input.type,
    title: clean(v.title),
    description: storedDescription,
    resource: input.resource === undefined ? null : clean(oneLine("resource", input.resource)),
    tags: v.tags.map(clean),
    timestamp: now,
    valid_from: v.validFrom,
    valid_until: v.validUntil,
    stale_after: v.staleAfter,
    updated_at: existing && existing.content_hash === hash ? existing.updated_at : now,
    parent: v.parent,
    supersedes: v.supersedes,
    implements: v.implementsList,
    depends_on: v.dependsOn,
    links: v.links,
    id: existing?.id ?? keep.id ?? newId,
    created: existing?.created ?? keep.created ?? now,
    importance: v.importance,
    access_count: access?.count ?? keep.accessCount ?? 0,
    last_access: access ? access.last : (keep.lastAccess ?? null),
    content_hash: hash,
    status: input.status ?? defaultStatus(store, input, info),
    occurred_at: v.occurredAt,
    source: input.source === undefined ? null : clean(oneLine("source", input.source)),
    harness: input.harness === undefined ? null : oneLine("harness", input.harness),
    confidence: input.confidence === undefined ? null : oneLine("confidence", input.confidence),
    scope: input.scope,
    project_id: input.scope === "project" ? (input.project?.id ?? null) : null,
    project_label:
      input.scope === "project" ? clean(oneLine("project label", input.project?.label ?? "")) || null : null,
    session_id: input.sessionId === undefined ? null : oneLine("session id", input.sessionId),
    transcript_ref: input.transcriptRef === undefined ? null : oneLine("transcript ref", input.transcriptRef),
  };
  ensureStore(store);
  const page = storePage(store, meta, body, slug, path);
  logOp(store, { op: existing ? "update" : "write", slugs: [slug], redacted: [...redacted] });
  return {
    slug,
    file_path: path,
    id: page.id,
    type: page.type,
    scope: page.scope,
    project_id: page.project_id,
    status: page.status,
    created: !existing,
    redacted: [...redacted],
  };
}

/** Writes the file, mirrors it into the index and splices navigation; the file is the truth, the rest follows. */
export function storePage(store: Store, meta: PageMeta, body: string, slug: string, path: string): Page {
  refuseSymlinks(store.layout, path);
  writeFileAtomic(path, renderPage(meta, body), 0o644);
  const page: Page = { ...meta, slug, path, body };
  store.index().transaction(() => store.index().upsert(page, fileStamp(path)));
  try {
    refreshPage(store, path, page);
  } catch {
    // navigation is a view: a refresh failure never fails the write, and verify reports the drift
  }
  if (page.type === "decision") refreshDecisions(store);
  return page;
}

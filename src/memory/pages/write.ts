// Writing a page: validate, redact, place by scope and type, keep identity on update, index it, splice navigation.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import { writeFileAtomic } from "../../io/files.ts";
import { isAutomaticMemory, isBuiltin, typeDir } from "../format/kinds.ts";
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
import { isPageSlug, RESERVED_SLUGS, slugify, uniqueSlug } from "../format/slug.ts";
import { isoSeconds, isTimestamp, timestampProblem } from "../format/time.ts";
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

function oneLine(field: string, value: string): string {
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) refuse(`${field} must be a single line`);
  }
  return value;
}

/** Lowercased, `-` for spaces; an empty tag or the same tag twice is an error, as memex has it. */
export function normalizeTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of tags) {
    const clean = t.trim().toLowerCase().replace(/\s+/g, "-");
    if (!clean) refuse("tags must be non-empty");
    oneLine("a tag", clean);
    if (out.includes(clean)) refuse(`tags must be unique: \`${clean}\` is given twice`);
    out.push(clean);
  }
  return out;
}

function checkSlugList(field: string, slugs: readonly string[]): string[] {
  for (const s of slugs) if (!isPageSlug(s)) refuse(`${field} names \`${s}\`, which is not a slug`);
  const twice = slugs.find((s, i) => slugs.indexOf(s) !== i);
  if (twice !== undefined) refuse(`${field} must be unique: \`${twice}\` is given twice`);
  return [...slugs];
}

function checkLinks(links: readonly TypedLink[]): TypedLink[] {
  const out: TypedLink[] = [];
  for (const l of links) {
    const target = l.target.trim().toLowerCase();
    const rel = l.rel.trim();
    checkSlugList("links", [target]);
    if (!/^[a-z][a-z0-9_-]{0,63}$/.test(rel)) refuse(`link relation \`${rel}\` is not a word`);
    if (out.some((o) => o.target === target && o.rel === rel))
      refuse(`links must be unique: \`${target}:${rel}\` is given twice`);
    out.push({ target, rel });
  }
  return out;
}

function checkTime(field: string, value: string | undefined, allowDate: boolean): string | null {
  if (value === undefined) return null;
  if (!isTimestamp(value, allowDate)) refuse(timestampProblem(field, value, allowDate));
  return value;
}

/** Refuses a type the scope has not declared, before anything is written. */
function checkType(store: Store, input: WriteInput, locator: string | undefined): TypeInfo {
  if (input.scope === "global") {
    if (!isBuiltin(input.type))
      refuse(
        `type \`${input.type}\` is project-scoped`,
        "write it with --scope project, after memnox memory types enable/add",
      );
    return { kind: "builtin", description: "" };
  }
  const info = typeInfo(store, locator, input.type);
  if (info.kind === "undeclared")
    refuse(
      `undeclared type \`${input.type}\` for this project`,
      `run memnox memory types add ${input.type} or memnox memory types enable ${input.type}`,
    );
  if (info.kind === "withdrawn")
    refuse(
      `type \`${input.type}\` was withdrawn for this project`,
      `run memnox memory types add ${input.type} (or enable) to declare it again`,
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

function chooseSlug(input: WriteInput, title: string, root: string, id: string): string {
  if (input.slug !== undefined) {
    if (!isPageSlug(input.slug) || RESERVED_SLUGS.has(input.slug)) refuse(`\`${input.slug}\` is not a usable slug`);
    const clash = subdirs(root).find((d) => d !== typeDir(input.type) && existsSync(join(root, d, `${input.slug}.md`)));
    if (clash) refuse(`\`${input.slug}\` already names a page in \`${clash}/\` of this scope`);
    return input.slug;
  }
  const base = slugify(title) || id.slice(0, 8);
  return uniqueSlug(base, (s) => slugTaken(root, s));
}

function checkPreserved(p: WriteInput["preserve"]): NonNullable<WriteInput["preserve"]> {
  if (!p) return {};
  if (p.id !== undefined && !/^[A-Za-z0-9-]{1,64}$/.test(p.id))
    refuse("an imported id must be letters, digits and `-`");
  if (p.created !== undefined) checkTime("created", p.created, false);
  if (p.lastAccess !== undefined) checkTime("last_access", p.lastAccess, false);
  if (p.accessCount !== undefined && !(Number.isInteger(p.accessCount) && p.accessCount >= 0))
    refuse("access_count must be a whole number");
  return p;
}

export function writePage(store: Store, input: WriteInput): WriteResult {
  const config = memoryConfig(store);
  const title = oneLine("title", input.title.trim());
  if (!title) refuse("title must not be empty");
  const description = oneLine("description", input.description ?? "");
  if (new TextEncoder().encode(description).length > MAX_DESCRIPTION_BYTES)
    refuse(`description exceeds ${MAX_DESCRIPTION_BYTES} UTF-8 bytes`, "one sentence saying when the page helps");
  const importance = input.importance ?? config.defaultImportance;
  if (!(importance >= 0 && importance <= 1)) refuse("importance must be from 0 to 1");
  if (input.body.length > config.maxBodyChars) refuse(`body is longer than ${config.maxBodyChars} characters`);
  if (input.type === "episode" && !input.sessionId) refuse("an episode needs a session id");
  if (input.scope === "project" && !input.project) refuse("a project page needs a project (--project-id)");
  const tags = normalizeTags(input.tags ?? []);
  const links = checkLinks(input.links ?? []);
  const label = input.scope === "project" ? input.project?.label : undefined;
  const labelIssue = label === undefined ? undefined : labelProblem(label);
  if (labelIssue) refuse(labelIssue);
  const validFrom = checkTime("valid_from", input.validFrom, true);
  const validUntil = checkTime("valid_until", input.validUntil, true);
  const staleAfter = checkTime("stale_after", input.staleAfter, true);
  const occurredAt = checkTime("occurred_at", input.occurredAt, false);

  const locator = input.scope === "project" && input.project ? projectLocator(store, input.project) : undefined;
  const info = checkType(store, input, locator);
  const root = scopeRoot(store.layout, input.scope, locator);
  const newId = crypto.randomUUID();
  // The slug derives from the redacted title, so a credential in a title never reaches a file name.
  const slug = chooseSlug(input, scrub(title).text, root, newId);
  const path = pagePath(store, input.scope, locator, input.type, slug);
  const existing = existsSync(path) ? readPage(store, path) : undefined;

  const redacted = new Set<string>();
  const clean = (s: string) => {
    const r = scrub(s);
    for (const k of r.kinds) redacted.add(k);
    return r.text;
  };
  const body = clean(input.body).replace(/^\n+/, "");
  const storedDescription = clean(description);
  // The budget is on what is stored: a redaction marker can make a description that fit too long.
  if (new TextEncoder().encode(storedDescription).length > MAX_DESCRIPTION_BYTES)
    refuse(`description exceeds ${MAX_DESCRIPTION_BYTES} UTF-8 bytes after secret redaction; shorten the description`);
  const hash = hashBody(body);
  const now = isoSeconds(store.now());
  const keep = checkPreserved(input.preserve);
  const meta: PageMeta = {
    type: input.type,
    title: clean(title),
    description: storedDescription,
    resource: input.resource === undefined ? null : clean(oneLine("resource", input.resource)),
    tags: tags.map(clean),
    timestamp: now,
    valid_from: validFrom,
    valid_until: validUntil,
    stale_after: staleAfter,
    updated_at: existing && existing.content_hash === hash ? existing.updated_at : now,
    parent: input.parent === undefined ? null : (checkSlugList("parent", [input.parent])[0] ?? null),
    supersedes: checkSlugList("supersedes", input.supersedes ?? []),
    implements: checkSlugList("implements", input.implements ?? []),
    depends_on: checkSlugList("depends_on", input.dependsOn ?? []),
    links,
    id: existing?.id ?? keep.id ?? newId,
    created: existing?.created ?? keep.created ?? now,
    importance,
    access_count: existing?.access_count ?? keep.accessCount ?? 0,
    last_access: existing?.last_access ?? keep.lastAccess ?? null,
    content_hash: hash,
    status: input.status ?? defaultStatus(store, input, info),
    occurred_at: occurredAt,
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

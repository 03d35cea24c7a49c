// Export every page as memex's JSON node document; import one back, skipping (and reporting) what does not hold.
import { mkdirSync } from "node:fs";
import { basename, dirname } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import { writeFileAtomic } from "../../io/files.ts";
import { builtinForDir, TYPE_NAME, typeNameProblem, validTypeName } from "../format/kinds.ts";
import { opt } from "../format/opt.ts";
import type { Page, TypedLink } from "../format/page.ts";
import { STATUSES, type Status } from "../format/page.ts";
import { explicitProject } from "../format/project.ts";
import { RESERVED_SLUGS } from "../format/slug.ts";
import { isoSeconds } from "../format/time.ts";
import { logOp } from "../pages/oplog.ts";
import { ownerOf, type ScanError, type Store, scanPages, typeDirs, typeInfo } from "../pages/store.ts";
import { writePage } from "../pages/write.ts";
import { addType, enableType, listTypes, proposeType } from "../types/manage.ts";

/** memex's export version: its import reads ours and ours reads its. */
const EXPORT_VERSION = "1.0";

/** One page as memex exports it, in its key order; memnox's identity and telemetry fields follow, for a round trip. */
function exported(store: Store, page: Page): Record<string, unknown> {
  const row = store.hasIndex() ? store.index().get(page.scope, page.project_id ?? "", page.slug) : undefined;
  return {
    slug: page.slug,
    type: page.type,
    title: page.title,
    description: page.description,
    resource: page.resource,
    tags: page.tags,
    timestamp: page.timestamp,
    valid_from: page.valid_from,
    valid_until: page.valid_until,
    stale_after: page.stale_after,
    updated_at: page.updated_at,
    parent: page.parent,
    supersedes: page.supersedes,
    implements: page.implements,
    depends_on: page.depends_on,
    links: page.links.map((l) => ({ target: l.target, rel: l.rel })),
    created: page.created,
    importance: page.importance,
    status: page.status,
    body: page.body,
    transcript_ref: page.transcript_ref,
    scope: page.scope,
    project_id: page.project_id,
    project_label: page.project_label,
    id: page.id,
    access_count: Math.max(page.access_count, row?.access_count ?? 0),
    last_access: row?.last_access ?? page.last_access,
    session_id: page.session_id,
    occurred_at: page.occurred_at,
    source: page.source,
    harness: page.harness,
    confidence: page.confidence,
    project_locator: page.scope === "project" ? basename(dirname(dirname(page.path))) : null,
  };
}

/** A project's declared (or proposed) type, as memex's export lists it. */
interface TypeDeclaration {
  readonly scope: "project";
  readonly project_id: string;
  readonly name: string;
  readonly kind: string;
  readonly description: string;
}

/** Every declared type of every project whose id its pages (or declarations) say; withdrawn ones are not exported. */
function typeDeclarations(store: Store): TypeDeclaration[] {
  const out: TypeDeclaration[] = [];
  for (const dir of typeDirs(store)) {
    if (dir.scope !== "project" || !dir.locator || builtinForDir(dir.name) || !validTypeName(dir.name)) continue;
    const projectId = ownerOf(store, dir.locator);
    if (!projectId) continue;
    const info = typeInfo(store, dir.locator, dir.name);
    if (info.kind === "undeclared" || info.kind === "builtin" || info.kind === "withdrawn") continue;
    out.push({
      scope: "project",
      project_id: projectId,
      name: dir.name,
      kind: info.kind,
      description: info.description,
    });
  }
  return out;
}

/** The whole document, with what went into it: `version`, `exported_at`, `types`, `nodes`, as memex writes it. */
export function exportDocument(store: Store): {
  doc: Record<string, unknown>;
  text: string;
  nodes: number;
  skipped: ScanError[];
} {
  const errors: ScanError[] = [];
  const pages = scanPages(store, errors).sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const doc = {
    version: EXPORT_VERSION,
    exported_at: isoSeconds(store.now()),
    types: typeDeclarations(store),
    nodes: pages.map((p) => exported(store, p)),
  };
  logOp(store, { op: "export", count: pages.length });
  return { doc, text: `${JSON.stringify(doc, null, 2)}\n`, nodes: pages.length, skipped: errors };
}

/** Writes the document to `output` (its folder made as memex makes it) and returns the document. */
export function exportNodes(store: Store, output: string): ReturnType<typeof exportDocument> {
  const d = exportDocument(store);
  try {
    mkdirSync(dirname(output), { recursive: true });
    writeFileAtomic(output, d.text, 0o600);
  } catch (e) {
    throw new MemnoxError(
      "io",
      `cannot write the export: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  return d;
}

interface ImportReport {
  readonly imported: number;
  /** Entries without a slug, by title, as memex reports them. */
  readonly skipped: readonly string[];
  /** Why each other entry was not written: `<slug>: <reason>`. */
  readonly errors: readonly string[];
  readonly types_declared: number;
  readonly redacted: readonly string[];
}

type Entry = Record<string, unknown>;

const isEntry = (v: unknown): v is Entry => v !== null && typeof v === "object" && !Array.isArray(v);
const text = (e: Entry, key: string): string => (typeof e[key] === "string" ? (e[key] as string) : "");
const optional = (e: Entry, key: string): string | undefined => text(e, key) || undefined;

class EntryError extends Error {}

function strings(e: Entry, key: string): string[] {
  const v = e[key] ?? [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string"))
    throw new EntryError(`node field '${key}' must be a list of strings`);
  return v as string[];
}

function links(e: Entry): TypedLink[] {
  const v = e.links ?? [];
  if (!Array.isArray(v)) throw new EntryError("node field 'links' must be a list");
  return v.map((l: unknown) => {
    if (typeof l === "string") {
      const at = l.indexOf(":");
      return at === -1 ? { target: l, rel: "relates-to" } : { target: l.slice(0, at), rel: l.slice(at + 1) };
    }
    if (!isEntry(l)) throw new EntryError("link must be a string or a mapping with 'target' and 'rel'");
    const unknown = Object.keys(l).filter((k) => !["target", "rel", "label"].includes(k));
    if (unknown.length)
      throw new EntryError(
        `link has unsupported fields: [${unknown
          .sort()
          .map((k) => `'${k}'`)
          .join(", ")}]`,
      );
    if (typeof l.target !== "string") throw new EntryError("link is missing required field 'target'");
    return { target: l.target, rel: typeof l.rel === "string" ? l.rel : "relates-to" };
  });
}

/** Declares what the document's types say before any page needs them; a type already there is left alone. */
function importTypes(store: Store, raw: unknown, errors: string[]): number {
  let declared = 0;
  for (const entry of Array.isArray(raw) ? raw : []) {
    if (!isEntry(entry)) {
      errors.push("non-object type entry skipped");
      continue;
    }
    const name = String(entry.name ?? "");
    if (!TYPE_NAME.test(name)) {
      errors.push(`type '${name}': invalid name`);
      continue;
    }
    try {
      const project = explicitProject(String(entry.project_id ?? ""));
      if (listTypes(store, project).some((t) => t.name === name)) continue;
      const description = typeof entry.description === "string" ? entry.description : "";
      if (entry.kind === "draft") proposeType(store, project, name, "import", description);
      else if (entry.kind === "catalogue") enableType(store, project, name, "import");
      else addType(store, project, name, description, "import");
      declared++;
    } catch (e) {
      errors.push(`type '${name}': ${(e as Error).message}`);
    }
  }
  return declared;
}

function status(e: Entry): Status {
  const v = e.status ?? "active";
  if (typeof v === "string" && (STATUSES as readonly string[]).includes(v)) return v as Status;
  throw new EntryError(`status must be one of ${STATUSES.join(", ")}, got ${JSON.stringify(v)}`);
}

/** One node of the document, checked in memex's order and words, then written as a page carried in whole. */
function importNode(store: Store, e: Entry, redacted: Set<string>): string | undefined {
  const type = e.type;
  if (typeof type !== "string" || typeNameProblem(type))
    throw new EntryError(`invalid node type: ${JSON.stringify(type)}`);
  if (typeof e.title !== "string" || !e.title.trim()) throw new EntryError("node title must be a non-empty string");
  const importance = e.importance ?? 0.5;
  if (typeof importance !== "number") throw new EntryError("importance must be numeric");
  const slug = typeof e.slug === "string" ? e.slug : "";
  if (RESERVED_SLUGS.has(slug))
    throw new EntryError(`reserved slug '${slug}' cannot be imported; rename the page first`);
  if (e.description !== undefined && e.description !== null && typeof e.description !== "string")
    throw new EntryError("description must be a string or null");
  const scope = e.scope ?? "global";
  if (scope !== "global" && scope !== "project") throw new EntryError("scope must be 'global' or 'project'");
  if (scope === "project" && typeof e.project_id !== "string")
    throw new EntryError("project_id is required for project scope");
  if (e.project_id !== undefined && e.project_id !== null && typeof e.project_id !== "string")
    throw new EntryError("project_id must be a string or null");
  if (e.project_label !== undefined && e.project_label !== null && typeof e.project_label !== "string")
    throw new EntryError("project_label must be a string or null");
  if (!slug) return undefined;
  const project =
    scope === "project"
      ? explicitProject(
          String(e.project_id),
          typeof e.project_label === "string" ? e.project_label : undefined,
          optional(e, "project_locator"),
        )
      : undefined;
  const count = e.access_count;
  const r = writePage(store, {
    type,
    title: e.title,
    body: text(e, "body"),
    scope,
    slug,
    description: text(e, "description"),
    tags: strings(e, "tags"),
    importance,
    links: links(e),
    supersedes: strings(e, "supersedes"),
    implements: strings(e, "implements"),
    dependsOn: strings(e, "depends_on"),
    status: status(e),
    author: "person",
    window: "kept",
    ...(project ? { project } : {}),
    ...opt("resource", optional(e, "resource")),
    ...opt("validFrom", optional(e, "valid_from")),
    ...opt("validUntil", optional(e, "valid_until")),
    ...opt("staleAfter", optional(e, "stale_after")),
    ...opt("parent", optional(e, "parent")),
    ...opt("occurredAt", optional(e, "occurred_at")),
    ...opt("source", optional(e, "source")),
    ...opt("harness", optional(e, "harness")),
    ...opt("confidence", optional(e, "confidence")),
    ...opt("sessionId", optional(e, "session_id") ?? (type === "episode" ? slug : undefined)),
    ...opt("transcriptRef", optional(e, "transcript_ref")),
    preserve: {
      ...opt("id", optional(e, "id")),
      ...opt("created", optional(e, "created")),
      ...opt("accessCount", typeof count === "number" ? count : undefined),
      ...opt("lastAccess", optional(e, "last_access")),
    },
  });
  for (const k of r.redacted) redacted.add(k);
  return r.slug;
}

export function importNodes(store: Store, raw: string, source: string): ImportReport {
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (e) {
    throw new MemnoxError("refused", `cannot read import file: ${(e as Error).message}`, `\`${source}\` is not JSON`);
  }
  const nodes = isEntry(doc) ? doc.nodes : undefined;
  if (!Array.isArray(nodes))
    throw new MemnoxError("refused", "import document must contain a 'nodes' array", "import reads what export writes");
  const skipped: string[] = [];
  const errors: string[] = [];
  const redacted = new Set<string>();
  const typesDeclared = importTypes(store, (doc as Entry).types, errors);
  let imported = 0;
  for (const item of nodes) {
    if (!isEntry(item)) {
      errors.push("non-object node entry skipped");
      continue;
    }
    const given = typeof item.slug === "string" && item.slug ? `${item.slug}: ` : "";
    try {
      if (importNode(store, item, redacted) === undefined) {
        skipped.push(typeof item.title === "string" && item.title ? item.title : "<untitled>");
        continue;
      }
      imported++;
    } catch (e) {
      errors.push(`${given}${(e as Error).message}`);
    }
  }
  logOp(store, { op: "import", count: imported, redacted: [...redacted] });
  return { imported, skipped, errors, types_declared: typesDeclared, redacted: [...redacted] };
}

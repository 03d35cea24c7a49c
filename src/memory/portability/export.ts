// Export every page as one JSON document; import one back, skipping (and naming) every entry that does not hold.
import { mkdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import * as v from "valibot";
import { MemnoxError } from "../../core/errors.ts";
import { writeFileAtomic } from "../../io/files.ts";
import { builtinForDir, CATALOGUE, isCatalogue, validTypeName } from "../format/kinds.ts";
import { OKF_VERSION, type Page, STATUSES } from "../format/page.ts";
import { explicitProject } from "../format/project.ts";
import { isoSeconds, isTimestamp } from "../format/time.ts";
import { appendEvent, readEvents, type TypeEvent } from "../format/typelog.ts";
import { logOp } from "../pages/oplog.ts";
import {
  existingLocator,
  ownerOf,
  projectLocator,
  type ScanError,
  type Store,
  scanPages,
  typeDirs,
  typeInfo,
} from "../pages/store.ts";
import { writePage } from "../pages/write.ts";

export const EXPORT_FORMAT = "memnox-memory-export";

function exported(page: Page): Record<string, unknown> {
  const { path, ...rest } = page;
  return { ...rest, project_locator: page.scope === "project" ? basename(dirname(dirname(path))) : null };
}

/** A project's declared (or proposed, or withdrawn) type, with the log.md history that makes it so. */
export interface TypeDeclaration {
  readonly project_id: string;
  readonly project_locator: string;
  readonly name: string;
  readonly kind: string;
  readonly description: string;
  readonly events: readonly TypeEvent[];
}

/** Every non-built-in type directory of every project: a page of a custom type cannot be imported without it. */
export function typeDeclarations(store: Store): TypeDeclaration[] {
  const out: TypeDeclaration[] = [];
  for (const dir of typeDirs(store)) {
    if (dir.scope !== "project" || !dir.locator || builtinForDir(dir.name) || !validTypeName(dir.name)) continue;
    const projectId = ownerOf(store, dir.locator);
    if (!projectId) continue;
    const info = typeInfo(store, dir.locator, dir.name);
    if (info.kind === "undeclared" || info.kind === "builtin") continue;
    out.push({
      project_id: projectId,
      project_locator: dir.locator,
      name: dir.name,
      kind: info.kind,
      description: info.description || CATALOGUE[dir.name] || "",
      events: readEvents(dir.path, dir.name),
    });
  }
  return out;
}

/** The whole document as text, with what went into it. */
export function exportDocument(store: Store): { text: string; nodes: number; types: number; skipped: ScanError[] } {
  const errors: ScanError[] = [];
  const pages = scanPages(store, errors);
  const types = typeDeclarations(store);
  const doc = {
    format: EXPORT_FORMAT,
    version: 1,
    okf_version: OKF_VERSION,
    exported_at: isoSeconds(store.now()),
    types,
    nodes: pages.map(exported),
  };
  logOp(store, { op: "export", count: pages.length });
  return { text: `${JSON.stringify(doc, null, 2)}\n`, nodes: pages.length, types: types.length, skipped: errors };
}

export function exportNodes(
  store: Store,
  output: string,
): { output: string; nodes: number; types: number; skipped: readonly ScanError[] } {
  const d = exportDocument(store);
  writeFileAtomic(output, d.text, 0o600);
  return { output, nodes: d.nodes, types: d.types, skipped: d.skipped };
}

const nullableString = v.optional(v.nullable(v.string()));
const strings = v.optional(v.array(v.string()), []);

const Node = v.object({
  slug: v.string(),
  type: v.string(),
  title: v.string(),
  body: v.string(),
  scope: v.picklist(["global", "project"]),
  description: v.optional(v.string(), ""),
  resource: nullableString,
  tags: strings,
  valid_from: nullableString,
  valid_until: nullableString,
  stale_after: nullableString,
  parent: nullableString,
  supersedes: strings,
  implements: strings,
  depends_on: strings,
  links: v.optional(v.array(v.strictObject({ target: v.string(), rel: v.string() })), []),
  importance: v.optional(v.number(), 0.5),
  status: v.optional(v.picklist(STATUSES), "active"),
  occurred_at: nullableString,
  source: nullableString,
  harness: nullableString,
  confidence: nullableString,
  project_id: nullableString,
  project_label: nullableString,
  project_locator: nullableString,
  session_id: nullableString,
  transcript_ref: nullableString,
  id: v.optional(v.string()),
  created: v.optional(v.string()),
  timestamp: v.optional(v.string()),
  updated_at: v.optional(v.string()),
  access_count: v.optional(v.number()),
  last_access: nullableString,
  content_hash: v.optional(v.string()),
  okf_version: v.optional(v.string()),
});

const Event = v.strictObject({
  at: v.string(),
  action: v.picklist(["declared", "proposed", "withdrawn"]),
  type: v.string(),
  kind: v.picklist(["catalogue", "custom", "draft"]),
  project: v.string(),
  by: v.string(),
  note: v.optional(v.string(), ""),
});
const Declaration = v.object({
  project_id: v.string(),
  project_locator: v.optional(v.string()),
  name: v.string(),
  kind: v.optional(v.string()),
  description: v.optional(v.string(), ""),
  events: v.optional(v.array(Event), []),
});

/** Declares what the document's types say, before any page needs them; a type already declared is left alone. */
function importTypes(store: Store, raw: unknown, skipped: ImportReport["skipped"][number][]): number {
  if (raw === undefined) return 0;
  if (!Array.isArray(raw)) {
    skipped.push({ index: -1, slug: "", reason: "types: must be a list" });
    return 0;
  }
  let declared = 0;
  for (const [index, entry] of raw.entries()) {
    const r = v.safeParse(Declaration, entry);
    const name =
      typeof (entry as { name?: unknown })?.name === "string" ? String((entry as { name: string }).name) : "";
    if (!r.success) {
      skipped.push({ index, slug: name, reason: `types[${index}]: ${r.issues[0]?.message ?? "invalid"}` });
      continue;
    }
    const d = r.output;
    try {
      if (!validTypeName(d.name)) throw new MemnoxError("refused", `invalid type name \`${d.name}\``);
      const project = explicitProject(d.project_id, undefined, d.project_locator);
      const locator = existingLocator(store, project.id);
      if (typeInfo(store, locator, d.name).kind !== "undeclared") continue;
      const events = d.events.filter((e) => e.type === d.name && isTimestamp(e.at) && e.project === d.project_id);
      const dir = join(store.layout.projects, projectLocator(store, project), d.name);
      mkdirSync(dir, { recursive: true });
      if (events.length === 0)
        appendEvent(dir, {
          at: isoSeconds(store.now()),
          action: "declared",
          type: d.name,
          kind: isCatalogue(d.name) ? "catalogue" : "custom",
          project: d.project_id,
          by: "import",
          note: d.description.replace(/\s+/g, " "),
        });
      for (const e of events) appendEvent(dir, e);
      declared++;
    } catch (e) {
      skipped.push({ index, slug: d.name, reason: `types[${index}]: ${(e as Error).message}` });
    }
  }
  return declared;
}

export interface ImportReport {
  readonly imported: number;
  readonly types_declared: number;
  readonly skipped: readonly { index: number; slug: string; reason: string }[];
  readonly redacted: readonly string[];
}

const opt = <K extends string, T>(key: K, value: T | null | undefined): { [P in K]?: T } =>
  (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: T };

export function importNodes(store: Store, text: string, source: string): ImportReport {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new MemnoxError("refused", `\`${source}\` is not JSON`);
  }
  const nodes = (doc as { nodes?: unknown })?.nodes;
  if (!Array.isArray(nodes))
    throw new MemnoxError("refused", `\`${source}\` has no \`nodes\` list`, "import reads what export writes");
  const skipped: { index: number; slug: string; reason: string }[] = [];
  const redacted = new Set<string>();
  const typesDeclared = importTypes(store, (doc as { types?: unknown }).types, skipped);
  let imported = 0;
  for (const [index, raw] of nodes.entries()) {
    const slug = typeof (raw as { slug?: unknown })?.slug === "string" ? String((raw as { slug: string }).slug) : "";
    const parsed = v.safeParse(Node, raw);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const at = issue?.path?.map((p) => String(p.key)).join(".") ?? "";
      skipped.push({ index, slug, reason: `${at ? `${at}: ` : ""}${issue?.message ?? "invalid entry"}` });
      continue;
    }
    const n = parsed.output;
    try {
      const project =
        n.scope === "project"
          ? explicitProject(n.project_id ?? "", n.project_label ?? undefined, n.project_locator ?? undefined)
          : undefined;
      const r = writePage(store, {
        type: n.type,
        title: n.title,
        body: n.body,
        scope: n.scope,
        slug: n.slug,
        description: n.description,
        tags: n.tags,
        importance: n.importance,
        links: n.links,
        supersedes: n.supersedes,
        implements: n.implements,
        dependsOn: n.depends_on,
        status: n.status,
        author: "person",
        ...opt("project", project),
        ...opt("resource", n.resource),
        ...opt("validFrom", n.valid_from),
        ...opt("validUntil", n.valid_until),
        ...opt("staleAfter", n.stale_after),
        ...opt("parent", n.parent),
        ...opt("occurredAt", n.occurred_at),
        ...opt("source", n.source),
        ...opt("harness", n.harness),
        ...opt("confidence", n.confidence),
        ...opt("sessionId", n.session_id),
        ...opt("transcriptRef", n.transcript_ref),
        preserve: {
          ...opt("id", n.id),
          ...opt("created", n.created),
          ...opt("accessCount", n.access_count),
          ...opt("lastAccess", n.last_access),
        },
      });
      for (const k of r.redacted) redacted.add(k);
      imported++;
    } catch (e) {
      skipped.push({ index, slug, reason: e instanceof MemnoxError ? e.message : (e as Error).message });
    }
  }
  logOp(store, { op: "import", count: imported, redacted: [...redacted] });
  return { imported, types_declared: typesDeclared, skipped, redacted: [...redacted] };
}

// Export every page as one JSON document; import one back, skipping (and naming) every entry that does not hold.
import { basename, dirname } from "node:path";
import * as v from "valibot";
import { MemnoxError } from "../../core/errors.ts";
import { writeFileAtomic } from "../../io/files.ts";
import { OKF_VERSION, type Page, STATUSES } from "../format/page.ts";
import { explicitProject } from "../format/project.ts";
import { isoSeconds } from "../format/time.ts";
import { logOp } from "../pages/oplog.ts";
import { type ScanError, type Store, scanPages } from "../pages/store.ts";
import { writePage } from "../pages/write.ts";

export const EXPORT_FORMAT = "memnox-memory-export";

function exported(page: Page): Record<string, unknown> {
  const { path, ...rest } = page;
  return { ...rest, project_locator: page.scope === "project" ? basename(dirname(dirname(path))) : null };
}

export function exportNodes(
  store: Store,
  output: string,
): { output: string; nodes: number; skipped: readonly ScanError[] } {
  const errors: ScanError[] = [];
  const pages = scanPages(store, errors);
  const doc = {
    format: EXPORT_FORMAT,
    version: 1,
    okf_version: OKF_VERSION,
    exported_at: isoSeconds(store.now()),
    nodes: pages.map(exported),
  };
  writeFileAtomic(output, `${JSON.stringify(doc, null, 2)}\n`, 0o600);
  logOp(store, { op: "export", count: pages.length });
  return { output, nodes: pages.length, skipped: errors };
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
  links: v.optional(v.array(v.object({ target: v.string(), rel: v.string() })), []),
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

export interface ImportReport {
  readonly imported: number;
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
  return { imported, skipped, redacted: [...redacted] };
}

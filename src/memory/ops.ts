// The operations both faces answer from: the CLI and the MCP server turn their words into these memex-shaped inputs,
// and one function decides, so a page one finds the other finds, and a refusal reads the same.
import { MemnoxError } from "../core/errors.ts";
import { opt } from "./format/opt.ts";
import type { TypedLink } from "./format/page.ts";
import { explicitProject, type ProjectRef } from "./format/project.ts";
import type { ForgetMode } from "./pages/lifecycle.ts";
import type { Selector, Store } from "./pages/store.ts";
import type { Author, WriteResult } from "./pages/write.ts";
import { type Engine, type RecallResult, recall } from "./recall/recall.ts";
import { TASK_PAGE_CAP, type TaskResult, taskRecall } from "./recall/task.ts";
import type { ScopeFilter } from "./search/search.ts";

export interface OpsDeps {
  readonly store: Store;
  /** The project of the directory the CLI ran in, or the MCP server was started in; derived once, on need. */
  readonly currentProject: () => Promise<ProjectRef>;
}

export interface WriteArgs {
  readonly type: string;
  readonly title: string;
  readonly body: string;
  readonly scope: "global" | "project";
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly importance?: number;
  /** Typed links, each `target` or `target:rel`. */
  readonly links?: readonly string[];
  readonly resource?: string;
  readonly parent?: string;
  readonly supersedes?: readonly string[];
  readonly implements?: readonly string[];
  readonly depends_on?: readonly string[];
  readonly session_id?: string;
  readonly stale_after?: string;
  readonly valid_from?: string;
  readonly valid_until?: string;
  readonly project_id?: string;
  readonly project_label?: string;
  readonly project_locator?: string;
  /** memnox: update this slug in place. */
  readonly slug?: string;
  readonly author: Author;
  readonly source?: string;
}

/** `target` or `target:rel`, as memex reads a link given as text (the relation defaults to relates-to). */
function typedLink(raw: string): TypedLink {
  const at = raw.indexOf(":");
  return at === -1 ? { target: raw, rel: "relates-to" } : { target: raw.slice(0, at), rel: raw.slice(at + 1) };
}

/**
 * The project a write means: an explicit id (its label, else the directory's own), else, for project scope, the
 * directory's project. An id given with global scope is kept, so the write refuses it as memex does.
 */
async function writeProject(deps: OpsDeps, a: WriteArgs): Promise<ProjectRef | undefined> {
  if (a.project_id !== undefined) {
    const label = a.project_label ?? (a.scope === "project" ? (await deps.currentProject()).label : undefined);
    return explicitProject(a.project_id, label, a.project_locator);
  }
  if (a.scope !== "project") return undefined;
  const derived = await deps.currentProject();
  return a.project_label !== undefined ? { ...derived, label: a.project_label } : derived;
}

export async function writeOp(deps: OpsDeps, a: WriteArgs): Promise<WriteResult> {
  const project = await writeProject(deps, a);
  // Writing, forgetting and provenance load on their first use: `memory recall` starts without them.
  const { writePage } = await import("./pages/write.ts");
  return writePage(deps.store, {
    type: a.type,
    title: a.title,
    body: a.body,
    scope: a.scope,
    author: a.author,
    tags: a.tags ?? [],
    links: (a.links ?? []).map(typedLink),
    supersedes: a.supersedes ?? [],
    implements: a.implements ?? [],
    dependsOn: a.depends_on ?? [],
    ...opt("project", project),
    ...opt("description", a.description),
    ...opt("importance", a.importance),
    ...opt("resource", a.resource),
    ...opt("parent", a.parent),
    ...opt("sessionId", a.session_id),
    ...opt("staleAfter", a.stale_after),
    ...opt("validFrom", a.valid_from),
    ...opt("validUntil", a.valid_until),
    ...opt("slug", a.slug),
    ...opt("source", a.source),
  });
}

export interface RecallArgs {
  readonly query: string;
  readonly top_k?: number;
  readonly type?: string;
  readonly tags?: readonly string[];
  readonly include_expired?: boolean;
  readonly include_inactive?: boolean;
  readonly max_tokens?: number;
  /** `project` narrows to one project; `global` (or none) recalls across all memory, as memex's recall does. */
  readonly scope?: "global" | "project" | "all";
  readonly project_id?: string;
  readonly engine?: Engine;
  /** Task mode: one to three questions about the goal in `query`. */
  readonly questions?: readonly string[];
  readonly record_access?: boolean;
}

/** The project a read means: the id given (checked only where memex checks it, in task mode), else this directory's. */
async function projectId(
  deps: Pick<OpsDeps, "currentProject">,
  given: string | undefined,
  checked = false,
): Promise<string> {
  if (given === undefined) return (await deps.currentProject()).id;
  return checked ? explicitProject(given).id : given;
}

export async function recallOp(deps: OpsDeps, a: RecallArgs): Promise<RecallResult | TaskResult> {
  if (a.questions !== undefined) {
    if ((a.scope !== undefined && a.scope !== "project") || a.include_expired || a.include_inactive)
      throw new MemnoxError(
        "refused",
        "task recall requires active project scope",
        "task mode searches this project's active pages only: drop --scope global, --include-expired and --include-inactive",
      );
    return taskRecall(deps.store, {
      goal: a.query,
      questions: a.questions,
      projectId: await projectId(deps, a.project_id, true),
      ...opt("topK", a.top_k === undefined ? undefined : Math.min(a.top_k, TASK_PAGE_CAP)),
      ...opt("maxTokens", a.max_tokens),
      ...opt("type", a.type),
      ...opt("tags", a.tags),
    });
  }
  const scope: ScopeFilter =
    a.scope === "project" ? { kind: "project", projectId: await projectId(deps, a.project_id) } : { kind: "all" };
  return recall(deps.store, {
    query: a.query,
    scope,
    ...opt("topK", a.top_k),
    ...opt("type", a.type),
    ...opt(
      "tags",
      a.tags?.map((t) => t.toLowerCase()),
    ),
    ...opt("includeExpired", a.include_expired),
    ...opt("includeInactive", a.include_inactive),
    ...opt("maxTokens", a.max_tokens),
    ...opt("engine", a.engine),
    ...opt("recordAccess", a.record_access),
  });
}

interface SlugArgs {
  readonly slug: string;
  readonly scope?: "global" | "project";
  readonly project_id?: string;
}

/** Which page a slug means: every page of that slug, or one scope's, or one project's. */
export async function selectorOf(deps: Pick<OpsDeps, "currentProject">, a: Omit<SlugArgs, "slug">): Promise<Selector> {
  if (a.scope === "global") return { scope: "global" };
  if (a.scope === "project") return { scope: "project", projectId: await projectId(deps, a.project_id) };
  return a.project_id !== undefined ? { projectId: a.project_id } : {};
}

export async function forgetOp(deps: OpsDeps, a: SlugArgs & { mode: ForgetMode; valid_until?: string }) {
  const { forget } = await import("./pages/lifecycle.ts");
  return forget(deps.store, a.slug, a.mode, await selectorOf(deps, a), a.valid_until);
}

export async function provenanceOp(deps: OpsDeps, a: SlugArgs) {
  const { provenance } = await import("./pages/transcripts.ts");
  return provenance(deps.store, a.slug, await selectorOf(deps, a));
}

// What mentions a page: the index's reverse edges, kept to pages whose link really resolves to this one.
import { findOne, findPages, type Selector, type Store } from "./store.ts";

interface Backlink {
  readonly slug: string;
  readonly title: string;
  readonly node_type: string;
  readonly scope: string;
  readonly project_id: string | null;
  readonly rel: string;
  readonly file_path: string;
}

interface BacklinksReport {
  readonly slug: string;
  readonly file_path: string;
  readonly backlinks: readonly Backlink[];
}

/** A link resolves in its own namespace first, then to a global page (the rule verify's links-resolve uses). */
export function backlinks(store: Store, slug: string, sel: Selector = {}): BacklinksReport {
  const page = findOne(store, slug, sel);
  const rows = store.hasIndex() && store.index().ready() ? store.index().backlinks(page.slug) : [];
  const shadowed = new Map<string, boolean>();
  const ownsSlug = (projectId: string) => {
    if (!shadowed.has(projectId))
      shadowed.set(projectId, findPages(store, page.slug, { scope: "project", projectId }).length > 0);
    return shadowed.get(projectId) === true;
  };
  const out = rows
    .filter(({ row }) => {
      const projectId = row.project_id || null;
      if (row.scope === page.scope && projectId === page.project_id) return true;
      return page.scope === "global" && row.scope === "project" && !ownsSlug(row.project_id);
    })
    .map(({ row, rel }) => ({
      slug: row.slug,
      title: row.title,
      node_type: row.node_type,
      scope: row.scope,
      project_id: row.project_id || null,
      rel,
      file_path: row.file_path,
    }));
  return { slug: page.slug, file_path: page.path, backlinks: out };
}

// Retiring and governing pages: forget (hard, soft, decay, archive), approve a pending page, merge two.
import { rmSync } from "node:fs";
import { MemnoxError } from "../../core/errors.ts";
import { hashBody, type Page, type PageMeta } from "../format/page.ts";
import { isoProblem, isoSeconds } from "../format/time.ts";
import { memoryConfig } from "./config.ts";
import { refreshDecisions } from "./decisions.ts";
import { refreshPage } from "./navigation.ts";
import { logOp } from "./oplog.ts";
import { findOne, type Selector, type Store } from "./store.ts";
import { storePage } from "./write.ts";

export type ForgetMode = "hard" | "soft" | "decay" | "archive";
export const FORGET_MODES: readonly ForgetMode[] = ["hard", "soft", "decay", "archive"];

interface ForgetResult {
  readonly slug: string;
  readonly forgotten: boolean;
  readonly mode: ForgetMode;
  readonly file_path: string | null;
  readonly valid_until?: string;
}

/** Rewrites a page's metadata; the body is unchanged, so updated_at stays where it was. */
export function restamp(store: Store, page: Page, change: Partial<PageMeta>): Page {
  const { slug, path, body, ...meta } = page;
  return storePage(store, { ...meta, ...change, timestamp: isoSeconds(store.now()) }, body, slug, path);
}

function deletePage(store: Store, page: Page): void {
  rmSync(page.path, { force: true });
  store.index().transaction(() => store.index().remove(page.scope, page.project_id ?? "", page.slug));
  try {
    refreshPage(store, page.path, undefined);
  } catch {
    // navigation is a view; verify reports drift
  }
  if (page.type === "decision") refreshDecisions(store);
}

/** When a soft or decay forget ends the page's window: now, or one configured half-life out. */
function windowEnd(store: Store, mode: "soft" | "decay"): string {
  const days = mode === "decay" ? memoryConfig(store).halfLifeDays : 0;
  return isoSeconds(store.now() + days * 86_400_000);
}

export function forget(
  store: Store,
  slug: string,
  mode: ForgetMode,
  sel: Selector = {},
  validUntil?: string,
): ForgetResult {
  if (!FORGET_MODES.includes(mode))
    throw new MemnoxError("refused", `mode must be one of ('hard', 'soft', 'decay'), got '${mode}'`);
  if (validUntil !== undefined) {
    const problem = isoProblem("valid_until", validUntil);
    if (problem) throw new MemnoxError("refused", problem);
  }
  const page = findOne(store, slug, sel);
  logOp(store, { op: `forget-${mode}`, slugs: [slug] });
  if (mode === "hard") {
    deletePage(store, page);
    // The file is gone: there is no path to report, as memex reports none.
    return { slug, forgotten: true, mode, file_path: null };
  }
  if (mode === "archive") {
    restamp(store, page, { status: "archived" });
    return { slug, forgotten: true, mode, file_path: page.path };
  }
  const until = validUntil ?? windowEnd(store, mode);
  restamp(store, page, { valid_until: until });
  return { slug, forgotten: true, mode, file_path: page.path, valid_until: until };
}

export function approve(
  store: Store,
  slug: string,
  sel: Selector = {},
): { slug: string; status: string; file_path: string } {
  const page = findOne(store, slug, sel);
  if (page.status !== "pending")
    throw new MemnoxError(
      "refused",
      `page '${slug}' is '${page.status}', not pending`,
      page.status === "active" ? "it is already recallable" : "only a pending page is approved",
    );
  restamp(store, page, { status: "active" });
  logOp(store, { op: "approve", slugs: [slug] });
  return { slug, status: "active", file_path: page.path };
}

interface MergeResult {
  readonly target: string;
  readonly source: string;
  readonly source_status: "superseded";
  readonly target_path: string;
}

/** Appends the source's body to the target under a heading linking back, and marks the source superseded. */
export function merge(store: Store, target: string, source: string, sel: Selector = {}): MergeResult {
  const t = findOne(store, target, sel);
  const s = findOne(store, source, sel);
  if (target === source && t.path === s.path) throw new MemnoxError("refused", "a page cannot be merged into itself");
  if (s.status === "superseded")
    throw new MemnoxError("refused", `page '${source}' is already superseded`, "a page is merged once");
  if (t.scope !== s.scope || t.project_id !== s.project_id)
    throw new MemnoxError("refused", "merge joins pages of one scope", "both pages must be global, or of one project");
  const { slug, path, body, ...meta } = t;
  const merged = `${body.trimEnd()}\n\n## Merged from [[${source}]]\n\n${s.body}`;
  const now = isoSeconds(store.now());
  storePage(
    store,
    {
      ...meta,
      supersedes: [...new Set([...meta.supersedes, source])].sort(),
      content_hash: hashBody(merged),
      updated_at: now,
      timestamp: now,
    },
    merged,
    slug,
    path,
  );
  // The source points back to the page it went into, beside the [[source]] heading in the target's body.
  const back = s.links.some((l) => l.target === target && l.rel === "superseded-by")
    ? s.links
    : [...s.links, { target, rel: "superseded-by" }];
  restamp(store, s, { status: "superseded", links: back });
  logOp(store, { op: "merge", slugs: [target, source] });
  return { target, source, source_status: "superseded", target_path: path };
}

// The decisions the gate is held to: every active decision page that constrains (says not, never, only…) and is not
// a rule's own page, kept as one small file beside the index so a hook reads it instead of the pages.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DECISIONS_FILE, type Decision, decisionTerms, isBinding, renderDecisions } from "../../core/decisions.ts";
import { writeFileAtomic } from "../../io/files.ts";
import { pageFiles, subdirs } from "../format/layout.ts";
import type { Page } from "../format/page.ts";
import { isoSeconds, normalizeTimestamp } from "../format/time.ts";
import { readPage, type Store } from "./store.ts";

function decisionsFile(store: Store): string {
  return join(store.layout.root, DECISIONS_FILE);
}

/** Where a page states its decision: the title, or the body's first sentence when only that constrains. */
function statementOf(page: Page): string {
  if (isBinding(page.title)) return page.title;
  const first =
    page.body
      .replace(/\s+/g, " ")
      .trim()
      .split(/(?<=[.!?])\s/)[0] ?? "";
  return isBinding(first) ? first.slice(0, 300) : page.title;
}

function binding(page: Page): Decision | undefined {
  // A rule's own page (memnox memory remember) is the rule already: the rule decides, its page only explains.
  if (page.status !== "active" || page.source?.startsWith("memnox:") || !page.project_id) return undefined;
  const statement = statementOf(page);
  const terms = decisionTerms(statement);
  if (!isBinding(statement) || terms.length === 0) return undefined;
  return {
    slug: page.slug,
    statement,
    file: page.path,
    project_id: page.project_id,
    valid_from: page.valid_from ? normalizeTimestamp(page.valid_from) : null,
    valid_until: page.valid_until ? normalizeTimestamp(page.valid_until) : null,
    terms,
  };
}

/** Every project's decision pages, read (they are few); a malformed one binds nothing and verify names it. */
function bindingDecisions(store: Store): Decision[] {
  const out: Decision[] = [];
  for (const locator of subdirs(store.layout.projects)) {
    const dir = join(store.layout.projects, locator, "decision");
    for (const file of pageFiles(dir)) {
      try {
        const d = binding(readPage(store, join(dir, file)));
        if (d) out.push(d);
      } catch {
        // not a page the gate can be held to
      }
    }
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : 1));
}

/** Rewrites the snapshot from the pages (none left: the file goes), after anything that changed a decision page. */
export function refreshDecisions(store: Store): void {
  const decisions = bindingDecisions(store);
  const file = decisionsFile(store);
  if (decisions.length === 0) {
    if (existsSync(file)) rmSync(file, { force: true });
    return;
  }
  writeFileAtomic(file, renderDecisions(decisions, isoSeconds(store.now())), 0o644);
}

// Where everything in a memory store lives, and the refusal to follow a symlink anywhere inside it.
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import type { Scope } from "./page.ts";

export interface Layout {
  readonly root: string;
  readonly docs: string;
  readonly global: string;
  readonly projects: string;
  readonly transcripts: string;
  /** memnox's own disposable index; memex's `mem.db` beside it is never touched. */
  readonly db: string;
  readonly logs: string;
  readonly opLog: string;
  readonly runsLog: string;
  /** memex's configuration, read when present so a shared store keeps its settings. */
  readonly memexToml: string;
}

const INDEX_DB = "memnox-index.db";

export function layoutOf(root: string): Layout {
  const docs = join(root, "docs");
  const logs = join(root, "logs");
  return {
    root,
    docs,
    global: join(docs, "global"),
    projects: join(docs, "projects"),
    transcripts: join(root, "transcripts"),
    db: join(root, INDEX_DB),
    logs,
    opLog: join(logs, "memnox-memory.log"),
    runsLog: join(logs, "consolidate-runs.jsonl"),
    memexToml: join(root, "memex.toml"),
  };
}

/** The directory holding one scope's type directories. */
export function scopeRoot(layout: Layout, scope: Scope, locator: string | undefined): string {
  if (scope === "global") return layout.global;
  if (!locator) throw new MemnoxError("refused", "a project page needs a project directory");
  return join(layout.projects, locator);
}

/** Refuses a path inside the store that is, or passes through, a symlink. */
export function refuseSymlinks(layout: Layout, path: string): void {
  const rel = relative(layout.root, path);
  if (rel.startsWith("..") || rel.startsWith(sep)) throw new MemnoxError("refused", `\`${path}\` is outside the store`);
  let current = layout.root;
  for (const part of rel.split(sep)) {
    if (!part) continue;
    current = join(current, part);
    let isLink = false;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      return;
    }
    if (isLink)
      throw new MemnoxError(
        "refused",
        `\`${relative(layout.root, current)}\` in the memory store is a symlink`,
        "memory refuses symlinked paths; replace it with a real directory or file",
      );
  }
}

/** Subdirectory names of `dir` (real directories only, sorted), or none when it is absent. */
export function subdirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** Page file names directly in `dir`, reserved names excluded, sorted. */
export function pageFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".md") && d.name !== "index.md" && d.name !== "log.md")
    .map((d) => d.name)
    .sort();
}

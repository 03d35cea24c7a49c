// The project boundary: a write or delete outside the repository the session started in asks first. Pure.
import type { Action } from "../core/action.ts";

export interface Boundary {
  /** The repository (or `run --paths`) the session works in. */
  readonly roots: readonly string[];
  /** Always writable: the system temp directories. */
  readonly exempt: readonly string[];
}

function within(path: string, root: string): boolean {
  const r = root.length > 1 && root.endsWith("/") ? root.slice(0, -1) : root;
  return path === r || path.startsWith(`${r}/`);
}

const WRITES = new Set(["filesystem.write", "filesystem.delete"]);

/** The paths this action writes or deletes outside the boundary (empty when it stays inside). */
export function outsideBoundary(action: Action, boundary: Boundary | undefined): string[] {
  if (!boundary || boundary.roots.length === 0) return [];
  if (!WRITES.has(action.name)) return [];
  return action.targets.filter(
    (t) => t.startsWith("/") && !boundary.roots.some((r) => within(t, r)) && !boundary.exempt.some((e) => within(t, e)),
  );
}

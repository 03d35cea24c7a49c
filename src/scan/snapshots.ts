// Saved scans under ~/.memnox/snapshots/, newest thirty kept: the baselines `scan --since` compares against.
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import { readJsonIfExists, writeJsonAtomic } from "../io/files.ts";
import { asInventory } from "./inventory.ts";
import type { Inventory } from "./types.ts";

export const KEEP_SNAPSHOTS = 30;

export interface SnapshotRef {
  readonly path: string;
  readonly at: string;
}

const NAME = /^scan-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.json$/;

export function listSnapshots(dir: string): SnapshotRef[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .flatMap((n) => {
      const m = NAME.exec(n);
      return m ? [{ path: join(dir, n), at: `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z` }] : [];
    })
    .sort((a, b) => a.at.localeCompare(b.at));
}

/** Keeps `inv` and drops all but the newest thirty; returns the file written. */
export function saveSnapshot(dir: string, inv: Inventory): string {
  const path = join(dir, `scan-${inv.scannedAt.replace(/[:.]/g, "-")}.json`);
  writeJsonAtomic(path, inv);
  const all = listSnapshots(dir);
  for (const old of all.slice(0, Math.max(0, all.length - KEEP_SNAPSHOTS))) rmSync(old.path, { force: true });
  return path;
}

export function loadSnapshot(ref: SnapshotRef): Inventory {
  const inv = asInventory(readJsonIfExists(ref.path));
  if (!inv)
    throw new MemnoxError("io", `\`${ref.path}\` is not a scan this memnox reads`, "move it aside and save a new one");
  return inv;
}

/** The newest snapshot taken at or before `iso`, else undefined. */
export function atOrBefore(list: readonly SnapshotRef[], iso: string): SnapshotRef | undefined {
  return [...list].reverse().find((s) => s.at <= iso);
}

// keeper.json: the daemon's own baseline, kept apart from the scan history `scan --since` reads. The last inventory
// drift is measured against, when the daemon first knew each agent, and which dormant agents it already flagged.

import { readJsonIfExists, writeJsonAtomic } from "../../io/files.ts";
import { asInventory } from "../../scan/inventory.ts";
import type { Inventory } from "../../scan/types.ts";

export interface KeeperState {
  readonly version: 1;
  /** When the baseline was taken. */
  readonly at: string;
  readonly inventory: Inventory;
  /** Agent id -> when the daemon first saw it. */
  readonly known: Readonly<Record<string, string>>;
  /** Agent id -> when it was flagged dormant; an agent leaves this when its silence ends. */
  readonly dormant: Readonly<Record<string, string>>;
}

function stringMap(v: unknown): Record<string, string> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string"));
}

type KeeperRead = { readonly state: KeeperState } | { readonly absent: true } | { readonly problem: string };

/** What keeper.json holds; one this version cannot read is a problem the pass names, then replaces. */
export function readKeeper(file: string): KeeperRead {
  let raw: unknown;
  try {
    raw = readJsonIfExists(file);
  } catch (e) {
    return { problem: (e as Error).message };
  }
  if (raw === undefined) return { absent: true };
  const r = raw as Partial<Record<keyof KeeperState, unknown>>;
  const inventory = asInventory(r.inventory);
  if (r.version !== 1 || !inventory || typeof r.at !== "string") {
    return { problem: `\`${file}\` is not a baseline this memnox reads` };
  }
  return { state: { version: 1, at: r.at, inventory, known: stringMap(r.known), dormant: stringMap(r.dormant) } };
}

export function writeKeeper(file: string, state: KeeperState): void {
  writeJsonAtomic(file, state);
}

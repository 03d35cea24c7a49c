// sync.json: where the loop stands. The gate reads two of its fields (readSyncMark, in src/state/org.ts) to mark a
// verdict stale; everything else is the loop's own: the last row acknowledged, changes and answers applied.
import { rmSync } from "node:fs";
import { writeJsonAtomic } from "../io/files.ts";
import { looseObject } from "../state/org.ts";

export interface SyncState {
  readonly version: 1;
  /** The machine this state belongs to: a new login starts from nothing. */
  readonly machineId: string;
  /** The last ledger row the workspace acknowledged (sent and stored, or already there). */
  readonly lastSentSeq: number;
  readonly lastContactAt?: string;
  readonly unreachableSince?: string;
  readonly lastError?: string;
  readonly revokedAt?: string;
  /** The newest mode change from the workspace applied here; reported so it is not carried again. */
  readonly modeChangeApplied?: number;
  /** Server hold ids whose answers were applied here, reported on the next beat. */
  readonly answersApplied: readonly string[];
  /** The inventory hash the workspace said it holds for this machine: a scan with another one is sent. */
  readonly inventoryAck?: string;
}

function freshState(machineId: string): SyncState {
  return { version: 1, machineId, lastSentSeq: 0, answersApplied: [] };
}

export function readState(file: string, machineId: string): SyncState {
  const o = looseObject(file);
  if (o?.version !== 1 || o.machineId !== machineId) return freshState(machineId);
  const text = (k: string) => (typeof o[k] === "string" ? { [k]: o[k] as string } : {});
  return {
    version: 1,
    machineId,
    lastSentSeq: typeof o.lastSentSeq === "number" && o.lastSentSeq >= 0 ? o.lastSentSeq : 0,
    ...text("lastContactAt"),
    ...text("unreachableSince"),
    ...text("lastError"),
    ...text("revokedAt"),
    ...text("inventoryAck"),
    ...(typeof o.modeChangeApplied === "number" ? { modeChangeApplied: o.modeChangeApplied } : {}),
    answersApplied: Array.isArray(o.answersApplied) ? o.answersApplied.filter((x) => typeof x === "string") : [],
  };
}

export function writeState(file: string, state: SyncState): void {
  writeJsonAtomic(file, state);
}

export function removeState(file: string): void {
  rmSync(file, { force: true });
}

// What a workspace pull leaves for the gate: org-conditions.json (fleet-wide state facts) and the sync mark (whether
// the workspace answered lately), and which workspace account.json names, for status.
import { MemnoxError } from "../core/errors.ts";
import { isRecord } from "../core/record.ts";
import type { StateFact } from "../core/request.ts";
import { readJsonIfExists } from "../io/files.ts";
export interface OrgFact extends StateFact {
  readonly id: string;
  readonly by: string;
  readonly setAt: string;
}

/** Parses org-conditions.json; anything but the exact shape throws, so a bad pull is never renamed into place. */
function parseOrgConditions(file: string, raw: unknown): OrgFact[] {
  const bad = (why: string) => new MemnoxError("io", `\`${file}\` is not a workspace conditions file: ${why}`);
  if (typeof raw !== "object" || raw === null) throw bad("not an object");
  const o = raw as Record<string, unknown>;
  if (o.version !== 1) throw bad("version is not 1");
  if (!Array.isArray(o.facts)) throw bad("facts is not a list");
  return o.facts.map((f, i) => {
    if (typeof f !== "object" || f === null) throw bad(`fact ${i} is not an object`);
    const x = f as Record<string, unknown>;
    for (const k of ["id", "kind", "subject", "expiresAt", "by", "setAt"] as const)
      if (typeof x[k] !== "string" || x[k] === "") throw bad(`fact ${i} has no ${k}`);
    if (Number.isNaN(Date.parse(String(x.expiresAt)))) throw bad(`fact ${i} expires at no instant`);
    if (x.reason !== undefined && typeof x.reason !== "string") throw bad(`fact ${i} has a reason that is not text`);
    return {
      id: String(x.id),
      kind: String(x.kind),
      subject: String(x.subject),
      expiresAt: String(x.expiresAt),
      by: String(x.by),
      setAt: String(x.setAt),
      ...(typeof x.reason === "string" ? { reason: x.reason } : {}),
    };
  });
}

/** The fleet's facts; none when no workspace ever wrote the file. A damaged file throws: the gate then fails closed. */
export function readOrgConditions(file: string): OrgFact[] {
  const raw = readJsonIfExists(file);
  return raw === undefined ? [] : parseOrgConditions(file, raw);
}

/** A JSON object read for a hint only: absent, damaged or not an object all read as undefined, never as an error. */
export function looseObject(file: string): Record<string, unknown> | undefined {
  let raw: unknown;
  try {
    raw = readJsonIfExists(file);
  } catch {
    return undefined;
  }
  return isRecord(raw) ? raw : undefined;
}

/** Which workspace account.json names, read loosely (status must not fail on a damaged file); never the token or key. */
export function readEnrolment(file: string): { readonly workspace: string; readonly machineId: string } | undefined {
  const o = looseObject(file) as { workspace?: { name?: unknown }; machineId?: unknown } | undefined;
  if (typeof o?.machineId !== "string" || typeof o.workspace?.name !== "string") return undefined;
  return { workspace: o.workspace.name, machineId: o.machineId };
}

/** The part of sync.json the gate reads: when the workspace last answered, and since when it has not. */
export interface SyncMark {
  readonly lastContactAt?: string;
  readonly unreachableSince?: string;
  /** The workspace revoked this machine: its rules stay, and nothing is waiting to confirm them. */
  readonly revokedAt?: string;
}

/** A loop that has not reached the workspace for this long (beyond its longest backoff) leaves verdicts stale. */
const STALE_AFTER_MS = 20 * 60_000;

/** A damaged sync file says nothing about reachability; the next pass rewrites it. */
export function readSyncMark(file: string): SyncMark | undefined {
  const o = looseObject(file);
  if (!o) return undefined;
  return {
    ...(typeof o.lastContactAt === "string" ? { lastContactAt: o.lastContactAt } : {}),
    ...(typeof o.unreachableSince === "string" ? { unreachableSince: o.unreachableSince } : {}),
    ...(typeof o.revokedAt === "string" ? { revokedAt: o.revokedAt } : {}),
  };
}

/** Whether a verdict at `nowMs` is made on a bundle the workspace has not confirmed: unreachable, or silent too long. */
export function isStale(mark: SyncMark | undefined, nowMs: number): boolean {
  if (!mark || mark.revokedAt !== undefined) return false;
  if (mark.unreachableSince !== undefined) return true;
  const last = mark.lastContactAt === undefined ? Number.NaN : Date.parse(mark.lastContactAt);
  return Number.isFinite(last) && nowMs - last > STALE_AFTER_MS;
}

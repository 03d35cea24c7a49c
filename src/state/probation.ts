// Agents and MCP servers the daemon adopted after setup: seven days in which writes, outward and destructive actions ask.
import type { StateFact } from "../core/request.ts";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../io/files.ts";

type ProbationKind = "agent" | "server";

export interface ProbationEntry {
  readonly kind: ProbationKind;
  readonly name: string;
  readonly since: string;
  readonly until: string;
  readonly trustedAt?: string;
  readonly trustedBy?: string;
}

const PROBATION_MS = 7 * 86_400_000;

export function readProbation(file: string): ProbationEntry[] {
  const raw = readJsonIfExists(file);
  if (typeof raw !== "object" || raw === null || !Array.isArray((raw as { entries?: unknown }).entries)) return [];
  return (raw as { entries: unknown[] }).entries.filter(isEntry);
}

export function probationInForce(entries: readonly ProbationEntry[], nowMs: number): ProbationEntry[] {
  return entries.filter((e) => !e.trustedAt && Date.parse(e.until) > nowMs);
}

/** As state facts the gate is handed: `probation:agent:<name>`, `probation:server:<name>`. */
export function probationFacts(entries: readonly ProbationEntry[], nowMs: number): StateFact[] {
  return probationInForce(entries, nowMs).map((e) => ({
    kind: "probation",
    subject: `${e.kind}:${e.name}`,
    expiresAt: e.until,
    setAt: e.since,
    reason: `${e.kind} ${e.name} is new here and on probation`,
  }));
}

export function startProbation(file: string, kind: ProbationKind, name: string, nowMs: number): ProbationEntry {
  return withLock(file, () => {
    const entries = readProbation(file);
    const existing = entries.find((e) => e.kind === kind && e.name === name);
    if (existing) return existing;
    const entry: ProbationEntry = {
      kind,
      name,
      since: new Date(nowMs).toISOString(),
      until: new Date(nowMs + PROBATION_MS).toISOString(),
    };
    writeJsonAtomic(file, { version: 1, entries: [...entries, entry] });
    return entry;
  });
}

/** End probation now, on the record; returns the entry ended, if one was in force. */
export function trust(
  file: string,
  kind: ProbationKind,
  name: string,
  by: string,
  nowMs: number,
): ProbationEntry | undefined {
  return withLock(file, () => {
    const entries = readProbation(file);
    const live = probationInForce(entries, nowMs).find((e) => e.kind === kind && e.name === name);
    if (!live) return undefined;
    const ended: ProbationEntry = { ...live, trustedAt: new Date(nowMs).toISOString(), trustedBy: by };
    writeJsonAtomic(file, { version: 1, entries: entries.map((e) => (e === live ? ended : e)) });
    return ended;
  });
}

function isEntry(v: unknown): v is ProbationEntry {
  if (typeof v !== "object" || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    (e.kind === "agent" || e.kind === "server") &&
    typeof e.name === "string" &&
    typeof e.since === "string" &&
    typeof e.until === "string"
  );
}

// Freezes and other state facts in overlays.json; lifted ones stay, because what was frozen and when is record.
import type { StateFact } from "../core/request.ts";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../io/files.ts";

export interface OverlayFact extends StateFact {
  readonly id: string;
  readonly setAt: string;
  readonly liftedAt?: string;
  readonly liftedBy?: string;
}

interface OverlaysFile {
  readonly version: 1;
  readonly facts: readonly OverlayFact[];
}

export function readOverlays(file: string): OverlayFact[] {
  const raw = readJsonIfExists(file);
  if (raw === undefined) return [];
  if (!isOverlaysFile(raw)) return [];
  return raw.facts.filter(isOverlayFact);
}

/** Facts in force at `nowMs`: not lifted, not expired. */
export function overlaysInForce(facts: readonly OverlayFact[], nowMs: number): OverlayFact[] {
  return facts.filter((f) => !f.liftedAt && Date.parse(f.expiresAt) > nowMs);
}

interface NewFact {
  readonly kind: string;
  readonly subject: string;
  readonly reason?: string;
  readonly by?: string;
  readonly nowMs: number;
  readonly forMs: number;
  readonly actions?: readonly string[];
  readonly environment?: string;
}

export function addFact(file: string, input: NewFact): OverlayFact {
  return withLock(file, () => {
    const facts = readOverlays(file);
    const fact: OverlayFact = {
      id: `${input.kind.slice(0, 3)}_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`,
      kind: input.kind,
      subject: input.subject,
      setAt: new Date(input.nowMs).toISOString(),
      expiresAt: new Date(input.nowMs + input.forMs).toISOString(),
      ...(input.reason ? { reason: input.reason } : {}),
      ...(input.by ? { by: input.by } : {}),
      ...(input.actions ? { actions: input.actions } : {}),
      ...(input.environment ? { environment: input.environment } : {}),
    };
    writeJsonAtomic(file, { version: 1, facts: [...facts, fact] } satisfies OverlaysFile);
    return fact;
  });
}

/** Lift every fact of this kind and subject still in force; returns the ones lifted. */
export function liftFacts(file: string, kind: string, subject: string, by: string, nowMs: number): OverlayFact[] {
  return withLock(file, () => {
    const facts = readOverlays(file);
    const live = new Set(overlaysInForce(facts, nowMs).filter((f) => f.kind === kind && f.subject === subject));
    if (live.size === 0) return [];
    const at = new Date(nowMs).toISOString();
    const next = facts.map((f) => (live.has(f) ? { ...f, liftedAt: at, liftedBy: by } : f));
    writeJsonAtomic(file, { version: 1, facts: next } satisfies OverlaysFile);
    return next.filter((f) => f.liftedAt === at && f.liftedBy === by && f.kind === kind && f.subject === subject);
  });
}

function isOverlaysFile(v: unknown): v is OverlaysFile {
  return typeof v === "object" && v !== null && "facts" in v && Array.isArray((v as { facts: unknown }).facts);
}

function isOverlayFact(v: unknown): v is OverlayFact {
  if (typeof v !== "object" || v === null) return false;
  const f = v as Record<string, unknown>;
  return (
    typeof f.id === "string" &&
    typeof f.kind === "string" &&
    typeof f.subject === "string" &&
    typeof f.expiresAt === "string" &&
    typeof f.setAt === "string" &&
    !Number.isNaN(Date.parse(f.expiresAt))
  );
}

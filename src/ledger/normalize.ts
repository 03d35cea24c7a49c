// What a writer hands over, checked and put in the one form that is hashed; bad input names the field, never its value.
import { isActionClass } from "../core/action.ts";
import { isEffect, isMode } from "../core/effect.ts";
import { MemnoxError } from "../core/errors.ts";
import { EVENT_KINDS, EVENT_SCHEMA_VERSION, type EventInput, SURFACES } from "../core/event.ts";
import { maskDeep } from "../core/secrets.ts";
import type { LedgerRow } from "./row.ts";

/** A row before the chain gives it a sequence number and hashes. */
export type Draft = Omit<LedgerRow, "seq" | "prevHash" | "hash">;

const ID = /^evt_[0-9a-z_-]{6,60}$/;

export function newEventId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `evt_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export function isEventId(v: string): boolean {
  return ID.test(v);
}

export function draftFrom(input: EventInput): Draft {
  const bad = (field: string, fix: string) => new MemnoxError("usage", `ledger row field \`${field}\` ${fix}`);
  if (!(EVENT_KINDS as readonly string[]).includes(input.kind)) throw bad("kind", `must be one of ${EVENT_KINDS}`);
  if (!(SURFACES as readonly string[]).includes(input.surface)) throw bad("surface", `must be one of ${SURFACES}`);
  if (!input.operation) throw bad("operation", "is empty");
  if (input.id !== undefined && !ID.test(input.id)) throw bad("id", "must be `evt_` and 6-60 of [0-9a-z_-]");
  for (const f of ["effect", "enforceEffect"] as const) {
    const v = input[f];
    if (v !== undefined && !isEffect(v)) throw bad(f, "must be allow, ask or deny");
  }
  if (input.mode !== undefined && !isMode(input.mode)) throw bad("mode", "must be off, observe, advise or enforce");
  if (input.classes?.some((c) => !isActionClass(c))) throw bad("classes", "holds an unknown class");
  const d: Record<string, unknown> = {
    schemaVersion: EVENT_SCHEMA_VERSION,
    id: input.id ?? newEventId(),
    kind: input.kind,
    occurredAt: instant(input.occurredAt, "occurredAt"),
    agentSessionId: input.session,
    agent: input.agent,
    surface: input.surface,
    operation: input.operation,
    classes: input.classes,
    resourceRef: input.resourceRef,
    effect: input.effect,
    enforceEffect: input.enforceEffect,
    mode: input.mode,
    governed: input.governed,
    reason: input.reason,
    ruleId: input.ruleId,
    ruleFile: input.ruleFile,
    ruleLine: int(input.ruleLine, "ruleLine"),
    alternative: input.alternative,
    argsDigest: input.argsDigest,
    policyHash: input.policyHash,
    exitCode: int(input.exitCode, "exitCode"),
    durationMs: int(input.durationMs, "durationMs"),
    startedAt: input.startedAt === undefined ? undefined : instant(input.startedAt, "startedAt"),
    cwd: input.cwd,
    parent: input.parent,
    request: input.request,
    stale: input.stale === true ? true : undefined,
    detail: input.detail,
  };
  for (const k of Object.keys(d)) if (d[k] === undefined || d[k] === "") delete d[k];
  // Through JSON once, so what is hashed now is exactly what is read back from the columns later.
  return masked(JSON.parse(JSON.stringify(d)) as Draft);
}

/** No credential is ever stored: whatever a writer passed, what it says of the call is masked before it is hashed. */
function masked(d: Draft): Draft {
  const out: Record<string, unknown> = { ...d };
  for (const k of ["resourceRef", "reason", "alternative", "request"] as const) if (k in d) out[k] = maskDeep(d[k]);
  // An anchor's detail is its signature and key, and must stay exactly as signed.
  if (d.detail !== undefined && d.kind !== "anchor") out.detail = maskDeep(d.detail);
  return out as Draft;
}

/** Every instant is stored as `YYYY-MM-DDTHH:MM:SS.sssZ`, so text order is time order. */
function instant(v: string, field: string): string {
  const ms = Date.parse(v);
  if (!Number.isFinite(ms)) throw new MemnoxError("usage", `ledger row field \`${field}\` is not an ISO-8601 instant`);
  return new Date(ms).toISOString();
}

function int(v: number | undefined, field: string): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isFinite(v)) throw new MemnoxError("usage", `ledger row field \`${field}\` is not a number`);
  return Math.round(v);
}

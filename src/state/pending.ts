// Held calls under ~/.memnox/pending/: a file per hold, so a second terminal can answer what the first waits on.

import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { maskSecrets } from "../core/secrets.ts";
import type { RuleRef } from "../core/verdict.ts";
import { type ProcessRef, processAlive } from "../io/alive.ts";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../io/files.ts";
import { sha256Hex } from "../io/hash.ts";
import { mayAnswer } from "./identity.ts";

type HoldStatus = "waiting" | "granted" | "denied" | "unattended";

interface HoldAnswer {
  readonly by: string;
  readonly at: string;
  /** `session`: the grant covers the same call for the rest of that session, not spent by one use. */
  readonly scope?: "once" | "session";
}

export interface Hold {
  readonly version: 1;
  readonly id: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly fingerprint: string;
  readonly surface: string;
  readonly action: string;
  readonly target?: string;
  readonly agent?: string;
  readonly session?: string;
  readonly environment?: string;
  readonly reason: string;
  readonly rule?: RuleRef;
  readonly approvers: readonly string[];
  readonly minApprovals: number;
  readonly status: HoldStatus;
  readonly grants: readonly HoldAnswer[];
  readonly denials: readonly HoldAnswer[];
  readonly spentAt?: string;
  readonly decisionEventId?: string;
  /** The process waiting on it (an interceptor), or the agent it holds (a hook's ask): the hold dies with it. */
  readonly requester?: ProcessRef;
}

export interface FingerprintParts {
  readonly agent?: string | undefined;
  readonly action: string;
  /** As it may be stored and shown: credentials masked. */
  readonly target?: string | undefined;
  /** What the grant binds to when it is not the shown target (a masked credential's keyed digest with it). */
  readonly binding?: string | undefined;
  readonly environment?: string | undefined;
}

/** agent + action + target + environment: what a grant is bound to. */
export function fingerprint(p: FingerprintParts): string {
  const text = [p.agent ?? "", p.action, p.binding ?? p.target ?? "", p.environment ?? ""].join("\0");
  return sha256Hex(text).slice(0, 32);
}

const holdPath = (dir: string, id: string) => join(dir, `${id}.json`);

/**
 * Waiting past its expiry, or after the process it held went away, is unattended: nobody answered, which is not
 * somebody's denial, and nothing is left waiting for an answer.
 */
export function effectiveStatus(h: Hold, nowMs: number): HoldStatus {
  if (h.status !== "waiting") return h.status;
  if (Date.parse(h.expiresAt) <= nowMs) return "unattended";
  return h.requester && !processAlive(h.requester) ? "unattended" : "waiting";
}

/** Whether the hold ended because what asked is gone (for the words `approvals` and `approve` say). */
export function requesterGone(h: Hold): boolean {
  return h.requester !== undefined && !processAlive(h.requester);
}

/** Names the process a hold waits for; a hold already naming one keeps it. */
export function stampRequester(dir: string, id: string, requester: ProcessRef): void {
  const file = holdPath(dir, id);
  try {
    withLock(file, () => {
      const h = readHold(dir, id);
      if (h && !h.requester && h.status === "waiting") writeJsonAtomic(file, { ...h, requester });
    });
  } catch {
    // A hold that cannot be stamped (inside a wall) waits out its expiry, as before.
  }
}

export function readHold(dir: string, id: string): Hold | undefined {
  if (!/^a_[0-9a-f]{6,}$/.test(id)) return undefined;
  const raw = readJsonIfExists(holdPath(dir, id));
  return isHold(raw) ? raw : undefined;
}

export function listHolds(dir: string): Hold[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const holds: Hold[] = [];
  for (const n of names) {
    if (!n.endsWith(".json")) continue;
    const h = readHold(dir, n.slice(0, -5));
    if (h) holds.push(h);
  }
  return holds.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** The holds nobody has answered yet and that have not expired: what `approvals`, status and replay list. */
export function holdsWaiting(dir: string, nowMs: number): Hold[] {
  return listHolds(dir).filter((h) => effectiveStatus(h, nowMs) === "waiting");
}

export interface NewHold extends FingerprintParts {
  readonly surface: string;
  readonly session?: string | undefined;
  readonly reason: string;
  readonly rule?: RuleRef | undefined;
  readonly approvers?: readonly string[] | undefined;
  readonly minApprovals?: number | undefined;
  readonly decisionEventId?: string | undefined;
  readonly nowMs: number;
  readonly ttlMs: number;
}

/** How long a settled hold stays on disk, so a late `approve` is told what happened rather than "no such hold". */
export const SETTLED_KEPT_MS = 86_400_000;

/** When a hold stopped mattering: denied, expired unanswered, or a one-use grant spent. Undefined while it still can. */
function settledAt(h: Hold, nowMs: number): number | undefined {
  const status = effectiveStatus(h, nowMs);
  if (status === "unattended") return Date.parse(h.expiresAt);
  if (status === "denied") return Math.max(...h.denials.map((d) => Date.parse(d.at)), Date.parse(h.createdAt));
  if (status === "granted" && h.spentAt) return Date.parse(h.spentAt);
  return undefined;
}

/** The holds still worth reading; settled ones past their keeping are removed, so every ask does not read them all. */
function liveHolds(dir: string, nowMs: number): Hold[] {
  return listHolds(dir).filter((h) => {
    const at = settledAt(h, nowMs);
    if (at === undefined || nowMs - at < SETTLED_KEPT_MS) return true;
    rmSync(holdPath(dir, h.id), { force: true });
    return false;
  });
}

/**
 * A new hold, or the one this session already waits on for the same fingerprint (a retry must not pile up holds).
 * One hold per call per session: another session running the same command waits on a hold of its own, so an answer
 * to one is never spent by the other.
 */
export function createHold(dir: string, input: NewHold): Hold {
  const fp = fingerprint(input);
  const waiting = liveHolds(dir, input.nowMs).find(
    (h) => h.fingerprint === fp && h.session === input.session && effectiveStatus(h, input.nowMs) === "waiting",
  );
  if (waiting) return waiting;
  const hold: Hold = {
    version: 1,
    id: `a_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`,
    createdAt: new Date(input.nowMs).toISOString(),
    expiresAt: new Date(input.nowMs + input.ttlMs).toISOString(),
    fingerprint: fp,
    surface: input.surface,
    action: input.action,
    // A hold is a file any terminal reads: what it shows of the call is masked again, whatever the caller passed.
    ...(input.target !== undefined ? { target: maskSecrets(input.target) } : {}),
    ...(input.agent !== undefined ? { agent: input.agent } : {}),
    ...(input.session !== undefined ? { session: input.session } : {}),
    ...(input.environment !== undefined ? { environment: input.environment } : {}),
    reason: maskSecrets(input.reason),
    ...(input.rule ? { rule: input.rule } : {}),
    approvers: input.approvers ?? [],
    minApprovals: Math.max(1, input.minApprovals ?? 1),
    status: "waiting",
    grants: [],
    denials: [],
    ...(input.decisionEventId ? { decisionEventId: input.decisionEventId } : {}),
  };
  writeJsonAtomic(holdPath(dir, hold.id), hold);
  return hold;
}

export type AnswerResult =
  | { readonly outcome: "recorded"; readonly hold: Hold }
  /** The rule names who may answer, and this person is not among them: nothing changed. */
  | { readonly outcome: "not-approver"; readonly hold: Hold }
  | { readonly outcome: "decided"; readonly hold: Hold }
  | { readonly outcome: "already"; readonly hold: Hold; readonly status: HoldStatus }
  | { readonly outcome: "duplicate"; readonly hold: Hold };

/**
 * First answer wins; only the people a rule names may answer (by account or group), each counting once; one
 * denial ends it; grants accumulate to the quorum.
 */
export function answerHold(
  dir: string,
  id: string,
  answer: {
    readonly by: string;
    /** The answerer's groups, for approvers that name a group; the account name alone when not given. */
    readonly groups?: readonly string[];
    readonly grant: boolean;
    readonly nowMs: number;
    readonly scope?: "once" | "session";
  },
): AnswerResult | undefined {
  const file = holdPath(dir, id);
  return withLock(file, () => {
    const hold = readHold(dir, id);
    if (!hold) return undefined;
    const status = effectiveStatus(hold, answer.nowMs);
    if (status !== "waiting") return { outcome: "already", hold, status };
    if (!mayAnswer({ name: answer.by, groups: answer.groups ?? [] }, hold.approvers))
      return { outcome: "not-approver", hold };
    // One person counts once towards the quorum, but a denial ends it whoever gives it, an earlier approver too.
    if (answer.grant && hold.grants.some((g) => g.by === answer.by)) return { outcome: "duplicate", hold };
    const entry: HoldAnswer = {
      by: answer.by,
      at: new Date(answer.nowMs).toISOString(),
      scope: answer.scope ?? "once",
    };
    const grants = answer.grant ? [...hold.grants, entry] : hold.grants;
    const denials = answer.grant ? hold.denials : [...hold.denials, entry];
    const next: HoldStatus = !answer.grant ? "denied" : grants.length >= hold.minApprovals ? "granted" : "waiting";
    const updated: Hold = { ...hold, grants, denials, status: next };
    writeJsonAtomic(file, updated);
    return { outcome: next === "waiting" ? "recorded" : "decided", hold: updated };
  });
}

/**
 * Spend a granted, unspent hold for this fingerprint; a session grant is reused, and with no session lapses at
 * expiry. A hold raised in a session is that session's: another session's call never spends it.
 */
export function claimGrant(dir: string, fp: string, session: string | undefined, nowMs: number): Hold | undefined {
  for (const h of listHolds(dir)) {
    if (!spendable(h, fp, session, nowMs)) continue;
    const claimed = spendGrant(dir, h, nowMs);
    if (claimed) return claimed;
  }
  return undefined;
}

/** The grant `claimGrant` would spend, read only: the gate judges with it, then spends it (`spendGrant`). */
export function grantFor(dir: string, fp: string, session: string | undefined, nowMs: number): Hold | undefined {
  return listHolds(dir).find((h) => spendable(h, fp, session, nowMs));
}

function spendable(h: Hold, fp: string, session: string | undefined, nowMs: number): boolean {
  if (h.fingerprint !== fp || h.status !== "granted" || h.spentAt) return false;
  if (h.session !== undefined && h.session !== session) return false;
  if (!h.grants.some((g) => g.scope === "session")) return true;
  return h.session !== undefined ? h.session === session : Date.parse(h.expiresAt) > nowMs;
}

/**
 * Spend `hold` if it is still granted and unspent (compare-and-set under its lock); a session grant is reused and
 * never spent. Undefined when another call spent it first.
 */
export function spendGrant(dir: string, hold: Hold, nowMs: number): Hold | undefined {
  if (hold.grants.some((g) => g.scope === "session")) return hold;
  return withLock(holdPath(dir, hold.id), () => {
    const fresh = readHold(dir, hold.id);
    if (fresh?.status !== "granted" || fresh.spentAt) return undefined;
    const spent: Hold = { ...fresh, spentAt: new Date(nowMs).toISOString() };
    writeJsonAtomic(holdPath(dir, hold.id), spent);
    return spent;
  });
}

/**
 * The person's no to this call in this session, answered within `windowMs`: a retry is refused with that answer
 * rather than put to a person again as a fresh hold.
 */
export function deniedHold(
  dir: string,
  fp: string,
  session: string | undefined,
  nowMs: number,
  windowMs: number,
): Hold | undefined {
  let found: Hold | undefined;
  for (const h of listHolds(dir)) {
    if (h.fingerprint !== fp || h.status !== "denied" || h.session !== session) continue;
    const at = Math.max(...h.denials.map((d) => Date.parse(d.at)));
    if (!(nowMs - at < windowMs)) continue;
    if (!found || at > Math.max(...found.denials.map((d) => Date.parse(d.at)))) found = h;
  }
  return found;
}

function isHold(v: unknown): v is Hold {
  if (typeof v !== "object" || v === null) return false;
  const h = v as Record<string, unknown>;
  return (
    h.version === 1 &&
    typeof h.id === "string" &&
    typeof h.fingerprint === "string" &&
    typeof h.action === "string" &&
    typeof h.expiresAt === "string" &&
    typeof h.status === "string" &&
    Array.isArray(h.grants) &&
    Array.isArray(h.denials)
  );
}

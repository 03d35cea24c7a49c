// `memnox allow-once <code>`: each refusal by a rule prints a short code; a person who types it at their own terminal
// lets that exact call (the same action on the same target, for the same agent) through once, within minutes.
// ~/.memnox/allow-once/p-<issued ms>-<digest of the code>.json while it waits to be typed, and
// ok-<call>-<typed ms>-<digest>.json once typed: the code itself is never stored, so reading the folder gives none;
// a refusal finds a typed code for its call by name alone, and old codes are swept by the times in their names.
import { mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readJsonIfExists, writeJsonAtomic } from "../io/files.ts";
import { sha256Hex } from "../io/hash.ts";

/** How long a printed code can be typed, and how long after it was typed the call has to come again. */
export const CODE_TTL_MS = 10 * 60_000;
export const USE_TTL_MS = 10 * 60_000;

/** Crockford's base32: no I, L, O or U to misread. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export interface AllowOnce {
  readonly version: 1;
  /** What the call is bound to (src/state/pending.ts fingerprint: agent, action, target, environment). */
  readonly fingerprint: string;
  /** As shown: the action and its masked target, for the person typing the code. */
  readonly action: string;
  readonly target: string;
  readonly session?: string;
  readonly reason: string;
  readonly issuedAt: string;
  readonly expiresAt: string;
  readonly decisionEventId?: string;
  readonly approvedAt?: string;
  readonly approvedBy?: string;
}

export interface IssueRequest {
  readonly fingerprint: string;
  readonly action: string;
  readonly target: string;
  readonly session?: string | undefined;
  readonly reason: string;
  readonly decisionEventId?: string | undefined;
  readonly nowMs: number;
}

/** `K7QF-2MXD` from what a person typed (any case, dash or not); undefined when it cannot be a code. */
function normalizeCode(typed: string): string | undefined {
  const plain = typed.toUpperCase().replace(/[-\s]/g, "");
  if (plain.length !== 8 || [...plain].some((c) => !ALPHABET.includes(c))) return undefined;
  return `${plain.slice(0, 4)}-${plain.slice(4)}`;
}

const digestOf = (code: string) => sha256Hex(code).slice(0, 32);
const okPrefix = (fingerprint: string) => `ok-${fingerprint}-`;
/** Past this many files a new code sweeps the old ones, by the times in their names (no file is read). */
const SWEEP_OVER = 64;

/** The time in a code file's name (`p-<ms>-…` or `ok-<call>-<ms>-…`), or undefined for a name that is not one. */
function timeIn(name: string): number | undefined {
  const m = /^(?:p|ok-[0-9a-f]+)-(\d+)-[0-9a-f]{32}\.json$/.exec(name);
  return m?.[1] ? Number(m[1]) : undefined;
}

function read(file: string): AllowOnce | undefined {
  try {
    const raw = readJsonIfExists(file) as AllowOnce | undefined;
    return raw?.version === 1 && typeof raw.fingerprint === "string" ? raw : undefined;
  } catch {
    return undefined;
  }
}

/** A fresh code for a refused call; codes past their time are swept on the way. */
export function issueAllowOnce(dir: string, r: IssueRequest): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const names = readdirSync(dir);
  if (names.length > SWEEP_OVER) sweep(dir, names, r.nowMs);
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const code = normalizeCode([...bytes].map((b) => ALPHABET[b % 32]).join("")) ?? "";
  const rec: AllowOnce = {
    version: 1,
    fingerprint: r.fingerprint,
    action: r.action,
    target: r.target,
    ...(r.session ? { session: r.session } : {}),
    reason: r.reason,
    issuedAt: new Date(r.nowMs).toISOString(),
    expiresAt: new Date(r.nowMs + CODE_TTL_MS).toISOString(),
    ...(r.decisionEventId ? { decisionEventId: r.decisionEventId } : {}),
  };
  writeJsonAtomic(join(dir, `p-${r.nowMs}-${digestOf(code)}.json`), rec);
  return code;
}

type Approval =
  | { readonly ok: true; readonly record: AllowOnce; readonly until: string }
  | { readonly ok: false; readonly why: string };

/** A person typed the code: the call it names may now run once, within USE_TTL_MS. */
export function approveAllowOnce(dir: string, typed: string, by: string, nowMs: number): Approval {
  const code = normalizeCode(typed);
  if (!code)
    return { ok: false, why: `\`${typed}\` is not an allow-once code (eight letters and digits, like K7QF-2MXD)` };
  const digest = digestOf(code);
  const name = safeList(dir).find((n) => n.startsWith("p-") && n.endsWith(`-${digest}.json`));
  const file = join(dir, name ?? `p-0-${digest}.json`);
  const rec = name ? read(file) : undefined;
  if (!rec)
    return { ok: false, why: `no refusal printed ${code}, or it was typed already (it lets one call through once)` };
  if (Date.parse(rec.expiresAt) <= nowMs) {
    rmSync(file, { force: true });
    return {
      ok: false,
      why: `${code} has expired: a code is good for ${CODE_TTL_MS / 60_000} minutes after the refusal`,
    };
  }
  const until = new Date(nowMs + USE_TTL_MS).toISOString();
  const approved: AllowOnce = { ...rec, approvedAt: new Date(nowMs).toISOString(), approvedBy: by, expiresAt: until };
  writeJsonAtomic(join(dir, `${okPrefix(rec.fingerprint)}${nowMs}-${digest}.json`), approved);
  rmSync(file, { force: true });
  return { ok: true, record: approved, until };
}

/** A typed code found for a call, and the file it is taken from. */
export interface TypedCode {
  readonly record: AllowOnce;
  readonly file: string;
}

/**
 * The approved code for this exact call, taken (deleted) so it lets exactly one call through: the file is renamed
 * away first, so two seams claiming at once cannot both have it.
 */
export function claimAllowOnce(
  dir: string,
  fingerprint: string,
  session: string | undefined,
  nowMs: number,
): AllowOnce | undefined {
  for (const code of typedCodes(dir, fingerprint, session, nowMs)) if (takeCode(code)) return code.record;
  return undefined;
}

/** The typed code `claimAllowOnce` would take, read only: the gate judges with it, then takes it (`takeCode`). */
export function typedCode(
  dir: string,
  fingerprint: string,
  session: string | undefined,
  nowMs: number,
): TypedCode | undefined {
  return typedCodes(dir, fingerprint, session, nowMs)[0];
}

function typedCodes(dir: string, fingerprint: string, session: string | undefined, nowMs: number): TypedCode[] {
  const names = safeList(dir).filter((n) => n.startsWith(okPrefix(fingerprint)) && n.endsWith(".json"));
  const out: TypedCode[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const rec = read(file);
    if (!rec?.approvedAt || rec.fingerprint !== fingerprint || Date.parse(rec.expiresAt) <= nowMs) continue;
    if (rec.session && session && rec.session !== session) continue;
    out.push({ record: rec, file });
  }
  return out;
}

/** Take the code (rename it away, then delete it): false when another call took it first. */
export function takeCode(code: TypedCode): boolean {
  const taken = `${code.file}.taken-${process.pid}`;
  try {
    renameSync(code.file, taken);
  } catch {
    return false;
  }
  rmSync(taken, { force: true });
  return true;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Every code past its use, by the time in its name: a waiting one lasts CODE_TTL_MS, a typed one USE_TTL_MS. */
function sweep(dir: string, names: readonly string[], nowMs: number): void {
  for (const name of names) {
    const at = timeIn(name);
    if (at === undefined) continue;
    const ttl = name.startsWith("p-") ? CODE_TTL_MS : USE_TTL_MS;
    if (at + ttl <= nowMs) rmSync(join(dir, name), { force: true });
  }
}

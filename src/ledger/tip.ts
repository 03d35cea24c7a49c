// The chain's tip kept outside the database: the newest row's sequence number and hash, sealed with the ledger key,
// rewritten inside every append's write transaction. Deleting the newest rows, every row, or the database file
// leaves a tip naming a row that is gone; rewriting the chain leaves one whose hash no row has.
import { closeSync, constants, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { hmacSha256Hex } from "../io/hash.ts";
import type { Paths } from "../ports/paths.ts";
import { machineKey, readKey, SIGNING_KEY_FILE } from "./keys.ts";

const TIP_FORMAT = "memnox.ledger-tip/1";

/** Where a ledger keeps its tip and its key: the Paths given, else beside the database file. */
export type LedgerPaths = Pick<Paths, "db"> & Partial<Pick<Paths, "keys" | "ledgerTip">>;

export interface TipFiles {
  readonly tip: string;
  readonly keys: string;
}

export function tipFiles(paths: LedgerPaths): TipFiles {
  return {
    tip: paths.ledgerTip ?? join(dirname(paths.db), "ledger-tip.json"),
    keys: paths.keys ?? join(dirname(paths.db), "keys"),
  };
}

interface SealedTip {
  readonly seq: number;
  readonly hash: string;
}

export type TipState =
  | { readonly kind: "absent" }
  | ({ readonly kind: "sealed" } & SealedTip)
  /** There, but not a tip this machine's ledger key sealed: unreadable, edited, or forged. */
  | { readonly kind: "unsealed"; readonly why: string };

const keys = new Map<string, Uint8Array>();

/** The ledger's Ed25519 secret keys the seal too (an HMAC, cheap on every append); nothing else MACs with it. */
function sealKey(dir: string, create: boolean): Uint8Array | undefined {
  const known = keys.get(dir);
  if (known) return known;
  const key = create ? machineKey({ keys: dir }, SIGNING_KEY_FILE) : readKey(join(dir, SIGNING_KEY_FILE));
  if (key) keys.set(dir, key);
  return key;
}

function seal(key: Uint8Array, t: SealedTip): string {
  return `hmac-sha256:${hmacSha256Hex(key, `${TIP_FORMAT}\n${t.seq}\n${t.hash}`)}`;
}

/** Reading never creates a key: without one, a tip cannot be checked and says so. */
export function readTip(f: TipFiles): TipState {
  return readTipFile(f).state;
}

/** The tip's state and the file's text as it was read (null when there is none), to put back if need be. */
export function readTipFile(f: TipFiles): { readonly state: TipState; readonly text: string | null } {
  let text: string;
  try {
    text = readFileSync(f.tip, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { state: { kind: "absent" }, text: null };
    return { state: { kind: "unsealed", why: `it cannot be read (${(e as Error).message})` }, text: null };
  }
  return { state: parseTip(f, text), text };
}

function parseTip(f: TipFiles, text: string): TipState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: "unsealed", why: "it is not JSON" };
  }
  const r = raw as Record<string, unknown>;
  if (r.format !== TIP_FORMAT || typeof r.seq !== "number" || typeof r.hash !== "string" || typeof r.seal !== "string")
    return { kind: "unsealed", why: `it is not a ${TIP_FORMAT} record` };
  const tip = { seq: r.seq, hash: r.hash };
  let key: Uint8Array | undefined;
  try {
    key = sealKey(f.keys, false);
  } catch (e) {
    return { kind: "unsealed", why: (e as Error).message };
  }
  if (!key) return { kind: "unsealed", why: "the ledger key that sealed it is gone" };
  if (seal(key, tip) !== r.seal) return { kind: "unsealed", why: "its seal does not verify: it was edited or forged" };
  return { kind: "sealed", ...tip };
}

/** Every tip record is this long (padded), so each is written over the last in place. */
const RECORD_BYTES = 256;

/**
 * Called inside the write transaction that added row `t`, so tips are written in chain order and read by appenders
 * under the same lock. Written in place, not renamed: a rename over a file costs a flush on ext4, every append.
 */
export function writeTip(f: TipFiles, t: SealedTip): void {
  const key = sealKey(f.keys, true);
  if (!key) return;
  const json = JSON.stringify({ format: TIP_FORMAT, seq: t.seq, hash: t.hash, seal: seal(key, t) });
  writeTipText(f, `${json.padEnd(RECORD_BYTES - 1)}\n`);
}

/** The record's bytes at the start of the file, and nothing after them. */
export function writeTipText(f: TipFiles, text: string): void {
  let fd: number;
  try {
    fd = openSync(f.tip, constants.O_WRONLY | constants.O_CREAT, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    mkdirSync(dirname(f.tip), { recursive: true, mode: 0o700 });
    fd = openSync(f.tip, constants.O_WRONLY | constants.O_CREAT, 0o600);
  }
  try {
    const n = writeSync(fd, text, 0);
    ftruncateSync(fd, n);
  } finally {
    closeSync(fd);
  }
}

export function tipExists(f: TipFiles): boolean {
  return existsSync(f.tip);
}

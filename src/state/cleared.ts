// Calls a person already let through at one seam, so the next seam the same call meets does not hold it again: a
// curl approved at the hook reaches the egress proxy as one more request to that host, in that session. A mark is
// bound to the session, the action, its target and the environment, and lapses with the grant it came from.
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../io/files.ts";
import { sha256Hex } from "../io/hash.ts";

export interface ClearedCall {
  readonly action: string;
  readonly target: string;
  readonly environment?: string;
  /** The seam where the person's yes was given, and whose: a hold id, or the agent's own prompt. */
  readonly surface: string;
  readonly by: string;
  readonly until: string;
  /** The decision it came from, so a no given afterwards (at a terminal) takes it back. */
  readonly decisionEventId?: string;
}

interface ClearedFile {
  readonly version: 1;
  readonly session: string;
  readonly calls: readonly ClearedCall[];
}

/** One small file per session beside the holds, so a lookup never reads another session's marks. */
const fileOf = (pendingDir: string, session: string) =>
  join(pendingDir, "cleared", `${sha256Hex(session).slice(0, 24)}.json`);

function read(file: string, session: string): ClearedCall[] {
  const raw = readJsonIfExists(file) as Partial<ClearedFile> | undefined;
  if (raw?.version !== 1 || raw.session !== session || !Array.isArray(raw.calls)) return [];
  return raw.calls.filter((c): c is ClearedCall => typeof c?.action === "string" && typeof c.until === "string");
}

const same = (a: Pick<ClearedCall, "action" | "target" | "environment">, b: typeof a) =>
  a.action === b.action && a.target === b.target && (a.environment ?? "") === (b.environment ?? "");

/** Marks `calls` let through for `session` until each one's `until`; lapsed marks are dropped on the way. */
export function clearCalls(pendingDir: string, session: string, calls: readonly ClearedCall[], nowMs: number): void {
  if (calls.length === 0) return;
  const file = fileOf(pendingDir, session);
  withLock(file, () => {
    const live = read(file, session).filter((c) => Date.parse(c.until) > nowMs && !calls.some((n) => same(n, c)));
    writeJsonAtomic(file, { version: 1, session, calls: [...live, ...calls] } satisfies ClearedFile);
  });
}

/** The mark this call carries in `session`, while it lasts. */
export function clearedCall(
  pendingDir: string,
  session: string,
  call: Pick<ClearedCall, "action" | "target" | "environment">,
  nowMs: number,
): ClearedCall | undefined {
  return read(fileOf(pendingDir, session), session).find((c) => same(c, call) && Date.parse(c.until) > nowMs);
}

/** A person said no after all (at a terminal): what that decision let through is taken back. */
export function unclearDecision(pendingDir: string, session: string, decisionEventId: string): void {
  const file = fileOf(pendingDir, session);
  withLock(file, () => {
    const calls = read(file, session);
    const kept = calls.filter((c) => c.decisionEventId !== decisionEventId);
    if (kept.length !== calls.length) writeJsonAtomic(file, { version: 1, session, calls: kept } satisfies ClearedFile);
  });
}

/** What one seam handed down to the program it started: the seams that program meets need not ask again. */
export interface HandedDown {
  readonly version: 1;
  /** The actions a person let through there (`git.push`), for this repository only. */
  readonly actions: readonly string[];
  readonly root: string;
  readonly surface: string;
  readonly by: string;
  readonly until: string;
}

/** The token names a file by its digest only, so the token itself lives in the child's environment and nowhere else. */
const tokenFile = (pendingDir: string, token: string) =>
  join(pendingDir, "cleared", `t-${sha256Hex(token).slice(0, 32)}.json`);

export function handDown(pendingDir: string, entry: Omit<HandedDown, "version">, nowMs: number): string {
  pruneTokens(pendingDir, nowMs);
  const token = `mxr_${crypto.randomUUID().replaceAll("-", "")}`;
  writeJsonAtomic(tokenFile(pendingDir, token), { version: 1, ...entry } satisfies HandedDown);
  return token;
}

export function handedDown(pendingDir: string, token: string, nowMs: number): HandedDown | undefined {
  if (!/^mxr_[0-9a-f]{32}$/.test(token)) return undefined;
  const raw = readJsonIfExists(tokenFile(pendingDir, token)) as Partial<HandedDown> | undefined;
  if (raw?.version !== 1 || !Array.isArray(raw.actions) || typeof raw.until !== "string") return undefined;
  return Date.parse(raw.until) > nowMs ? (raw as HandedDown) : undefined;
}

function pruneTokens(pendingDir: string, nowMs: number): void {
  const dir = join(pendingDir, "cleared");
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    if (!n.startsWith("t-") || !n.endsWith(".json")) continue;
    try {
      const raw = readJsonIfExists(join(dir, n)) as Partial<HandedDown> | undefined;
      if (!raw?.until || Date.parse(raw.until) <= nowMs) rmSync(join(dir, n), { force: true });
    } catch {
      rmSync(join(dir, n), { force: true });
    }
  }
}

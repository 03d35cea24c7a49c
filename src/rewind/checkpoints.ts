// ~/.memnox/checkpoints.json: which sessions already have a milestone where, so a hook that owes nothing starts nothing.
import { copyFileSync } from "node:fs";
import { isRecord } from "../core/record.ts";
import { readTextIfExists, withLock, writeJsonAtomic } from "../io/files.ts";

interface RepoCheckpoint {
  /** The milestone kept, or null when keeping one failed (it is not retried on every write). */
  readonly milestone: string | null;
  readonly at: string;
}

interface SessionCheckpoints {
  readonly repos: Readonly<Record<string, RepoCheckpoint>>;
  /** When the last milestone before a destructive command was attempted (ms), for the 20-second throttle. */
  readonly destroyAtMs?: number;
  readonly touchedAtMs: number;
}

interface Checkpoints {
  readonly version: 1;
  readonly sessions: Readonly<Record<string, SessionCheckpoints>>;
}

export type SessionChange = (s: SessionCheckpoints) => Partial<SessionCheckpoints>;

const EMPTY: Checkpoints = { version: 1, sessions: {} };
/** Sessions untouched this long are forgotten, so the file stays small. */
const FORGET_AFTER_MS = 30 * 24 * 3600 * 1000;

/** The file as kept; an unreadable one is set aside (never lost) and reads as empty. */
export function readCheckpoints(file: string, nowMs: number, log: (line: string) => void): Checkpoints {
  const text = readTextIfExists(file);
  if (text === undefined) return EMPTY;
  const parsed = parse(text);
  if (parsed) return parsed;
  const aside = `${file}.unreadable-${nowMs}`;
  copyFileSync(file, aside);
  log(`memnox: \`${file}\` is not a checkpoints file memnox wrote; kept it as \`${aside}\` and started afresh`);
  return EMPTY;
}

/** Re-reads under the lock and applies `change` to one session, so two seams never lose each other's marks. */
export function changeSession(
  file: string,
  session: string,
  nowMs: number,
  change: SessionChange,
  log: (line: string) => void,
): void {
  withLock(file, () => {
    const cp = updateSession(readCheckpoints(file, nowMs, log), session, nowMs, change);
    const sessions = Object.fromEntries(
      Object.entries(cp.sessions).filter(([, s]) => nowMs - s.touchedAtMs < FORGET_AFTER_MS),
    );
    writeJsonAtomic(file, { version: 1, sessions });
  });
}

/** The repositories a session kept a milestone in, as far as the file remembers; a reader never sets the file aside. */
export function sessionRepos(file: string, session: string): string[] {
  const text = readTextIfExists(file);
  const cp = text === undefined ? undefined : parse(text);
  return Object.keys(cp?.sessions[session]?.repos ?? {});
}

function updateSession(cp: Checkpoints, session: string, nowMs: number, change: SessionChange): Checkpoints {
  const before: SessionCheckpoints = cp.sessions[session] ?? { repos: {}, touchedAtMs: nowMs };
  const after: SessionCheckpoints = { ...before, ...change(before), touchedAtMs: nowMs };
  return { version: 1, sessions: { ...cp.sessions, [session]: after } };
}

function parse(text: string): Checkpoints | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(v) || v.version !== 1 || !isRecord(v.sessions)) return undefined;
  const sessions: Record<string, SessionCheckpoints> = {};
  for (const [name, s] of Object.entries(v.sessions)) {
    if (!isRecord(s) || !isRecord(s.repos) || typeof s.touchedAtMs !== "number") return undefined;
    const repos: Record<string, RepoCheckpoint> = {};
    for (const [root, r] of Object.entries(s.repos)) {
      if (!isRecord(r) || typeof r.at !== "string") return undefined;
      repos[root] = { milestone: typeof r.milestone === "string" ? r.milestone : null, at: r.at };
    }
    const destroy = typeof s.destroyAtMs === "number" ? { destroyAtMs: s.destroyAtMs } : {};
    sessions[name] = { repos, touchedAtMs: s.touchedAtMs, ...destroy };
  }
  return { version: 1, sessions };
}

// What a session was told and which of its calls still wait for their outcome: ~/.memnox/notice/<session>.json.
// Shared with the memory reminders (their keys start `memory:`): together at most two per turn, each once a session.

import { rmSync } from "node:fs";
import { join } from "node:path";
import { shownTargets } from "../../core/action.ts";
import type { GateAnswer } from "../../gate/types.ts";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../../io/files.ts";
import { sha256Hex } from "../../io/hash.ts";
import type { Reminder } from "./reminders.ts";
import type { TreeSnapshot } from "./written.ts";

const MAX_PER_TURN = 2;
/** A call whose outcome never arrived (the agent crashed) is forgotten after a day. */
const PENDING_TTL_MS = 86_400_000;

export interface PendingCall {
  readonly at: string;
  /** Decision rows to link the outcome to. */
  readonly eventIds: readonly string[];
  /** Set when the agent's own prompt asked: the gate's answer, so a yes can be recorded (arguments dropped). */
  readonly asked?: GateAnswer;
  /** A shell command's working tree before it ran, so what it wrote meets the write checks after it ran. */
  readonly tree?: TreeSnapshot;
  /** The paths the gate already decided a write to before the call: not checked twice. */
  readonly checked?: readonly string[];
  /** The agent was refused this call: the decision that refused it. Whatever reports it ran is not its outcome. */
  readonly refused?: string;
}

export interface SessionNotice {
  readonly version: 1;
  /** Reminder keys already said this session. */
  readonly said: readonly string[];
  /** Rules found to have nothing to remind of (too general, or observe only): no briefing is fetched for them again. */
  readonly quiet?: readonly string[];
  /** Reminders added in the current turn (a prompt and the calls it led to). */
  readonly turn?: { readonly id: string; readonly count: number };
  readonly calls: Readonly<Record<string, PendingCall>>;
}

const EMPTY: SessionNotice = { version: 1, said: [], calls: {} };

export function noticeFile(dir: string, session: string): string {
  const safe = /^[A-Za-z0-9._-]{1,100}$/.test(session) && !session.startsWith(".");
  const name = safe ? session : sha256Hex(session).slice(0, 32);
  return join(dir, `${name}.json`);
}

/** The notice as stored; anything unreadable starts over empty, since it only ever saves repetition. */
export function readNotice(file: string): SessionNotice {
  try {
    const raw = readJsonIfExists(file);
    if (typeof raw !== "object" || raw === null) return EMPTY;
    const r = raw as Partial<SessionNotice>;
    return {
      version: 1,
      said: Array.isArray(r.said) ? r.said.filter((s) => typeof s === "string") : [],
      ...(Array.isArray(r.quiet) ? { quiet: r.quiet.filter((s) => typeof s === "string") } : {}),
      calls: typeof r.calls === "object" && r.calls !== null ? r.calls : {},
      ...(r.turn && typeof r.turn.id === "string" && typeof r.turn.count === "number" ? { turn: r.turn } : {}),
    };
  } catch {
    return EMPTY;
  }
}

/** Read, change and write under the file's lock (an agent runs its hooks in parallel). */
export function updateNotice<T>(
  file: string,
  nowMs: number,
  change: (n: SessionNotice) => { next: SessionNotice; result: T },
): T {
  try {
    return withLock(file, () => {
      const { next, result } = change(readNotice(file));
      writeJsonAtomic(file, prune(next, nowMs));
      return result;
    });
  } catch {
    // Not kept (inside a kernel wall, whose memnox home is unwritable, or a full disk): a reminder may be said again
    // and an outcome go unlinked, but the call is never refused for the notice's sake.
    return change(readNotice(file)).result;
  }
}

export function dropNotice(file: string): void {
  rmSync(file, { force: true });
}

function prune(n: SessionNotice, nowMs: number): SessionNotice {
  const calls: Record<string, PendingCall> = {};
  for (const [k, c] of Object.entries(n.calls)) if (nowMs - Date.parse(c.at) < PENDING_TTL_MS) calls[k] = c;
  return { ...n, calls };
}

/** Pick what may still be said this turn; pure. `newTurn` starts the count again (a prompt). */
export function claimReminders(
  n: SessionNotice,
  turn: string,
  candidates: readonly Reminder[],
  newTurn: boolean,
): { next: SessionNotice; said: Reminder[] } {
  const used = !newTurn && n.turn?.id === turn ? n.turn.count : 0;
  const said: Reminder[] = [];
  for (const c of candidates) {
    if (used + said.length >= MAX_PER_TURN) break;
    if (n.said.includes(c.key) || said.some((s) => s.key === c.key)) continue;
    said.push(c);
  }
  return {
    next: { ...n, said: [...n.said, ...said.map((s) => s.key)], turn: { id: turn, count: used + said.length } },
    said,
  };
}

/** The gate's answer as kept on disk: raw call arguments never leave the process that read them. */
export function withoutArguments(a: GateAnswer): GateAnswer {
  // Kept in a file until the outcome arrives: no arguments, and targets only as they may be shown.
  const stored = a.actions.map((x) => {
    const { shown: _, ...rest } = x;
    return { ...rest, targets: shownTargets(x), arguments: {} };
  });
  return { ...a, actions: stored };
}

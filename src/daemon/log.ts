// daemon.log: one line per thing the daemon did or noticed, `<instant> <kind> <words>[ (<event id>)]`, never stdout.
import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { maskSecrets } from "../core/secrets.ts";
import type { Clock } from "../ports/index.ts";

/** Past this size the log moves to `daemon.log.1` (one generation kept), so it never fills a disk. */
const ROTATE_BYTES = 2 * 1024 * 1024;

export interface LogEntry {
  readonly at: string;
  readonly kind: string;
  readonly message: string;
  /** The ledger row this line is about, when it has one. */
  readonly eventId?: string;
}

export interface DaemonLog {
  write(kind: string, message: string, eventId?: string): void;
}

/** Kinds are one word; a message is one line, whatever it was given. */
export function formatEntry(e: LogEntry): string {
  const kind = e.kind.replace(/\s+/g, "-") || "note";
  const message = e.message.replace(/[\r\n]+/g, " ");
  return `${e.at} ${kind} ${message}${e.eventId ? ` (${e.eventId})` : ""}\n`;
}

const LINE = /^(\S+) (\S+) (.*?)(?: \((evt_[0-9a-z_-]{6,60})\))?$/;

export function parseEntry(line: string): LogEntry | undefined {
  const m = LINE.exec(line);
  if (!m?.[1] || !m[2] || m[3] === undefined) return undefined;
  return { at: m[1], kind: m[2], message: m[3], ...(m[4] ? { eventId: m[4] } : {}) };
}

export function daemonLog(path: string, clock: Clock): DaemonLog {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  return {
    write(kind, message, eventId) {
      const at = new Date(clock.now()).toISOString();
      try {
        if (size(path) > ROTATE_BYTES) renameSync(path, `${path}.1`);
        // One short O_APPEND write per line: a reader never sees half of one.
        appendFileSync(
          path,
          formatEntry({ at, kind, message: maskSecrets(message), ...(eventId ? { eventId } : {}) }),
          { mode: 0o600 },
        );
      } catch {
        // the log is how a person learns what happened; losing a line must not stop the daemon
      }
    },
  };
}

function size(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

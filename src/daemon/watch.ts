// What `memnox watch` follows: new lines of daemon.log, and `config` rows that reach the ledger from anywhere.
// It wakes when either file changes; the interval is only the backstop for a change the watcher missed.
import { closeSync, existsSync, type FSWatcher, openSync, readSync, statSync, watch } from "node:fs";
import { basename } from "node:path";
import type { LedgerRow } from "../ledger/row.ts";
import { openLedger } from "../ledger/store.ts";
import type { Paths } from "../state/paths.ts";
import { type LogEntry, parseEntry } from "./log.ts";

export interface WatchEvent extends LogEntry {
  readonly source: "daemon.log" | "ledger";
}

export interface FollowOptions {
  readonly paths: Paths;
  readonly intervalMs: number;
  readonly onEvent: (e: WatchEvent) => void;
  readonly signal: AbortSignal;
}

function configEvent(row: LedgerRow): WatchEvent {
  const d = row.detail ?? {};
  const file = typeof d.file === "string" ? `: ${d.file}` : "";
  const change = typeof d.before === "string" && typeof d.after === "string" ? `: ${d.before} -> ${d.after}` : "";
  return {
    source: "ledger",
    at: row.occurredAt,
    kind: "config",
    message: `${row.reason ?? row.operation}${file}${change}`,
    eventId: row.id,
  };
}

/** Reads what was appended to a file since `offset`; a file that shrank was rotated, so it is read from its start. */
function appended(path: string, offset: number): { text: string; offset: number } {
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  const from = size < offset ? 0 : offset;
  if (size === from) return { text: "", offset: from };
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(size - from);
    const n = readSync(fd, buf, 0, buf.length, from);
    return { text: buf.subarray(0, n).toString("utf8"), offset: from + n };
  } finally {
    closeSync(fd);
  }
}

/** Follows until `signal` aborts; only what arrives after it starts is reported. */
export function followDaemon(o: FollowOptions): Promise<void> {
  const { paths } = o;
  const seen = new Set<string>();
  let logOffset = statSync(paths.daemonLog, { throwIfNoEntry: false })?.size ?? 0;
  let partial = "";
  let lastSeq: number | undefined;

  const readLog = () => {
    const got = appended(paths.daemonLog, logOffset);
    logOffset = got.offset;
    const lines = (partial + got.text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const e = parseEntry(line);
      if (!e || (e.eventId && seen.has(e.eventId))) continue;
      if (e.eventId) seen.add(e.eventId);
      o.onEvent({ ...e, source: "daemon.log" });
    }
  };
  const readLedger = () => {
    if (!existsSync(paths.db)) return;
    const ledger = openLedger(paths);
    try {
      if (lastSeq === undefined) {
        lastSeq = ledger.tip()?.seq ?? 0;
        return;
      }
      const rows = ledger.select("SELECT * FROM events WHERE kind = 'config' AND seq > ? ORDER BY seq", lastSeq);
      lastSeq = ledger.tip()?.seq ?? lastSeq;
      for (const row of rows) {
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        o.onEvent(configEvent(row));
      }
    } finally {
      ledger.close();
    }
  };
  const look = () => {
    readLog();
    readLedger();
  };
  readLedger();
  return new Promise((resolve) => {
    let watcher: FSWatcher | undefined;
    let soon: ReturnType<typeof setTimeout> | undefined;
    // A busy ledger changes its WAL on every row: one look per burst.
    const wake = () => {
      soon ??= setTimeout(() => {
        soon = undefined;
        look();
      }, 50);
    };
    const names = new Set([basename(paths.daemonLog), basename(paths.db), `${basename(paths.db)}-wal`]);
    try {
      watcher = watch(paths.root, (_e, name) => {
        if (name === null || names.has(String(name))) wake();
      });
    } catch {
      // the interval still looks
    }
    const timer = setInterval(look, o.intervalMs);
    o.signal.addEventListener("abort", () => {
      clearInterval(timer);
      clearTimeout(soon);
      watcher?.close();
      resolve();
    });
  });
}

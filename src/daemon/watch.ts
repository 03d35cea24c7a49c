// What `memnox watch` follows: new lines of daemon.log, and `config` rows that reach the ledger from anywhere.
// It wakes when either file changes; the interval is only the backstop for a change the watcher missed.
import { closeSync, existsSync, type FSWatcher, openSync, readSync, statSync, watch } from "node:fs";
import { basename } from "node:path";
import { configRowsAfter } from "../ledger/read/rows.ts";
import type { LedgerRow } from "../ledger/row.ts";
import { openLedger } from "../ledger/store.ts";
import type { Paths } from "../ports/paths.ts";
import { type LogEntry, parseEntry } from "./log.ts";

interface WatchEvent extends LogEntry {
  readonly source: "daemon.log" | "ledger";
  /** A config row's operation (`hook.restore`, `drift.widened`, …), when the event is one. */
  readonly operation?: string;
  /** What a person reads first: `NEW MCP SERVER`, `HOOK PUT BACK`, `WIDENED`… */
  readonly headline?: string;
  /** Reach widened or something a person should look at (a removed hook, a dormant agent). */
  readonly attention?: boolean;
}

/** The keeper's operations as headlines; `true` marks those that want a look. */
const HEADLINES: Readonly<Record<string, readonly [string, boolean]>> = {
  "mcp.wrap": ["NEW MCP SERVER", true],
  "hook.adopt": ["NEW AGENT HOOKED", true],
  "hook.restore": ["HOOK PUT BACK", true],
  "hook.repoint": ["HOOK REPOINTED", false],
  "session.add": ["SESSION TOOLS ADDED", false],
  "session.restore": ["SESSION TOOLS PUT BACK", false],
  "drift.widened": ["WIDENED", true],
  "drift.narrowed": ["NARROWED", false],
  "agent.dormant": ["DORMANT AGENT", true],
};

/** One event as the terminal shows it. */
export function watchLine(e: WatchEvent): string {
  if (!e.headline) return `${e.at}  ${e.kind.padEnd(8)} ${e.message}`;
  return `${e.at}  ${e.attention ? "⚠" : "·"} ${e.headline}  ${e.message}`;
}

interface FollowOptions {
  readonly paths: Paths;
  readonly intervalMs: number;
  readonly onEvent: (e: WatchEvent) => void;
  readonly signal: AbortSignal;
}

function configEvent(row: LedgerRow): WatchEvent {
  const d = row.detail ?? {};
  const file = typeof d.file === "string" ? `: ${d.file}` : "";
  const change = typeof d.before === "string" && typeof d.after === "string" ? `: ${d.before} -> ${d.after}` : "";
  const [headline, attention] = HEADLINES[row.operation] ?? [];
  return {
    source: "ledger",
    at: row.occurredAt,
    kind: "config",
    message: `${row.reason ?? row.operation}${file}${change}`,
    eventId: row.id,
    operation: row.operation,
    ...(headline ? { headline, attention: attention === true } : {}),
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
  // A ledger that does not exist yet has nothing old in it: every row it gets is news.
  let lastSeq: number | undefined = existsSync(paths.db) ? undefined : 0;

  const readLog = (): LogEntry[] => {
    const got = appended(paths.daemonLog, logOffset);
    logOffset = got.offset;
    const lines = (partial + got.text).split("\n");
    partial = lines.pop() ?? "";
    return lines.flatMap((line) => parseEntry(line) ?? []);
  };
  const readLedger = (): LedgerRow[] => {
    if (!existsSync(paths.db)) return [];
    const ledger = openLedger(paths);
    try {
      if (lastSeq === undefined) {
        lastSeq = ledger.tip()?.seq ?? 0;
        return [];
      }
      const rows = configRowsAfter(ledger, lastSeq);
      lastSeq = ledger.tip()?.seq ?? lastSeq;
      return rows;
    } finally {
      ledger.close();
    }
  };
  const emit = (id: string | undefined, e: WatchEvent) => {
    if (id !== undefined) {
      if (seen.has(id)) return;
      seen.add(id);
    }
    o.onEvent(e);
  };
  // The log first, then the ledger: a log line is written after its row, so its row is already there to say more.
  const look = () => {
    const entries = readLog();
    const rows = readLedger();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const e of entries) {
      const row = e.eventId ? byId.get(e.eventId) : undefined;
      emit(e.eventId, row ? configEvent(row) : { ...e, source: "daemon.log" });
    }
    for (const row of rows) emit(row.id, configEvent(row));
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

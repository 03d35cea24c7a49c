// The notice layer's index of the ledger: what each agent has done, what each session took and how it failed, kept
// beside the rows in the same write transaction, so the gate reads history by an index seek instead of a scan.
//
// It is derived from the rows alone (their `detail.seen`, `detail.taken`, refusals and exit codes), never part of the
// chain: losing it only makes more actions look new. `proceeded` turns 1 when a person's yes (an answer row) lets an
// asked call run, so a learned yes counts as done.
import type { Database } from "bun:sqlite";
import type { LedgerRow } from "./row.ts";

export const NOTICES_DDL = `
CREATE TABLE IF NOT EXISTS notices (
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  agent TEXT,
  session TEXT,
  at TEXT NOT NULL,
  proceeded INTEGER NOT NULL,
  PRIMARY KEY (seq, kind, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS notices_by_key ON notices(kind, key, agent, at);
CREATE INDEX IF NOT EXISTS notices_by_session ON notices(kind, session, at);
CREATE TABLE IF NOT EXISTS notices_since (since TEXT NOT NULL);
INSERT INTO notices_since (since) SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM notices_since);
`;

/** What a decision row says it did, in `detail`: one novelty key a line (`host api.example.com`). */
export const SEEN_FIELD = "seen";
/** What a row says the session took (a secret read, a credential's shape in a result), in words. */
export const TAKEN_FIELD = "taken";

/** Refusals memnox made of a session it already holds are not the session failing again. */
const NOT_FAILURES = new Set(["paused", "error", "stopped"]);

/**
 * Where an agent's own attempts arrive: its hook, the MCP proxy, the governed shell it was given. The seams under
 * them (a PATH interceptor, a git hook) see what one attempt runs, which may repeat a refused program in a loop.
 */
const ATTEMPT_SURFACES = new Set(["hook", "mcp", "shell"]);

type Kind = "done" | "taken" | "failed";

/** The index rows one ledger row adds; called inside the transaction that placed it. */
export function indexNotices(db: Database, row: LedgerRow): void {
  const put = (kind: Kind, key: string, proceeded: boolean, r: Pick<LedgerRow, "agent" | "agentSessionId"> = row) =>
    db
      .query(
        "INSERT OR IGNORE INTO notices (seq, kind, key, agent, session, at, proceeded) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(row.seq, kind, key, r.agent ?? null, r.agentSessionId ?? null, row.occurredAt, proceeded ? 1 : 0);
  const detail = row.detail ?? {};
  const seen = detail[SEEN_FIELD];
  const taken = detail[TAKEN_FIELD];
  if (row.kind === "decision") {
    const ran = row.effect === "allow";
    if (typeof seen === "string") for (const key of seen.split("\n").filter(Boolean)) put("done", key, ran);
    if (typeof taken === "string" && taken && row.agentSessionId) put("taken", taken, ran);
    const source = typeof detail.source === "string" ? detail.source : "";
    if (row.effect === "deny" && row.agentSessionId && !NOT_FAILURES.has(source) && ATTEMPT_SURFACES.has(row.surface))
      put("failed", failureKey("refused", row.operation, row.argsDigest, row.cwd), true);
    return;
  }
  if (row.kind === "state" && typeof taken === "string" && taken && row.agentSessionId) {
    put("taken", taken, true);
    return;
  }
  if (row.kind === "answer" && row.effect === "allow" && row.parent) {
    // A yes in the agent's own prompt: what the asked call did now counts as done.
    db.query("UPDATE notices SET proceeded = 1 WHERE seq = (SELECT seq FROM events WHERE id = ?)").run(row.parent);
    return;
  }
  // The call ran (a yes given in the agent's own prompt ends here too): what it did counts as done.
  if (row.kind === "outcome" && row.parent) {
    db.query(
      "UPDATE notices SET proceeded = 1 WHERE seq = (SELECT seq FROM events WHERE id = ?) AND kind IN ('done', 'taken')",
    ).run(row.parent);
  }
  if (row.kind === "outcome" && row.exitCode !== undefined && row.exitCode !== 0 && row.parent) {
    const parent = db
      .query<
        {
          operation: string;
          args_digest: string | null;
          session: string | null;
          agent: string | null;
          surface: string;
          cwd: string | null;
        },
        [string]
      >("SELECT operation, args_digest, session, agent, surface, cwd FROM events WHERE id = ?")
      .get(row.parent);
    const session = row.agentSessionId ?? parent?.session ?? undefined;
    if (!parent || !session || !ATTEMPT_SURFACES.has(parent.surface)) return;
    const who = { agentSessionId: session, ...(parent.agent ? { agent: parent.agent } : {}) };
    const key = failureKey(
      `exit ${row.exitCode}`,
      parent.operation,
      parent.args_digest ?? undefined,
      parent.cwd ?? undefined,
    );
    put("failed", key, true, who);
  }
}

/** One way of failing: how (an exit code, a refusal), what (the operation), exactly which call (its digest), where. */
function failureKey(how: string, operation: string, argsDigest: string | undefined, cwd?: string): string {
  return `${how} ${operation} ${argsDigest ?? "-"} ${cwd ?? ""}`.trim();
}

/** Index rows of a purged prefix go with it. */
export function dropNoticesThrough(db: Database, seq: number): void {
  db.run("DELETE FROM notices WHERE seq <= ?", [seq]);
}

export interface NoticeRead {
  readonly agent: string | undefined;
  readonly session: string | undefined;
  /** Novelty keys of the call: which of them this agent did (and went ahead with) since `doneSince`. */
  readonly keys: readonly string[];
  readonly doneSince: string;
  /** What the session took since then. */
  readonly takenSince: string;
}

export interface NoticeHistory {
  /** When the index began: a ledger from before it has history the index never saw. */
  readonly since: string | undefined;
  readonly done: readonly string[];
  /** Newest first, at most three. */
  readonly taken: readonly { readonly what: string; readonly at: string }[];
}

/** One read for one call: a seek per key, one range on the session. */
export function readNotices(db: Database, q: NoticeRead): NoticeHistory {
  const since = db.query<{ since: string }, []>("SELECT since FROM notices_since LIMIT 1").get()?.since;
  const one = db.query<{ x: number }, [string, string | null, string]>(
    "SELECT 1 AS x FROM notices WHERE kind = 'done' AND key = ? AND agent IS ? AND at >= ? AND proceeded = 1 LIMIT 1",
  );
  const done = q.keys.filter((k) => one.get(k, q.agent ?? null, q.doneSince) !== null);
  const taken = q.session
    ? db
        .query<{ what: string; at: string }, [string, string]>(
          "SELECT key AS what, at FROM notices WHERE kind = 'taken' AND session = ? AND at >= ? AND proceeded = 1 ORDER BY at DESC LIMIT 3",
        )
        .all(q.session, q.takenSince)
    : [];
  return { since, done, taken };
}

/** Instants of a session's failures of one kind since `sinceIso`, newest first, at most `limit`. */
export function readFailures(db: Database, session: string, key: string, sinceIso: string, limit: number): string[] {
  return db
    .query<{ at: string }, [string, string, string, number]>(
      "SELECT at FROM notices WHERE kind = 'failed' AND session = ? AND key = ? AND at >= ? ORDER BY at DESC LIMIT ?",
    )
    .all(session, key, sinceIso, limit)
    .map((r) => r.at);
}

/** The failure notice the row `eventId` wrote, if it wrote one: its key, session and agent. */
export function failureNoticeOf(
  db: Database,
  eventId: string,
): { readonly key: string; readonly session: string | null; readonly agent: string | null } | undefined {
  return (
    db
      .query<{ key: string; session: string | null; agent: string | null }, [string]>(
        "SELECT n.key, n.session, n.agent FROM notices n JOIN events e ON e.seq = n.seq WHERE e.id = ? AND n.kind = 'failed' LIMIT 1",
      )
      .get(eventId) ?? undefined
  );
}

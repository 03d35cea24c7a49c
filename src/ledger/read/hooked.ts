// Which agent session a proxied MCP call came from: the agent's own hook recorded the same call just before it.
import type { Ledger } from "../store.ts";

interface HookedCall {
  readonly session: string;
  readonly agent: string | null;
}

/**
 * The session of the newest hook decision on `action` at or after `sinceIso`, preferring one whose keyed args digest
 * is the call's own; undefined when no hook saw the call (the agent has no memnox hook, or is not hooked for MCP).
 */
export function hookedCallSession(
  ledger: Ledger,
  action: string,
  sinceIso: string,
  argsDigest: string,
): HookedCall | undefined {
  const row = ledger.db
    .query<{ session: string; agent: string | null }, [string, string, string]>(
      `SELECT session, agent FROM events
       WHERE kind = 'decision' AND surface = 'hook' AND operation = ? AND session IS NOT NULL AND occurred_at >= ?
       ORDER BY (args_digest = ?) DESC, seq DESC LIMIT 1`,
    )
    .get(action, sinceIso, argsDigest);
  return row ? { session: row.session, agent: row.agent } : undefined;
}

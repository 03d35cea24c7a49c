// The part of GateDeps every decide() test shares: holds on disk under `pending`, rows kept in memory.
import type { EventInput } from "../../src/core/event.ts";
import type { Verdict } from "../../src/core/verdict.ts";
import type { GateDeps } from "../../src/gate/deps.ts";
import { clearCalls, clearedCall, handedDown } from "../../src/state/cleared.ts";
import { createHold, fingerprint, grantFor, spendGrant } from "../../src/state/pending.ts";

type Recording = Pick<
  GateDeps,
  | "grant"
  | "spendGrant"
  | "clearedCall"
  | "clearCalls"
  | "handedDown"
  | "createHold"
  | "record"
  | "digest"
  | "keepRuleSet"
  | "holdTtlMs"
>;

export function recordingDeps(pending: string): Recording & { rows: EventInput[] } {
  const rows: EventInput[] = [];
  return {
    rows,
    grant: (parts, session, now) => grantFor(pending, fingerprint(parts), session, now),
    spendGrant: (hold, now) => spendGrant(pending, hold, now),
    clearedCall: (session, call, now) => clearedCall(pending, session, call, now),
    clearCalls: (session, calls, now) => clearCalls(pending, session, calls, now),
    handedDown: (token, _cwd, now) => handedDown(pending, token, now),
    createHold: (input) => createHold(pending, input),
    record: (e) => {
      rows.push(e);
      return `evt_${rows.length}`;
    },
    digest: (raw) => `d:${raw.length}`,
    keepRuleSet: () => {},
    holdTtlMs: 3_600_000,
  };
}

/** What the engine answers when no rule matches: ungoverned, and it proceeds. */
export const UNGOVERNED: Verdict = {
  effect: "allow",
  governed: false,
  reason: "ungoverned",
  matched: [],
  observeOnly: false,
  argumentMatches: [],
};

// commit(ruling, store): the writes a ruling names, in one fixed order. The grant or code it rests on is spent first
// (a compare-and-set): if another call spent it in the meantime nothing is written and the call is judged again.
// Then the rule set, the row, the marks for the next seams, the leases, the hold, the refusal's code.
import type { GateDeps } from "./deps.ts";
import type { Ruling } from "./judge.ts";
import type { GateAnswer } from "./types.ts";

export type GateStore = Pick<
  GateDeps,
  | "spendGrant"
  | "takeAllowOnce"
  | "keepRuleSet"
  | "record"
  | "clearCalls"
  | "takeLeases"
  | "createHold"
  | "issueAllowOnce"
>;

/** The answer with its row, hold and code named; undefined when the grant or code was spent by another call first. */
export function commit(r: Ruling, store: GateStore): GateAnswer | undefined {
  const now = r.nowMs;
  if (r.spend && "grant" in r.spend && !store.spendGrant(r.spend.grant, now)) return undefined;
  if (r.spend && "code" in r.spend && !store.takeAllowOnce?.(r.spend.code)) return undefined;
  if (r.keep) store.keepRuleSet(r.keep);
  const eventId = r.row ? store.record(r.row) : undefined;
  const named = eventId ? { decisionEventId: eventId } : {};
  if (r.clear)
    store.clearCalls(
      r.clear.session,
      r.clear.calls.map((c) => ({ ...c, ...named })),
      now,
    );
  if (r.leases) store.takeLeases?.(r.leases.paths, { session: r.leases.session, agent: r.leases.agent }, now);
  const holdId = r.hold ? store.createHold({ ...r.hold, decisionEventId: eventId }).id : undefined;
  const allowOnce = r.issue ? store.issueAllowOnce?.({ ...r.issue, decisionEventId: eventId }) : undefined;
  return {
    ...r.answer,
    ...(allowOnce ? { allowOnce } : {}),
    ...(eventId ? { eventId } : {}),
    ...(holdId ? { holdId } : {}),
  };
}

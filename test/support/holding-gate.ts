// A gate for tests while the real one is not built: answers by action name, asks through the real hold store.
import type { GateAnswer, GateRequest, GateServices, HoldOutcome, Outcome } from "../../src/gate/types.ts";
import { claimGrant, createHold, effectiveStatus, fingerprint, readHold } from "../../src/state/pending.ts";

export type Rule = Pick<GateAnswer, "effect"> & Partial<Omit<GateAnswer, "effect">>;

export interface ScriptedGate extends GateServices {
  readonly requests: GateRequest[];
  readonly outcomes: { eventId: string; outcome: Outcome }[];
  readonly wary: { session: string; reason: string }[];
  /** Resolves once every outcome and wary mark so far has been written. */
  recorded(count: number): Promise<void>;
}

/**
 * Answers by action name from `rules` (allow when none). An `ask` writes a real hold under `pendingDir`, so
 * `memnox approve` from another process answers it; awaitHold watches that file.
 */
export function scriptedGate(pendingDir: string, rules: Record<string, Rule> = {}): ScriptedGate {
  const requests: GateRequest[] = [];
  const outcomes: ScriptedGate["outcomes"] = [];
  const wary: ScriptedGate["wary"] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const note = () => {
    for (const w of waiters.splice(0)) {
      if (outcomes.length + wary.length >= w.count) w.resolve();
      else waiters.push(w);
    }
  };
  return {
    requests,
    outcomes,
    wary,
    recorded: (count) =>
      new Promise((resolve) => {
        waiters.push({ count, resolve });
        note();
      }),
    async decide(req) {
      requests.push(req);
      const name = req.action?.name ?? "";
      const rule = rules[name] ?? { effect: "allow", reason: "ungoverned" };
      const eventId = `ev_${requests.length}`;
      const base = { enforceEffect: rule.effect, mode: "enforce" as const, reason: "", actions: [], stopped: false };
      if (rule.effect !== "ask") return { ...base, eventId, ...rule };
      const fp = fingerprint({ action: name });
      const granted = claimGrant(pendingDir, fp, req.session, Date.now());
      if (granted) return { ...base, ...rule, effect: "allow", eventId, reason: `approved (${granted.id})` };
      const hold = createHold(pendingDir, {
        action: name,
        surface: "mcp",
        reason: rule.reason ?? "asks",
        decisionEventId: eventId,
        nowMs: Date.now(),
        ttlMs: 60_000,
      });
      return { ...base, ...rule, eventId, holdId: hold.id };
    },
    async awaitHold(holdId, signal): Promise<HoldOutcome> {
      for (;;) {
        if (signal?.aborted) return "unattended";
        const hold = readHold(pendingDir, holdId);
        const status = hold ? effectiveStatus(hold, Date.now()) : "unattended";
        if (status !== "waiting") return status;
        await Bun.sleep(20);
      }
    },
    async recordOutcome(eventId, outcome) {
      outcomes.push({ eventId, outcome });
      note();
    },
    async recordAnswer() {},
    async recordSession() {},
    async recordForgedOutcome() {},
    async briefing() {
      return { mode: "enforce", rules: [] };
    },
    async pauseSession() {},
    async markWary(session, reason) {
      wary.push({ session, reason });
      note();
    },
  };
}

// One afternoon as the gate records it: a failed push retried, a frozen refusal, asks, observe mode, a config row.
import type { EventInput } from "../../src/core/event.ts";
import type { Ledger } from "../../src/ledger/store.ts";
import { at, decision, outcome, request } from "./helpers.ts";

export const FREEZE = {
  kind: "freeze",
  subject: "payments",
  expiresAt: at(2 * 3_600_000),
  reason: "troubleshooting",
  by: "moise",
};

export interface Scenario {
  readonly ids: Record<string, string>;
}

export function writeScenario(ledger: Ledger): Scenario {
  const ids: Record<string, string> = {};
  ledger.putRuleSet("p".repeat(64), [{ path: "/repo/memnox.policies.toml", text: "# rules\n", hash: "f".repeat(64) }]);
  let t = 0;
  const next = () => {
    t += 10_000;
    return at(t - 600_000);
  };
  const add = (name: string, e: EventInput) => {
    ids[name] = ledger.append(e).id;
    return ids[name] ?? "";
  };
  const a = { session: "ses_a", agent: "claude-code" };
  const test1 = add("test", decision({ ...a, occurredAt: next(), operation: "npm.test", classes: ["read"] }));
  add("testOut", outcome(test1, { ...a, occurredAt: next(), operation: "npm.test" }));
  const push1 = add("push", decision({ ...a, occurredAt: next(), argsDigest: "d1".repeat(32) }));
  add("pushOut", outcome(push1, { ...a, occurredAt: next(), exitCode: 1, durationMs: 2300 }));
  add("config", {
    kind: "config",
    occurredAt: next(),
    surface: "config",
    operation: "memnox.config",
    reason: "mode set to enforce by moise",
  });
  const push2 = add("pushAgain", decision({ ...a, occurredAt: next(), argsDigest: "d1".repeat(32) }));
  add("pushAgainOut", outcome(push2, { ...a, occurredAt: next(), exitCode: 0 }));
  add(
    "force",
    decision({
      ...a,
      occurredAt: next(),
      operation: "git.push-force",
      classes: ["destructive"],
      effect: "deny",
      enforceEffect: "deny",
      reason: "no force pushes while payments is frozen",
      ruleId: "no-force-while-frozen",
      ruleLine: 12,
      alternative: { action: "git.push", note: "push without --force" },
      request: request({
        action: "git.push-force",
        class: "destructive",
        facts: [FREEZE],
        argumentMatches: [{ rule: "no-force-while-frozen", argument: "ref", pattern: "main*" }],
      }),
    }),
  );
  const merge = add(
    "merge",
    decision({
      ...a,
      occurredAt: next(),
      operation: "gh.pr-merge",
      classes: ["communication"],
      effect: "ask",
      enforceEffect: "ask",
      reason: "a merge is somebody's review",
      ruleId: "ask-merge",
    }),
  );
  add("mergeAnswer", {
    kind: "answer",
    occurredAt: next(),
    surface: "shell",
    operation: "gh.pr-merge",
    ...a,
    parent: merge,
    effect: "deny",
    detail: { by: "moise", via: "terminal" },
  });
  add(
    "rm",
    decision({
      ...a,
      occurredAt: next(),
      operation: "filesystem.delete",
      classes: ["destructive"],
      effect: "ask",
      enforceEffect: "ask",
      reason: "deleting files asks",
      ruleId: "ask-delete",
    }),
  );
  const b = { session: "ses_b", agent: "codex" };
  const curl = add(
    "observed",
    decision({
      ...b,
      occurredAt: next(),
      operation: "http.request",
      classes: ["communication"],
      resourceRef: "evil.example",
      effect: "allow",
      enforceEffect: "deny",
      mode: "observe",
      reason: "unknown hosts are refused",
      ruleId: "deny-unknown-hosts",
    }),
  );
  add("observedOut", outcome(curl, { ...b, occurredAt: next(), operation: "http.request" }));
  return { ids };
}

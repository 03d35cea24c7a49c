// Rows as the gate writes them, and a ledger on a fake home, for the ledger's tests.
import type { EventInput, RecordedRequest } from "../../src/core/event.ts";
import { type Ledger, openLedger } from "../../src/ledger/store.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import { type FakeHome, fakeHome } from "../support/index.ts";

export const T0 = Date.parse("2026-11-30T12:00:00.000Z");

export function at(offsetMs: number): string {
  return new Date(T0 + offsetMs).toISOString();
}

export function request(over: Partial<RecordedRequest> = {}): RecordedRequest {
  return {
    action: "git.push",
    class: "write",
    targets: ["main"],
    cwd: "/repo",
    scope: "undeclared",
    facts: [],
    argumentMatches: [],
    ruleFiles: ["/repo/memnox.policies.toml"],
    ...over,
  };
}

export function decision(over: Partial<EventInput> = {}): EventInput {
  return {
    kind: "decision",
    occurredAt: at(0),
    surface: "shell",
    operation: "git.push",
    classes: ["write"],
    session: "ses_one",
    agent: "claude-code",
    resourceRef: "main",
    effect: "allow",
    enforceEffect: "allow",
    mode: "enforce",
    governed: true,
    reason: "pushing is fine",
    ruleId: "allow-push",
    ruleFile: "/repo/memnox.policies.toml",
    ruleLine: 3,
    argsDigest: "a".repeat(64),
    policyHash: "p".repeat(64),
    cwd: "/repo",
    request: request(),
    ...over,
  };
}

export function outcome(parent: string, over: Partial<EventInput> = {}): EventInput {
  return {
    kind: "outcome",
    occurredAt: at(1000),
    surface: "shell",
    operation: "git.push",
    session: "ses_one",
    agent: "claude-code",
    exitCode: 0,
    durationMs: 412,
    parent,
    ...over,
  };
}

export interface LedgerHome extends FakeHome {
  readonly ledger: Ledger;
  readonly paths: ReturnType<typeof memnoxPaths>;
}

/** A fake home with an open ledger at its paths.db; closed and removed on dispose. */
export function ledgerHome(): LedgerHome {
  const home = fakeHome();
  const paths = memnoxPaths(home.env());
  const ledger = openLedger(paths);
  const dispose = () => {
    ledger.close();
    home[Symbol.dispose]();
  };
  return { ...home, ledger, paths, [Symbol.dispose]: dispose, [Symbol.asyncDispose]: async () => dispose() };
}

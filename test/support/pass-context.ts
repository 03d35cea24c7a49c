// A PassContext that collects what a keeping pass records, logs and notices, on a real in-process Context.
import type { ConfigChange, PassContext } from "../../src/daemon/passes.ts";
import type { FakeHome } from "./home.ts";
import { type TestContextOptions, testContext } from "./home.ts";

export interface CollectedPass {
  readonly pc: PassContext;
  readonly changes: ConfigChange[];
  readonly notices: { kind: string; body: string }[];
  readonly logs: string[];
  readonly clock: { advance(ms: number): void; now(): number };
}

export function collectingPass(home: FakeHome, opts: TestContextOptions = {}): CollectedPass {
  const { ctx, clock } = testContext(home, opts);
  const changes: ConfigChange[] = [];
  const notices: { kind: string; body: string }[] = [];
  const logs: string[] = [];
  const pc: PassContext = {
    ctx,
    trigger: "change",
    changed: [],
    log: (kind, message) => logs.push(`${kind} ${message}`),
    recordChange: (c) => {
      changes.push(c);
      return undefined;
    },
    notice: (kind, body) => notices.push({ kind, body }),
  };
  return { pc, changes, notices, logs, clock };
}

// Every agent through the same scenarios: fixtures/hooks/<agent>/<event>/<scenario>.json hold the payload, the
// scripted gate answer and the exact bytes and exit code the agent must get; each answer is also checked against
// what that agent accepts (agent-schemas.ts), since fixtures we write ourselves prove only what we believed.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { AGENTS } from "../hooks/types.ts";
import type { FailurePosture } from "../src/gate/posture.ts";
import { handleHook } from "../src/seams/hook/handle.ts";
import { noticeFile, readNotice } from "../src/seams/hook/notice.ts";
import { answerProblems, payloadProblems } from "./support/agent-schemas.ts";
import { expectedStdout, type HookFixture, loadFixtures } from "./support/hook-fixtures.ts";
import { fakeHome, testContext } from "./support/index.ts";
import { scriptedGate } from "./support/scripted-gate.ts";

const SHARED = ["deny-force-push", "ask-delete", "allow-read", "stopped", "parse-failure-enforce"];

const ENFORCE: FailurePosture = { mode: "enforce", failOpen: false, stopped: false };
const home = fakeHome();
afterAll(() => home[Symbol.dispose]());
const fixtures = loadFixtures();

describe("hook fixtures", () => {
  test("every agent has the shared scenarios", () => {
    for (const agent of AGENTS) {
      const mine = fixtures.filter((f) => f.agent === agent).map((f) => f.fx.scenario);
      for (const s of SHARED) expect(mine, `${agent} lacks ${s}`).toContain(s);
    }
  });

  for (const { agent, event, fx } of fixtures) {
    test(`${agent} ${event} ${fx.scenario}`, async () => {
      const gate = scriptedGate({ answers: fx.gate, ...(fx.briefing ? { briefing: fx.briefing } : {}) });
      const stdin = fx.stdin ?? JSON.stringify(fx.payload);
      const { ctx, io } = testContext(home, { args: fx.args ?? [agent, event], stdin });
      if (fx.notice) seedNotice(ctx.paths.notice, fx.notice.session, fx.notice.calls);
      const code = await handleHook(ctx, { gate: () => gate, posture: async () => fx.posture ?? ENFORCE });

      expect(io.stdout()).toBe(expectedStdout(fx.expect.stdout));
      expect(code).toBe(fx.expect.exitCode);
      if (fx.expect.stderr) expect(io.stderr()).toContain(fx.expect.stderr);
      expect(gate.requests()).toMatchObject([...fx.expect.requests]);
      if (fx.expect.calls) {
        const records = gate.calls.filter((c) => c.method !== "decide" && c.method !== "briefing");
        expect(records).toMatchObject([...fx.expect.calls]);
      }
      if (fx.expect.notice) checkNotice(ctx.paths.notice, fx, fx.expect.notice);
      expect(answerProblems(agent, event, io.stdout(), code)).toEqual([]);
      if (fx.payload !== undefined) expect(payloadProblems(agent, event, fx.payload)).toEqual([]);
    });
  }
});

function seedNotice(dir: string, session: string, calls: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(noticeFile(dir, session), JSON.stringify({ version: 1, said: [], calls }));
}

function checkNotice(dir: string, fx: HookFixture, want: Record<string, { eventIds: string[]; asked?: boolean }>) {
  const p = fx.payload as { session_id?: string; sessionId?: string; sessionID?: string };
  const session = p.session_id ?? p.sessionId ?? p.sessionID ?? "";
  const calls = readNotice(noticeFile(dir, session)).calls;
  expect(Object.keys(calls).sort()).toEqual(Object.keys(want).sort());
  for (const [key, w] of Object.entries(want)) {
    expect(calls[key]?.eventIds).toEqual(w.eventIds);
    expect(calls[key]?.asked !== undefined).toBe(w.asked === true);
    // Raw call arguments never reach the disk.
    for (const a of calls[key]?.asked?.actions ?? []) expect(a.arguments).toEqual({});
  }
}

// The hook face around the adapters: failures answer as the mode says, reminders keep their budget across calls,
// an asked call's outcome turns into the person's recorded yes, and the posture is read from the real files.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import type { FailurePosture } from "../src/gate/posture.ts";
import { failurePosture } from "../src/gate/posture-read.ts";
import type { Briefing, GateServices } from "../src/gate/types.ts";
import { handleHook } from "../src/seams/hook/handle.ts";
import { noticeFile, readNotice } from "../src/seams/hook/notice.ts";
import { fakeHome, testContext } from "./support/index.ts";
import { scriptedGate } from "./support/scripted-gate.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

const ENFORCE: FailurePosture = { mode: "enforce", failOpen: false, stopped: false };
const OBSERVE: FailurePosture = { mode: "observe", failOpen: false, stopped: false };

function pre(command: string, session: string, toolUseId: string, promptId = "p1") {
  return JSON.stringify({
    session_id: session,
    cwd: "/home/dev/project",
    prompt_id: promptId,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: toolUseId,
  });
}

async function hook(args: string[], stdin: string, gate: () => GateServices, posture = ENFORCE) {
  const { ctx, io } = testContext(home, { args, stdin });
  const code = await handleHook(ctx, { gate, posture: async () => posture });
  return { code, out: io.stdout(), err: io.stderr(), ctx };
}

describe("when memnox fails before the gate answers", () => {
  const notBuilt = () => {
    throw new Error("the gate is not built yet");
  };

  test("a gate that cannot be built refuses in enforce, in the agent's own deny format", async () => {
    const r = await hook(["claude-code", "PreToolUse"], pre("ls", "s-fail", "t1"), notBuilt);
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.out).hookSpecificOutput;
    expect(answer.permissionDecision).toBe("deny");
    expect(answer.permissionDecisionReason).toContain("could not rule on it: the gate is not built yet");
    expect(r.err).toContain("refused (enforce)");
  });

  test("the same failure lets the call through in observe, saying so on stderr only", async () => {
    const r = await hook(["claude-code", "PreToolUse"], pre("ls", "s-fail", "t1"), notBuilt, OBSERVE);
    expect([r.code, r.out]).toEqual([0, ""]);
    expect(r.err).toContain("let through (observe)");
  });

  test("failOpen or a stopped machine lets it through even in enforce", async () => {
    for (const p of [
      { ...ENFORCE, failOpen: true },
      { ...ENFORCE, stopped: true },
    ]) {
      const r = await hook(["codex", "PreToolUse"], "{", notBuilt, p);
      expect([r.code, r.out]).toEqual([0, "{}\n"]);
    }
  });

  test("a session start never blocks: a failure there says nothing to the agent", async () => {
    const start = JSON.stringify({ session_id: "s", cwd: "/x", hook_event_name: "SessionStart", source: "startup" });
    const r = await hook(["claude-code", "SessionStart"], start, notBuilt);
    expect([r.code, r.out]).toEqual([0, ""]);
  });

  test("an unknown agent blocks with exit 2 in enforce and lets through in observe", async () => {
    const gate = () => scriptedGate();
    expect((await hook(["copilot", "PreToolUse"], "{}", gate)).code).toBe(2);
    const observed = await hook(["copilot", "PreToolUse"], "{}", gate, OBSERVE);
    expect([observed.code, observed.out]).toEqual([0, ""]);
    expect(observed.err).toContain("unknown agent `copilot`");
  });
});

describe("decision reminders across calls", () => {
  const briefing: Briefing = {
    mode: "enforce",
    rules: [
      {
        name: "tests-ok",
        effect: "allow",
        actions: ["npm.test"],
        targets: [],
        reason: "tests are safe",
        observeOnly: false,
        source: "repository",
      },
      {
        name: "lint-ok",
        effect: "allow",
        actions: ["npm.run"],
        targets: [],
        reason: "lint is safe",
        observeOnly: false,
        source: "repository",
      },
      {
        name: "builds-ok",
        effect: "allow",
        actions: ["make.build"],
        targets: [],
        reason: "builds are safe",
        observeOnly: false,
        source: "repository",
      },
    ],
  };
  const allowBy = (name: string) => ({
    effect: "allow" as const,
    reason: "ok",
    rule: { name, file: "m.toml", line: 1 },
  });

  test("each decision is said once a session, and no more than two in a turn", async () => {
    const gate = scriptedGate({
      briefing,
      answers: [
        allowBy("tests-ok"),
        allowBy("tests-ok"),
        allowBy("lint-ok"),
        allowBy("builds-ok"),
        allowBy("builds-ok"),
      ],
    });
    const said = async (cmd: string, id: string, turn: string) => {
      const r = await hook(["claude-code", "PreToolUse"], pre(cmd, "s-remind", id, turn), () => gate);
      return r.out ? (JSON.parse(r.out).hookSpecificOutput.additionalContext as string) : "";
    };
    expect(await said("npm test", "t1", "p1")).toContain("covers npm test");
    expect(await said("npm test", "t2", "p1")).toBe("");
    expect(await said("npm run lint", "t3", "p1")).toContain("covers npm run");
    expect(await said("make build", "t4", "p1")).toBe("");
    expect(await said("make build", "t5", "p2")).toContain("covers make build");
  });

  test("a rule with nothing to remind of is looked up once a session, not on every call it allows", async () => {
    const everyRead = {
      name: "reads-allowed",
      effect: "allow" as const,
      // More patterns than a reminder names: a rule this general is never said beside one call.
      actions: Array.from({ length: 13 }, (_, i) => (i === 0 ? "git.status" : `tool${i}.read`)),
      targets: [],
      reason: "reading changes nothing",
      observeOnly: false,
      source: "machine" as const,
    };
    const gate = scriptedGate({
      briefing: { ...briefing, rules: [everyRead] },
      answers: [allowBy("reads-allowed"), allowBy("reads-allowed"), allowBy("reads-allowed")],
    });
    const briefings = () => gate.calls.filter((c) => c.method === "briefing").length;
    for (const id of ["r1", "r2", "r3"]) {
      const r = await hook(["claude-code", "PreToolUse"], pre("git status", "s-quiet", id, "p1"), () => gate);
      expect(r.out).not.toContain("additionalContext");
    }
    expect(briefings()).toBe(1);
  });
});

describe("a yes given in Claude Code's own prompt", () => {
  test("the asked call is kept by tool_use_id, and its PostToolUse records the person's answer, then the outcome", async () => {
    const gate = scriptedGate({ answers: [{ effect: "ask", reason: "deletes ask", eventId: "evt_9" }] });
    const asked = await hook(["claude-code", "PreToolUse"], pre("rm -rf build", "s-yes", "toolu_9"), () => gate);
    expect(JSON.parse(asked.out).hookSpecificOutput.permissionDecision).toBe("ask");
    const post = JSON.stringify({
      ...JSON.parse(pre("rm -rf build", "s-yes", "toolu_9")),
      hook_event_name: "PostToolUse",
      tool_response: { stdout: "", stderr: "", interrupted: false, isImage: false },
      duration_ms: 7,
    });
    const done = await hook(["claude-code", "PostToolUse"], post, () => gate);
    expect([done.code, done.out]).toEqual([0, ""]);
    expect(gate.calls.filter((c) => c.method !== "decide")).toMatchObject([
      {
        method: "recordAnswer",
        answer: { eventId: "evt_9", effect: "ask" },
        request: { command: "rm -rf build", agent: "claude-code", session: "s-yes" },
        reply: { grant: true, scope: "once", via: "agent-prompt" },
      },
      { method: "recordOutcome", eventId: "evt_9", outcome: { exitCode: 0, durationMs: 7 } },
    ]);
    expect(readNotice(noticeFile(asked.ctx.paths.notice, "s-yes")).calls).toEqual({});
  });

  test("an outcome nobody is waiting for writes nothing and records nothing", async () => {
    const gate = scriptedGate();
    const post = JSON.stringify({ ...JSON.parse(pre("ls", "s-none", "t")), hook_event_name: "PostToolUse" });
    const r = await hook(["claude-code", "PostToolUse"], post, () => gate);
    expect([r.code, r.out, gate.calls]).toEqual([0, "", []]);
    expect(existsSync(noticeFile(r.ctx.paths.notice, "s-none"))).toBe(false);
  });
});

describe("failure posture from the files on disk", () => {
  test("no config is a first run in observe; the config's mode and failOpen are read; a stop is seen", async () => {
    const h = fakeHome();
    try {
      const { ctx } = testContext(h);
      expect(await failurePosture(ctx)).toEqual({ mode: "observe", failOpen: false, stopped: false });
      mkdirSync(ctx.paths.root, { recursive: true });
      writeFileSync(ctx.paths.config, 'mode = "enforce"\nfailOpen = true\n');
      expect(await failurePosture(ctx)).toEqual({ mode: "enforce", failOpen: true, stopped: false });
      const until = new Date(ctx.clock.now() + 60_000).toISOString();
      writeFileSync(ctx.paths.stop, JSON.stringify({ stoppedAt: until, until, by: "sam", mode: "enforce" }));
      expect((await failurePosture(ctx)).stopped).toBe(true);
    } finally {
      h[Symbol.dispose]();
    }
  });

  test("a config that will not parse leaves the mode unknown, which fails closed", async () => {
    const h = fakeHome({ ".memnox/config.toml": "mode = \n" });
    try {
      const p = await failurePosture(testContext(h).ctx);
      expect([p.mode, p.failOpen]).toEqual(["enforce", false]);
      expect(p.note).toContain("config.toml");
    } finally {
      h[Symbol.dispose]();
    }
  });
});

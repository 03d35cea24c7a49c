import { describe, expect, test } from "bun:test";
import type { Ancestry, ProcessInfo } from "../ports/index.ts";
import { agentProgram, hookByHand, memnoxFace, seatOf } from "./seat.ts";

const self = { exe: "/home/u/.memnox/app/memnox" };
const p = (pid: number, ppid: number, argv: string[], more: Partial<ProcessInfo> = {}): ProcessInfo => ({
  pid,
  ppid,
  comm: (argv[0] ?? "").split("/").pop() ?? "",
  argv,
  sid: 100,
  tty: 34816,
  ...more,
});
const chain = (...c: ProcessInfo[]): Ancestry => ({ chain: c, complete: true });
const login = p(100, 1, ["-bash"], { sid: 100 });
const memnox = (pid: number, ppid: number, args: string[], argv0 = "memnox") =>
  p(pid, ppid, [argv0, ...args], { exe: self.exe, comm: "memnox" });

describe("a person's terminal or an agent's seat", () => {
  test("a person's shell, nothing above it but a login", () => {
    expect(seatOf({}, chain(memnox(300, 100, ["stop"]), login), self).kind).toBe("person");
  });

  test("an agent program anywhere above, by name or by its package under an interpreter", () => {
    for (const agent of [
      p(200, 100, ["claude", "-p", "x"]),
      p(200, 100, ["/usr/bin/node", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js"]),
      p(200, 100, ["codex"]),
    ]) {
      const s = seatOf(
        {},
        chain(memnox(300, 250, ["stop"]), p(250, 200, ["bash", "-c", "memnox stop"]), agent, login),
        self,
      );
      expect(s.kind).toBe("agent");
      expect(s.why).toContain("an agent runs it");
    }
  });

  test("a memnox seam above (the governed shell, run) is an agent's seat; a person's memnox CLI is not", () => {
    for (const [face, proc] of [
      ["shell", memnox(250, 100, ["-c", "x"], "/home/u/.memnox/bin/memnox-bash")],
      ["run", memnox(250, 100, ["run", "--", "bash"])],
    ] as const) {
      const s = seatOf({}, chain(memnox(300, 250, ["stop"]), proc, login), self);
      expect(s).toEqual({ kind: "agent", why: expect.stringContaining(`inside a memnox ${face}`) });
    }
    expect(seatOf({}, chain(memnox(300, 250, ["stop"]), memnox(250, 100, ["status"]), login), self).kind).toBe(
      "person",
    );
  });

  test("an interceptor above stands in front of whoever called it: a person's own git's hook is the person's", () => {
    const git = memnox(250, 100, ["commit"], "git");
    const hook = p(260, 250, ["/bin/sh", ".git/hooks/pre-commit"]);
    expect(seatOf({}, chain(memnox(300, 260, ["x"], "rm"), hook, git, login), self).kind).toBe("person");
    // The same under an agent: the agent above decides.
    const agent = p(200, 100, ["claude"]);
    const under = memnox(250, 200, ["commit"], "git");
    expect(seatOf({}, chain(memnox(300, 260, ["x"], "rm"), hook, under, agent, login), self).kind).toBe("agent");
  });

  test("a variable an agent or a seam sets says agent; unsetting it changes nothing the ancestry says", () => {
    expect(seatOf({ CLAUDECODE: "1" }, undefined, self).kind).toBe("agent");
    expect(seatOf({ MEMNOX_SESSION: "ses_x" }, undefined, self).kind).toBe("agent");
    expect(seatOf({}, undefined, self).kind).toBe("person");
  });

  test("left running on its own, with no terminal, or outside the session it came from", () => {
    const orphan = memnox(300, 1, ["stop"], "memnox");
    expect(seatOf({}, chain({ ...orphan, tty: 0, sid: 300 }), self).why).toContain("left running on its own");
    // On a terminal, but the terminal's session leader is not above it.
    expect(seatOf({}, chain({ ...memnox(300, 1, ["stop"]), sid: 100 }), self).why).toContain(
      "outside the terminal session",
    );
    expect(seatOf({}, { chain: [memnox(300, 250, ["stop"])], complete: false }, self).kind).toBe("agent");
  });
});

describe("a hook face run by hand", () => {
  test("Claude Code's tools say so in AI_AGENT, its own hooks do not", () => {
    expect(hookByHand({ AI_AGENT: "claude-code_2-1-197_agent" }, undefined, self)).toBeDefined();
    expect(hookByHand({ AI_AGENT: "claude-code_2-1-197_harness" }, undefined, self)).toBeUndefined();
  });

  test("a memnox seam between it and the nearest agent; an agent nested under a seam still records its own hooks", () => {
    const claude = p(200, 100, ["claude"]);
    const shell = memnox(250, 200, ["-c", "x"], "memnox-bash");
    expect(
      hookByHand({}, chain(memnox(300, 250, ["hook", "claude-code", "PostToolUse"]), shell, claude), self),
    ).toContain("inside a memnox shell");
    const nested = p(260, 250, ["claude"]);
    expect(
      hookByHand({}, chain(memnox(300, 260, ["hook", "claude-code", "PostToolUse"]), nested, shell, claude), self),
    ).toBeUndefined();
  });

  test("names and faces", () => {
    expect(agentProgram(p(1, 0, ["/opt/claude.exe"]))).toBe("claude");
    expect(agentProgram(p(1, 0, ["vim"]))).toBeUndefined();
    expect(memnoxFace(memnox(1, 0, ["hook", "codex"]), self)).toBe("hook");
    expect(memnoxFace(p(1, 0, ["git"], { exe: "/usr/bin/git" }), self)).toBeUndefined();
  });
});

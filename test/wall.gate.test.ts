// The gate's part of an untrusted session: outward and destructive actions ask, the proxy passes only registries and
// the agent's model provider, and a seam inside the wall is refused what it would be asked, never left holding.
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import type { Action } from "../src/core/action.ts";
import type { StateFact } from "../src/core/request.ts";
import { decide } from "../src/gate/decide.ts";
import type { GateDeps } from "../src/gate/deps.ts";
import { evaluateRequest, gateRequestOf } from "../src/gate/remote/evaluate.ts";
import type { GateRequest } from "../src/gate/types.ts";
import { tempDir } from "./support/fs.ts";
import { recordingDeps, UNGOVERNED } from "./support/gate-deps.ts";

const dir = tempDir("memnox-wall-gate");
afterAll(() => dir[Symbol.dispose]());
const NOW = Date.parse("2026-11-30T12:00:00.000Z");
const LATER = new Date(NOW + 3_600_000).toISOString();

const fact = (kind: string, subject: string): StateFact => ({ kind, subject, expiresAt: LATER });
const UNTRUSTED = [fact("untrusted", "s1"), fact("untrusted-host", "s1 127.0.0.1")];
const act = (name: string, cls: Action["class"], targets: string[] = []): Action => ({
  name,
  class: cls,
  targets,
  arguments: {},
});

function deps(action: Action, facts: StateFact[], pending = dir.join(`p-${crypto.randomUUID()}`)) {
  const recorded = recordingDeps(pending);
  const d: GateDeps = {
    now: () => ({ epochMs: NOW, utcOffsetMinutes: 0 }),
    settings: () => ({ mode: "enforce", failOpen: false }),
    rules: () => ({
      hash: "h",
      files: [],
      problems: [],
      evaluate: () => UNGOVERNED,
    }),
    resolve: () => ({ actions: [action], normalized: action.name, unknown: [] }),
    caller: { session: "s1", branch: () => undefined, boundary: () => undefined },
    facts: () => facts,
    stop: () => undefined,
    ...recorded,
  };
  return { d, rows: recorded.rows, pending };
}

const req = (over: Partial<GateRequest> = {}): GateRequest => ({
  surface: "egress",
  cwd: "/r",
  canAsk: false,
  ...over,
});

describe("an untrusted session", () => {
  test("asks before an outward or destructive action whatever the rules allow, and lets reads and writes be", async () => {
    for (const [name, cls, effect] of [
      ["git.push", "communication", "ask"],
      ["filesystem.delete", "destructive", "ask"],
      ["filesystem.read", "read", "allow"],
      ["git.commit", "write", "allow"],
    ] as const) {
      const a = await decide(req({ surface: "shell", command: name }), deps(act(name, cls), UNTRUSTED).d);
      expect(`${name} ${a.effect}`).toBe(`${name} ${effect}`);
    }
  });

  test("its proxy passes the package registries and the noted model provider, and asks for any other host", async () => {
    const host = async (h: string) =>
      (await decide(req(), deps(act("http.request", "communication", [h]), UNTRUSTED).d)).effect;
    expect(await host("registry.npmjs.org")).toBe("allow");
    expect(await host("127.0.0.1")).toBe("allow");
    expect(await host("evil.example")).toBe("ask");
    const a = await decide(req(), deps(act("http.request", "communication", ["evil.example"]), UNTRUSTED).d);
    expect(a.reason).toContain("evil.example is neither a package registry nor the agent's model provider");
  });

  test("is its own: another session's facts change nothing for this one", async () => {
    const other = [fact("untrusted", "s2"), fact("untrusted-host", "s2 evil.example")];
    expect((await decide(req(), deps(act("http.request", "communication", ["evil.example"]), other).d)).effect).toBe(
      "allow",
    );
    const mixed = [...UNTRUSTED, fact("untrusted-host", "s2 evil.example")];
    expect((await decide(req(), deps(act("http.request", "communication", ["evil.example"]), mixed).d)).effect).toBe(
      "ask",
    );
  });
});

describe("a seam inside the wall", () => {
  test("is refused what would ask, with the reason, and no hold is left for an answer it could not read", async () => {
    const { d, rows, pending } = deps(act("git.push", "communication", ["origin"]), UNTRUSTED);
    const a = await decide(req({ surface: "shell", command: "git push", walled: true }), d);
    expect(a.effect).toBe("deny");
    expect(a.enforceEffect).toBe("ask");
    expect(a.holdId).toBeUndefined();
    expect(a.reason).toContain("outward and destructive actions ask first");
    expect(a.reason).toContain("inside the kernel wall a call that would ask is refused rather than held");
    expect(rows[0]).toMatchObject({ effect: "deny", enforceEffect: "ask" });
    expect(() => readdirSync(pending)).toThrow();
  });

  test("whose agent can ask its person still asks in its own prompt", async () => {
    const { d } = deps(act("filesystem.delete", "destructive", ["/r/x"]), UNTRUSTED);
    expect((await decide(req({ surface: "hook", command: "rm x", walled: true, canAsk: true }), d)).effect).toBe("ask");
  });

  test("says so across the daemon's socket, so the daemon refuses rather than holds too", () => {
    const r = req({ surface: "shell", command: "git push", walled: true });
    const wire = evaluateRequest(r, {
      version: "1",
      caller: { branch: () => undefined, boundary: () => undefined },
      resolution: { actions: [act("git.push", "communication")], normalized: "git.push", unknown: [] },
      digest: () => "d",
      at: { epochMs: NOW, utcOffsetMinutes: 0 },
    });
    expect(wire.walled).toBe(true);
    expect(gateRequestOf(wire).walled).toBe(true);
  });
});

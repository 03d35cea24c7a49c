import { afterAll, describe, expect, test } from "bun:test";
import type { Action } from "../src/core/action.ts";
import type { Effect, Mode } from "../src/core/effect.ts";
import type { EventInput } from "../src/core/event.ts";
import type { PolicyRequest, StateFact } from "../src/core/request.ts";
import type { Verdict } from "../src/core/verdict.ts";
import { decide } from "../src/gate/decide.ts";
import type { GateDeps, RuleSetView } from "../src/gate/deps.ts";
import type { GateRequest } from "../src/gate/types.ts";
import { handDown, handedDown } from "../src/state/cleared.ts";
import { answerHold, claimGrant, createHold } from "../src/state/pending.ts";
import { tempDir } from "./support/fs.ts";
import { recordingDeps, UNGOVERNED } from "./support/gate-deps.ts";

const dir = tempDir("memnox-gate");
afterAll(() => dir[Symbol.dispose]());
const NOW = Date.parse("2026-11-30T12:00:00.000Z");

const act = (name: string, cls: Action["class"], targets: string[] = []): Action => ({
  name,
  class: cls,
  targets,
  arguments: {},
});

/** A rule set that answers by action name, so decide()'s own stages are what is tested. */
function rulesBy(
  table: Record<string, { effect: Effect; observe?: boolean }>,
  problems: RuleSetView["problems"] = [],
): RuleSetView {
  return {
    hash: "h1",
    files: ["/repo/memnox.policies.toml"],
    problems,
    evaluate(r: PolicyRequest, _facts: readonly StateFact[]): Verdict {
      const hit = table[r.action.name];
      if (!hit) return UNGOVERNED;
      const rule = { name: `rule-${r.action.name}`, file: "/repo/memnox.policies.toml", line: 3 };
      return {
        effect: hit.effect,
        governed: true,
        reason: `because ${r.action.name}`,
        rule,
        matched: [rule],
        observeOnly: hit.observe ?? false,
        argumentMatches: [],
        ...(hit.effect === "deny" ? { alternative: { action: "git.push", note: "push without force" } } : {}),
      };
    },
  };
}

function deps(opts: {
  mode?: Mode;
  rules?: RuleSetView;
  actions?: Action[];
  facts?: StateFact[];
  stopUntil?: string;
  parseError?: string;
  pending?: string;
}): GateDeps & { rows: EventInput[] } {
  const pending = opts.pending ?? dir.join(`pending-${crypto.randomUUID()}`);
  const recorded = recordingDeps(pending);
  return {
    now: () => ({ epochMs: NOW, utcOffsetMinutes: 0 }),
    settings: () => ({ mode: opts.mode ?? "enforce", failOpen: false }),
    rules: () => opts.rules ?? rulesBy({}),
    resolve: () => ({
      actions: opts.actions ?? [act("shell.execute", "unknown", ["x"])],
      normalized: "x",
      unknown: [],
      ...(opts.parseError ? { parseError: opts.parseError } : {}),
    }),
    caller: { agent: "claude-code", session: "s1", branch: () => "main", boundary: () => undefined },
    facts: () => opts.facts ?? [],
    stop: () => (opts.stopUntil ? { stoppedAt: "", until: opts.stopUntil, by: "sam", mode: "enforce" } : undefined),
    ...recorded,
  };
}

const req = (over: Partial<GateRequest> = {}): GateRequest => ({
  surface: "shell",
  command: "git push --force",
  cwd: "/repo",
  canAsk: false,
  ...over,
});
const push = [
  act("shell.execute", "destructive", ["git push --force"]),
  act("git.push-force", "destructive", ["origin", "+main"]),
];

describe("decide", () => {
  test("enforce: the strictest verdict wins and names its rule, reason and alternative; one row", async () => {
    const d = deps({ actions: push, rules: rulesBy({ "git.push-force": { effect: "deny" } }) });
    const a = await decide(req(), d);
    expect(a.effect).toBe("deny");
    expect(a.rule?.name).toBe("rule-git.push-force");
    expect(a.alternative?.note).toBe("push without force");
    expect(d.rows).toHaveLength(1);
    expect(d.rows[0]?.operation).toBe("git.push-force");
    expect(d.rows[0]?.argsDigest).toBe("d:16");
    expect(JSON.stringify(d.rows)).not.toContain('git push --force"');
  });

  test("observe: the call proceeds and the row keeps what enforce would have said", async () => {
    const d = deps({ mode: "observe", actions: push, rules: rulesBy({ "git.push-force": { effect: "deny" } }) });
    const a = await decide(req(), d);
    expect(a.effect).toBe("allow");
    expect(a.enforceEffect).toBe("deny");
    expect(d.rows[0]?.effect).toBe("allow");
    expect(d.rows[0]?.enforceEffect).toBe("deny");
  });

  test("a rule in observe mode records its verdict without applying it", async () => {
    const d = deps({ actions: push, rules: rulesBy({ "git.push-force": { effect: "deny", observe: true } }) });
    const a = await decide(req(), d);
    expect(a.effect).toBe("allow");
    expect(a.enforceEffect).toBe("deny");
    expect(d.rows[0]?.ruleId).toBe("rule-git.push-force");
  });

  test("off: nothing is ruled and nothing recorded", async () => {
    const d = deps({ mode: "off", actions: push, rules: rulesBy({ "git.push-force": { effect: "deny" } }) });
    expect((await decide(req(), d)).effect).toBe("allow");
    expect(d.rows).toHaveLength(0);
  });

  test("a seam's own refusal (a hidden MCP tool) is one deny row in every mode, with no rule evaluated", async () => {
    for (const mode of ["enforce", "observe", "off"] as const) {
      const d = deps({
        mode,
        stopUntil: "2026-12-01T00:00:00.000Z",
        rules: rulesBy({ "mcp.gh.delete_repo": { effect: "allow" } }),
      });
      const action = act("mcp.gh.delete_repo", "destructive");
      const reason = "delete_repo is hidden from this agent by MEMNOX_TOOLS_DENY";
      const a = await decide(req({ surface: "mcp", action, rawArguments: '{"repo":"x"}', refusal: reason }), d);
      expect(a).toMatchObject({ effect: "deny", enforceEffect: "deny", mode, reason, eventId: "evt_1" });
      expect(d.rows).toHaveLength(1);
      expect(d.rows[0]).toMatchObject({
        kind: "decision",
        surface: "mcp",
        operation: "mcp.gh.delete_repo",
        effect: "deny",
        reason,
        argsDigest: "d:12",
        session: "s1",
        detail: { source: "seam" },
      });
    }
  });

  test("stopped: everything proceeds unruled, on the record", async () => {
    const d = deps({
      actions: push,
      rules: rulesBy({ "git.push-force": { effect: "deny" } }),
      stopUntil: "2026-11-30T13:00:00.000Z",
    });
    const a = await decide(req(), d);
    expect(a.effect).toBe("allow");
    expect(a.stopped).toBe(true);
    expect(d.rows[0]?.reason).toContain("stopped");
  });

  test("unparsable input and unreadable rules deny in enforce, saying the refusal is memnox's", async () => {
    const p = await decide(req(), deps({ parseError: "unterminated quote" }));
    expect(p.effect).toBe("deny");
    expect(p.reason).toContain("memnox refuses");
    const r = await decide(
      req(),
      deps({ rules: rulesBy({}, [{ file: "/repo/memnox.policies.toml", line: 7, message: "bad" }]) }),
    );
    expect(r.effect).toBe("deny");
    expect(r.reason).toContain("/repo/memnox.policies.toml:7");
    const o = await decide(req(), deps({ mode: "observe", parseError: "unterminated quote" }));
    expect(o.effect).toBe("allow");
    expect(o.enforceEffect).toBe("deny");
  });

  test("a gate that throws fails closed in enforce and open in observe", async () => {
    const broken = {
      ...deps({}),
      rules: () => {
        throw new Error("disk on fire");
      },
    };
    const a = await decide(req(), broken);
    expect(a.effect).toBe("deny");
    expect(a.reason).toContain("memnox could not decide");
    const o = await decide(req(), { ...broken, settings: () => ({ mode: "observe", failOpen: false }) });
    expect(o.effect).toBe("allow");
  });

  test("an ask where nobody can be asked writes a hold; approval then releases exactly one retry", async () => {
    const pending = dir.join("pending-hold");
    const d = deps({
      pending,
      actions: [act("git.push", "communication", ["origin", "main"])],
      rules: rulesBy({ "git.push": { effect: "ask" } }),
    });
    const first = await decide(req({ command: "git push origin main" }), d);
    expect(first.effect).toBe("ask");
    expect(first.holdId).toMatch(/^a_/);
    answerHold(pending, first.holdId ?? "", { by: "sam", grant: true, nowMs: NOW });
    const retry = await decide(req({ command: "git push origin main" }), d);
    expect(retry.effect).toBe("allow");
    expect(retry.reason).toContain("approved by sam");
    const again = await decide(req({ command: "git push origin main" }), d);
    expect(again.effect).toBe("ask");
  });

  test("a call a person is asked about at one seam passes the next seam in that session only, and not its own", async () => {
    const pending = dir.join("pending-cleared");
    const d = deps({
      pending,
      actions: [act("shell.execute", "unknown", ["curl x"]), act("http.request", "communication", ["api.example.com"])],
      rules: rulesBy({ "http.request": { effect: "ask" } }),
    });
    // The agent's own prompt asks (canAsk): the call runs only after the person's yes.
    const atHook = await decide(req({ surface: "hook", command: "curl x", canAsk: true, session: "s1" }), d);
    expect(atHook.effect).toBe("ask");
    const egress = { surface: "egress" as const, action: act("http.request", "communication", ["api.example.com"]) };
    const through = await decide(req({ ...egress, session: "s1" }), d);
    expect(through.effect).toBe("allow");
    expect(through.reason).toContain("already let through at the hook for this session");
    expect(through.holdId).toBeUndefined();
    // Another session, and the same seam again, are asked as before.
    expect((await decide(req({ ...egress, session: "s2" }), d)).holdId).toMatch(/^a_/);
    expect((await decide(req({ surface: "hook", command: "curl x", canAsk: false, session: "s1" }), d)).effect).toBe(
      "ask",
    );
    // Past the life of the answer it came from, the mark is gone.
    const later = { ...d, now: () => ({ epochMs: NOW + d.holdTtlMs + 1, utcOffsetMinutes: 0 }) };
    expect((await decide(req({ ...egress, session: "s1" }), later)).effect).toBe("ask");
  });

  test("what an interceptor hands down passes its own repository's pre-push for those actions only", async () => {
    const pending = dir.join("pending-handed");
    const token = handDown(
      pending,
      {
        actions: ["git.push"],
        root: "/repo",
        surface: "interceptor",
        by: "a person",
        until: new Date(NOW + 60_000).toISOString(),
      },
      NOW,
    );
    const rules = rulesBy({ "git.push": { effect: "ask" }, "git.push-force": { effect: "ask" } });
    const push = deps({ pending, rules, actions: [act("git.push", "communication", ["origin", "main"])] });
    const hook = { surface: "git" as const, argv: ["git", "push", "origin", "main"], handedDown: token };
    const ok = await decide(req({ ...hook, cwd: "/repo" }), {
      ...push,
      handedDown: (t, cwd, now) => (cwd.startsWith("/repo") ? handedDown(pending, t, now) : undefined),
    });
    expect(ok.effect).toBe("allow");
    expect(ok.reason).toContain("already let through at the interceptor");
    // A refspec that turned it into a force push is not what was let through: asked as ever.
    const forced = deps({ pending, rules, actions: [act("git.push-force", "destructive", ["origin", "main"])] });
    expect((await decide(req({ ...hook, cwd: "/repo" }), forced)).effect).toBe("ask");
    // A token nobody handed down is nothing.
    expect((await decide(req({ ...hook, handedDown: `mxr_${"0".repeat(32)}` }), push)).effect).toBe("ask");
  });

  test("a grant never overrides a deny, and stays unspent", async () => {
    const pending = dir.join("pending-deny");
    const a = push[1] as Action;
    const hold = createHold(pending, {
      surface: "shell",
      agent: "claude-code",
      action: a.name,
      target: a.targets.join(" "),
      reason: "r",
      nowMs: NOW,
      ttlMs: 60_000,
    });
    answerHold(pending, hold.id, { by: "sam", grant: true, nowMs: NOW });
    const d = deps({ pending, actions: push, rules: rulesBy({ "git.push-force": { effect: "deny" } }) });
    expect((await decide(req(), d)).effect).toBe("deny");
    expect(claimGrant(pending, hold.fingerprint, undefined, NOW)?.id).toBe(hold.id);
  });

  test("where a person can be asked, an ask is returned without a hold", async () => {
    const d = deps({ actions: [act("git.push", "communication")], rules: rulesBy({ "git.push": { effect: "ask" } }) });
    const a = await decide(req({ canAsk: true }), d);
    expect(a.effect).toBe("ask");
    expect(a.holdId).toBeUndefined();
  });

  test("an agent the workspace froze, halted or revoked is refused everything, reads included; other agents are not", async () => {
    const read = [act("filesystem.read", "read", ["/repo/README.md"])];
    for (const [kind, said] of [
      ["freeze-agent", "is frozen on every machine by admin@acme.dev: contained (1h left)"],
      ["halt-agent", "was halted by reviewer@acme.dev: contained; it acts again once somebody lifts the halt"],
      ["revoke-agent", "was revoked by admin@acme.dev: contained; it is retired"],
    ] as const) {
      const facts: StateFact[] = [
        {
          kind,
          subject: "claude-code",
          expiresAt: kind === "freeze-agent" ? "2026-11-30T13:00:00.000Z" : "9999-12-31T00:00:00.000Z",
          by: kind === "halt-agent" ? "reviewer@acme.dev" : "admin@acme.dev",
          reason: "contained",
        },
      ];
      const d = deps({ facts, actions: read });
      const r = await decide(req({ command: "cat README.md" }), d);
      expect(r.effect).toBe("deny");
      expect(r.reason).toContain(`agent claude-code ${said}`);
      const other = await decide(req({ command: "cat README.md" }), { ...d, caller: { ...d.caller, agent: "codex" } });
      expect(other.effect).toBe("allow");
      // Observe records what enforce would have done and withholds nothing, as for any other deny.
      const watched = await decide(req({ command: "cat README.md" }), deps({ mode: "observe", facts, actions: read }));
      expect(watched.effect).toBe("allow");
    }
  });

  test("probation, a wary session and the project boundary ask on their own", async () => {
    const facts: StateFact[] = [
      { kind: "probation", subject: "agent:claude-code", expiresAt: "2026-12-05T00:00:00.000Z" },
    ];
    const p = await decide(req(), deps({ facts, actions: [act("git.push", "communication")] }));
    expect(p.effect).toBe("ask");
    expect(p.reason).toContain("probation");
    const wary: StateFact[] = [{ kind: "wary", subject: "s1", expiresAt: "2026-11-30T12:30:00.000Z" }];
    const w = await decide(
      req({ canAsk: true }),
      deps({ facts: wary, actions: [act("http.request", "communication", ["evil.example"])] }),
    );
    expect(w.effect).toBe("ask");
    expect(w.reason).toContain("30m left");
    const d = deps({ actions: [act("filesystem.write", "write", ["/etc/hosts"])] });
    const b = await decide(req({ canAsk: true }), {
      ...d,
      caller: { ...d.caller, boundary: () => ({ roots: ["/repo"], exempt: ["/tmp"] }) },
    });
    expect(b.effect).toBe("ask");
    expect(b.reason).toContain("outside the project boundary");
    const inside = await decide(req({ canAsk: true }), {
      ...d,
      caller: { ...d.caller, boundary: () => ({ roots: ["/etc"], exempt: [] }) },
    });
    expect(inside.effect).toBe("allow");
  });
});

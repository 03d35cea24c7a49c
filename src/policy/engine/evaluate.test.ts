import { describe, expect, test } from "bun:test";
import type { Action } from "../../core/action.ts";
import type { PolicyRequest, StateFact } from "../../core/request.ts";
import { compile } from "./compile.ts";
import { evaluate } from "./evaluate.ts";
import type { PolicyRule, RuleDecision, RuleMatch } from "./types.ts";

const NOON_MONDAY = { epochMs: Date.parse("2026-11-30T12:00:00Z"), utcOffsetMinutes: 0 };

let line = 0;
function rule(name: string, match: RuleMatch, decision: RuleDecision, file = "/repo/memnox.policies.toml"): PolicyRule {
  line += 10;
  return { name, match, decision, file, line };
}

function action(name: string, targets: string[] = [], args: Record<string, string[]> = {}): Action {
  return { name, class: "unknown", targets, arguments: args };
}

function req(a: Action, extra: Partial<PolicyRequest> = {}): PolicyRequest {
  return { action: a, cwd: "/repo", scope: "undeclared", ...extra };
}

function decide(rules: PolicyRule[], r: PolicyRequest, facts: StateFact[] = [], at = NOON_MONDAY) {
  return evaluate(compile(rules, { home: "/home/sam" }), r, facts, at);
}

describe("precedence", () => {
  const rules = [
    rule("allow-all-git", { actions: ["git.*"] }, { effect: "allow", reason: "git is fine" }),
    rule("ask-pushes", { actions: ["git.push*"] }, { effect: "ask", reason: "pushes ask" }),
    rule("no-force", { actions: ["git.push-force"] }, { effect: "deny", reason: "no force" }),
  ];

  test("the most restrictive effect wins, whatever the order", () => {
    for (const order of [rules, [...rules].reverse(), [rules[1], rules[2], rules[0]]]) {
      const v = decide(order as PolicyRule[], req(action("git.push-force")));
      expect(v.effect).toBe("deny");
      expect(v.rule?.name).toBe("no-force");
      expect(v.matched.map((m) => m.name)).toEqual(["no-force", "ask-pushes", "allow-all-git"]);
    }
  });

  test("which file a rule is in does not matter", () => {
    const split = [
      { ...rules[0], file: "/home/sam/.memnox/machine.policies.toml" },
      rules[1],
      { ...rules[2], file: "/z/last.toml" },
    ] as PolicyRule[];
    expect(decide(split, req(action("git.push-force"))).effect).toBe("deny");
  });

  test("among equally strict rules the most specific supplies the reason and alternative", () => {
    const alt = { action: "git.push", note: "push without --force" };
    const set = [
      rule("broad", { actions: ["git.*"] }, { effect: "deny", reason: "broad reason" }),
      rule(
        "narrow",
        { actions: ["git.push-force"], branches: ["main"] },
        { effect: "deny", reason: "narrow", alternative: alt },
      ),
      rule("longer", { actions: ["git.push-force"] }, { effect: "deny", reason: "longer literal" }),
    ];
    const v = decide(set, req(action("git.push-force"), { branch: "main" }));
    expect(v.rule?.name).toBe("narrow");
    expect(v.alternative).toEqual(alt);
    // Same number of fields: the longer literal pattern is more specific than `git.*`.
    const w = decide(set, req(action("git.push-force"), { branch: "dev" }));
    expect(w.rule?.name).toBe("longer");
  });

  test("a full tie is broken by name, not by order", () => {
    const a = rule("b-rule", { actions: ["x"] }, { effect: "ask", reason: "b" });
    const b = rule("a-rule", { actions: ["x"] }, { effect: "ask", reason: "a" });
    expect(decide([a, b], req(action("x"))).rule?.name).toBe("a-rule");
    expect(decide([b, a], req(action("x"))).rule?.name).toBe("a-rule");
  });

  test("a field of only `*` narrows nothing and does not count as specific", () => {
    const set = [
      rule("a-star-env", { actions: ["x*"], environments: ["*"] }, { effect: "ask", reason: "star" }),
      rule("b-plain", { actions: ["xx"] }, { effect: "ask", reason: "plain" }),
    ];
    // Had `environments = ["*"]` counted, a-star-env would have two fields to b-plain's one.
    expect(decide(set, req(action("xx"))).rule?.name).toBe("b-plain");
  });
});

describe("no match is ungoverned", () => {
  test("the default applies and governed is false", () => {
    const v = decide([rule("r", { actions: ["gh.pr-merge"] }, { effect: "deny" })], req(action("git.status")));
    expect(v).toMatchObject({ effect: "allow", governed: false, matched: [], observeOnly: false });
    expect(v.reason).toContain("ungoverned");
    const strict = evaluate(compile([]), req(action("git.status")), [], NOON_MONDAY, "ask");
    expect(strict.effect).toBe("ask");
  });

  test("a reason falls back to the description, then names the rule", () => {
    const described = rule("d", {}, { effect: "deny" });
    const v = decide([{ ...described, description: "no deploys on fridays" }], req(action("x")));
    expect(v.reason).toBe("no deploys on fridays");
    expect(decide([described], req(action("x"))).reason).toContain("`d`");
  });
});

describe("mode = observe", () => {
  const observeDeny = rule("try-deny", { actions: ["x"] }, { effect: "deny", mode: "observe", reason: "trial" });

  test("an observe-only deciding rule is flagged, not applied", () => {
    const v = decide([observeDeny], req(action("x")));
    expect(v).toMatchObject({ effect: "deny", observeOnly: true, governed: true });
  });

  test("an observe-only rule never weakens an enforcing one of the same effect", () => {
    const enforce = rule("real-deny", { actions: ["x"] }, { effect: "deny", reason: "real" });
    const v = decide([observeDeny, enforce], req(action("x")));
    expect(v).toMatchObject({ effect: "deny", observeOnly: false, rule: { name: "real-deny" } });
  });

  test("a stricter observe rule beside an enforcing ask: the ask applies, the deny is recorded", () => {
    const ask = rule("real-ask", { actions: ["x"] }, { effect: "ask", reason: "asks" });
    const v = decide([observeDeny, ask], req(action("x")));
    expect(v).toMatchObject({ effect: "ask", observeOnly: false, rule: { name: "real-ask" } });
    expect(v.observed).toMatchObject({ effect: "deny", rule: { name: "try-deny" }, reason: "trial" });
  });

  test("a stricter observe rule beside an enforcing allow is what would have happened", () => {
    const allow = rule("real-allow", { actions: ["x"] }, { effect: "allow" });
    const v = decide([observeDeny, allow], req(action("x")));
    expect(v).toMatchObject({ effect: "deny", observeOnly: true, rule: { name: "try-deny" } });
  });
});

describe("match fields", () => {
  const one = (m: RuleMatch) => [rule("r", m, { effect: "deny", reason: "matched" })];
  const hit = (m: RuleMatch, r: PolicyRequest, facts: StateFact[] = [], at = NOON_MONDAY) =>
    decide(one(m), r, facts, at).governed;

  test("an omitted field matches everything; an empty match matches every action", () => {
    expect(hit({}, req(action("anything")))).toBe(true);
  });

  test("targets: any target matching any pattern, spec's own shapes", () => {
    const line = "cd /srv/payments && rm -rf build";
    expect(hit({ actions: ["shell.execute"], targets: ["*rm -rf*"] }, req(action("shell.execute", [line])))).toBe(true);
    expect(hit({ targets: [".env"] }, req(action("filesystem.read", ["/repo/README.md", "/repo/.env"])))).toBe(true);
    expect(hit({ targets: [".env"] }, req(action("filesystem.read", ["/repo/.env.example"])))).toBe(false);
    expect(hit({ targets: ["~/.ssh/**"] }, req(action("filesystem.read", ["/home/sam/.ssh/id_ed25519"])))).toBe(true);
    expect(hit({ targets: ["x"] }, req(action("git.status")))).toBe(false);
  });

  test("workingDirectories: where the call was made", () => {
    const m = { workingDirectories: ["/srv/payments*"] };
    expect(hit(m, req(action("x"), { cwd: "/srv/payments/api" }))).toBe(true);
    expect(hit(m, req(action("x"), { cwd: "/srv/billing" }))).toBe(false);
  });

  test("scalar fields match their request fact, and an absent fact matches only `*`", () => {
    const fields: [RuleMatch, Partial<PolicyRequest>][] = [
      [{ environments: ["prod*"] }, { environment: "production" }],
      [{ agents: ["claude-*"] }, { agent: "claude-code" }],
      [{ roles: ["release-engineer"] }, { role: "release-engineer" }],
      [{ principals: ["sam"] }, { principal: "sam" }],
      [{ models: ["gpt-*"] }, { model: "gpt-5" }],
      [{ providers: ["openai"] }, { provider: "openai" }],
      [{ dataClassifications: ["pii"] }, { dataClassifications: ["public", "pii"] }],
      [{ jurisdictions: ["eu-*"] }, { jurisdictions: ["eu-west"] }],
    ];
    for (const [m, extra] of fields) {
      expect(hit(m, req(action("x"), extra))).toBe(true);
      expect(hit(m, req(action("x")))).toBe(false);
    }
    expect(hit({ environments: ["*"] }, req(action("x")))).toBe(true);
  });

  test("branches: a push's own destination beats the checked-out branch", () => {
    const push = { ...action("git.push-force"), branch: "main" };
    expect(hit({ branches: ["main"] }, req(push, { branch: "feature" }))).toBe(true);
    expect(hit({ branches: ["release/*"] }, req(action("git.commit"), { branch: "release/1.2" }))).toBe(true);
    expect(hit({ branches: ["main"] }, req(action("git.commit"), { branch: "feature" }))).toBe(false);
  });

  test("aboveAmount: over the ceiling, or no size stated at all", () => {
    expect(hit({ aboveAmount: 100 }, req(action("stripe.refund"), { amount: 250 }))).toBe(true);
    expect(hit({ aboveAmount: 100 }, req(action("stripe.refund"), { amount: 100 }))).toBe(false);
    expect(hit({ aboveAmount: 100 }, req(action("stripe.refund")))).toBe(true);
  });

  test("scope: an undeclared request never matches a scope-bearing rule", () => {
    expect(hit({ scope: ["out_of_scope"] }, req(action("x"), { scope: "out_of_scope" }))).toBe(true);
    expect(hit({ scope: ["out_of_scope"] }, req(action("x"), { scope: "in_scope" }))).toBe(false);
    expect(hit({ scope: ["in_scope", "out_of_scope"] }, req(action("x"), { scope: "undeclared" }))).toBe(false);
  });

  test("windows: the instant passed in, in its offset, any window", () => {
    const m = {
      windows: [
        { days: [1, 2, 3, 4, 5], startHour: 17, endHour: 9 },
        { days: [0, 6], startHour: 0, endHour: 24 },
      ],
    };
    const monday = (iso: string, off = 0) => ({ epochMs: Date.parse(iso), utcOffsetMinutes: off });
    expect(hit(m, req(action("x")), [], monday("2026-11-30T12:00:00Z"))).toBe(false);
    expect(hit(m, req(action("x")), [], monday("2026-11-30T20:00:00Z"))).toBe(true);
    // Noon UTC is 21:00 in Tokyo.
    expect(hit(m, req(action("x")), [], monday("2026-11-30T12:00:00Z", 540))).toBe(true);
    expect(hit(m, req(action("x")), [], monday("2026-12-05T12:00:00Z"))).toBe(true);
  });

  test("state: only while a named fact is in force at the instant", () => {
    const freeze = (expiresAt: string, setAt?: string): StateFact => ({
      kind: "freeze",
      subject: "payments",
      expiresAt,
      ...(setAt ? { setAt } : {}),
    });
    const m = { actions: ["gh.pr-merge"], state: ["freeze:payments"] };
    const r = req(action("gh.pr-merge"));
    expect(hit(m, r, [freeze("2026-11-30T13:00:00Z")])).toBe(true);
    expect(hit(m, r, [freeze("2026-11-30T11:00:00Z")])).toBe(false);
    expect(hit(m, r, [freeze("2026-11-30T13:00:00Z", "2026-11-30T12:30:00Z")])).toBe(false);
    expect(hit(m, r, [])).toBe(false);
    expect(hit({ state: ["freeze:*"] }, r, [freeze("2026-11-30T13:00:00Z")])).toBe(true);
  });
});

describe("arguments", () => {
  const rm = rule(
    "no-rm-rf",
    { actions: ["shell.execute"], arguments: { command: ["*rm -rf*", "*rm -fr*"] } },
    { effect: "deny", reason: "no recursive delete" },
  );

  test("every named argument must match, and the matching pattern is recorded, never the argument", () => {
    const v = decide([rm], req(action("shell.execute", [], { command: ["rm -fr /tmp/x"] })));
    expect(v.effect).toBe("deny");
    expect(v.argumentMatches).toEqual([{ rule: "no-rm-rf", argument: "command", pattern: "*rm -fr*" }]);
    expect(JSON.stringify(v)).not.toContain("/tmp/x");
  });

  test("an argument the call lacks matches only the bare `*`", () => {
    expect(decide([rm], req(action("shell.execute"))).governed).toBe(false);
    const both = rule("both", { arguments: { command: ["*"], repo: ["acme/*"] } }, { effect: "ask" });
    expect(decide([both], req(action("x", [], { repo: ["acme/api"] }))).argumentMatches).toEqual([
      { rule: "both", argument: "command", pattern: "*" },
      { rule: "both", argument: "repo", pattern: "acme/*" },
    ]);
    expect(decide([both], req(action("x", [], { repo: ["other/api"] }))).governed).toBe(false);
  });

  test("argument matches of a rule that did not match in full are not recorded", () => {
    const partial = rule("partial", { arguments: { a: ["1"], b: ["2"] } }, { effect: "deny" });
    const v = decide([partial], req(action("x", [], { a: ["1"], b: ["3"] })));
    expect(v.argumentMatches).toEqual([]);
  });
});

test("ask carries approvers and the quorum, defaulting to one", () => {
  const v = decide(
    [rule("q", { actions: ["x"] }, { effect: "ask", approvers: ["eng-lead", "security"], minApprovals: 2 })],
    req(action("x")),
  );
  expect(v).toMatchObject({ approvers: ["eng-lead", "security"], minApprovals: 2 });
  expect(decide([rule("q1", { actions: ["x"] }, { effect: "ask" })], req(action("x"))).minApprovals).toBe(1);
});

describe("replaying a row whose targets were the call's own arguments", () => {
  const rules = [
    rule("no-rm-rf", { actions: ["shell.execute"], targets: ["*rm -rf*"] }, { effect: "deny", reason: "no" }),
    rule("lines-ok", { actions: ["shell.execute"] }, { effect: "allow", reason: "fine" }),
  ];

  test("a rule's targets match where the row says they matched, not on the (absent) targets", () => {
    expect(decide(rules, req(action("shell.execute"), { recordedTargetMatches: ["no-rm-rf"] })).rule?.name).toBe(
      "no-rm-rf",
    );
    const none = decide(rules, req(action("shell.execute", ["rm -rf /"]), { recordedTargetMatches: [] }));
    expect(none.rule?.name).toBe("lines-ok");
  });
});

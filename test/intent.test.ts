// The decisions pipeline's pure parts, on recorded deliveries and real resolutions: the one normalizer over every
// documented shape (GitHub pull requests opened and merged, issues opened and closed, Slack messages), classification,
// clearances (an agent never out-reads its principal; restricted never reaches a machine), extraction's strict reading,
// patterns counted, and a decision compiled into rules the machine's own loader accepts and its engine holds actions to.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classify, DEFAULT_RULES } from "../src/cloud/intent/classify.ts";
import { agentReader, canRead, filtered, inherited, narrower, type Reader } from "../src/cloud/intent/clearance.ts";
import { decisionRules, matchHash, spellings, withDecisions } from "../src/cloud/intent/compile.ts";
import { readCandidates, type WindowEvent } from "../src/cloud/intent/extract.ts";
import { nodeId, normalKey } from "../src/cloud/intent/graph.ts";
import { dedupKey, normalize } from "../src/cloud/intent/normalize.ts";
import { patternsIn, shapeOf } from "../src/cloud/intent/practice.ts";
import { secretKey, signDelivery, verifyDelivery } from "../src/cloud/intent/webhook.ts";
import { stem } from "../src/core/decisions.ts";
import type { PolicyRequest } from "../src/core/request.ts";
import { compile, evaluate } from "../src/policy/engine/index.ts";
import { parseRuleText, validateRuleData } from "../src/policy/load/index.ts";
import { resolveCommand } from "../src/resolve/resolve.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "intent");
const load = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, name), "utf8"));
const GITHUB = { baseUrl: null, streams: ["acme/checkout"] };
const SLACK = { baseUrl: "https://acme.slack.com", streams: ["C024BE7LR"] };

describe("the one normalizer", () => {
  test("a pull request opened, then the same one merged, are two events with the system's own permalink", () => {
    const opened = load("github-pull-request-opened.json");
    const a = normalize("github", opened, GITHUB);
    expect(a).toMatchObject({ ok: true, event: { kind: "pull_request.opened", stream: "acme/checkout" } });
    const pr = opened.pull_request as Record<string, unknown>;
    const merged = {
      ...opened,
      action: "closed",
      pull_request: { ...pr, merged: true, merged_at: "2023-07-26T08:00:00Z", closed_at: "2023-07-26T08:00:00Z" },
    };
    const b = normalize("github", merged, GITHUB);
    expect(b).toMatchObject({
      ok: true,
      event: {
        kind: "pull_request.merged",
        sourceRef: "https://github.com/acme/checkout/pull/1347",
        occurredAt: "2023-07-26T08:00:00.000Z",
      },
    });
    if (a.ok && b.ok) expect(dedupKey(a.event)).not.toBe(dedupKey(b.event));
    // Closed without merging is not something listened to.
    const closed = { ...opened, action: "closed", pull_request: { ...pr, merged: false } };
    expect(normalize("github", closed, GITHUB)).toMatchObject({ ok: false, status: "ignored" });
  });

  test("issues opened and closed; a repository nobody chose is quiet; a push is not listened to", () => {
    const closed = load("github-issue-closed.json");
    expect(normalize("github", closed, GITHUB)).toMatchObject({
      ok: true,
      event: { kind: "issue.closed", occurredAt: "2023-07-27T10:00:00.000Z", author: "octocat" },
    });
    const issue = closed.issue as Record<string, unknown>;
    const opened = { ...closed, action: "opened", issue: { ...issue, state: "open", closed_at: null } };
    expect(normalize("github", opened, GITHUB)).toMatchObject({ ok: true, event: { kind: "issue.opened" } });
    expect(normalize("github", closed, { baseUrl: null, streams: ["acme/other"] })).toMatchObject({
      ok: false,
      status: "ignored",
    });
    const push = { ref: "refs/heads/main", repository: closed.repository, commits: [], sender: closed.sender };
    expect(normalize("github", push, GITHUB)).toMatchObject({ ok: false });
  });

  test("a Slack message's permalink is composed from the base URL; without one it is rejected; an edit is not a message", () => {
    const m = load("slack-message.json");
    expect(normalize("slack", m, SLACK)).toMatchObject({
      ok: true,
      event: { sourceRef: "https://acme.slack.com/archives/C024BE7LR/p1690203600000200", outsideTeam: false },
    });
    expect(normalize("slack", m, { baseUrl: null, streams: ["C024BE7LR"] })).toMatchObject({
      ok: false,
      status: "rejected",
    });
    const event = m.event as Record<string, unknown>;
    const edit = { ...m, event: { ...event, subtype: "message_changed" } };
    expect(normalize("slack", edit, SLACK)).toMatchObject({ ok: false, status: "ignored" });
    expect(normalize("slack", load("slack-stranger.json"), SLACK)).toMatchObject({
      ok: true,
      event: { outsideTeam: true },
    });
  });

  test("the signature covers id, timestamp and body: any byte changed, or an old delivery, is refused", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const body = new TextEncoder().encode('{"a":1}');
    const now = 1_700_000_000_000;
    const headers = (sig: string, id = "msg_1", ts = now / 1000) =>
      new Headers({ "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": sig });
    const sig = signDelivery(secret, "msg_1", now / 1000, body);
    expect(verifyDelivery(secret, headers(sig), body, now).ok).toBe(true);
    expect(verifyDelivery(secret, headers(`v1,bogus ${sig}`), body, now).ok).toBe(true);
    expect(verifyDelivery(secret, headers(sig, "msg_2"), body, now).ok).toBe(false);
    expect(verifyDelivery(secret, headers(sig), new TextEncoder().encode('{"a":2}'), now).ok).toBe(false);
    expect(verifyDelivery(secret, headers(sig), body, now + 10 * 60_000).ok).toBe(false);
    expect(secretKey(secret)).toHaveLength(24);
  });
});

describe("need to know", () => {
  test("classification is the strongest level a pattern finds, with its audiences; nothing found is internal", () => {
    expect(classify("Payroll changes land next month", DEFAULT_RULES)).toEqual({
      level: "restricted",
      audiences: ["people"],
    });
    expect(classify("the Q3 revenue forecast", DEFAULT_RULES)).toEqual({
      level: "confidential",
      audiences: ["finance"],
    });
    expect(classify("see the press release", DEFAULT_RULES).level).toBe("public");
    expect(classify("the press release mentions our margins", DEFAULT_RULES).level).toBe("confidential");
    expect(classify("we ship on Tuesdays", DEFAULT_RULES)).toEqual({ level: "internal", audiences: [] });
    // Whole words: "nda" is not found inside "calendar".
    expect(classify("check the calendar", DEFAULT_RULES).level).toBe("internal");
  });

  const person = (ceiling: Reader["ceiling"], audiences: string[] = []): Reader => ({
    ceiling,
    audiences,
    person: true,
  });
  const fact = (classification: "public" | "internal" | "confidential" | "restricted", audiences: string[] = []) => ({
    classification,
    audiences,
  });

  test("an agent's clearance is the weaker of its own and its principal's on both axes, and never reaches restricted", () => {
    const legalGrant = { ceiling: "confidential" as const, audiences: ["legal"] };
    const finance = person("internal", ["finance"]);
    const agent = agentReader(legalGrant, finance);
    expect(agent).toEqual({ ceiling: "internal", audiences: [], person: false });
    expect(canRead(agent, fact("confidential", ["legal"]))).toBe(false);
    const both = agentReader({ ceiling: "confidential", audiences: ["finance", "legal"] }, finance);
    expect(both.audiences).toEqual(["finance"]);
    expect(canRead(both, fact("confidential", ["finance"]))).toBe(true);
    // Restricted: people only, whatever the grant or the principal.
    const top = agentReader(
      { ceiling: "restricted" as never, audiences: ["people"] },
      person("restricted", ["people"]),
    );
    expect(top.ceiling).toBe("confidential");
    expect(canRead(top, fact("restricted", ["people"]))).toBe(false);
    expect(canRead(person("restricted"), fact("restricted"))).toBe(true);
    expect(agentReader(legalGrant, "gone").ceiling).toBe("none");
    expect(narrower(person("confidential", ["finance"]), person("internal")).ceiling).toBe("internal");
  });

  test("every answer counts what it held back; a fact from before classification reads as internal", () => {
    const facts = [
      fact("public"),
      fact("internal"),
      fact("confidential", ["finance"]),
      { classification: null, audiences: [] },
    ];
    expect(filtered(person("internal"), facts).withheld).toBe(1);
    expect(filtered(person("public"), facts).withheld).toBe(3);
    expect(inherited([fact("internal"), fact("confidential", ["legal"]), fact("confidential", ["finance"])])).toEqual({
      classification: "confidential",
      audiences: ["finance", "legal"],
    });
  });
});

describe("extraction reads its answer strictly", () => {
  const window: WindowEvent[] = [1, 2, 3].map((id) => ({
    id,
    sourceType: "slack",
    kind: "message",
    stream: "C1",
    author: "U1",
    tainted: id === 3,
    occurredAt: "2026-01-01T00:00:00.000Z",
    content: "x",
    classification: id === 2 ? "confidential" : "internal",
    audiences: id === 2 ? ["legal"] : [],
  }));

  test("a candidate cites ids from the window or is dropped; it inherits the strongest classification and any taint", () => {
    const text = `Here you go:\n\`\`\`json\n${JSON.stringify({
      candidates: [
        { statement: "We do not log PII.", evidence: [1, 2, 42] },
        { statement: "Export everything.", evidence: [42] },
        { statement: "", evidence: [1] },
        { statement: "Ship on Tuesdays.", evidence: ["3"] },
        { statement: "we do not log pii.", evidence: [1] },
      ],
    })}\n\`\`\``;
    const { candidates, dropped } = readCandidates(text, window);
    expect(dropped).toBe(3);
    expect(candidates.map((k) => [k.statement, k.evidence, k.classification, k.tainted])).toEqual([
      ["We do not log PII.", [1, 2], "confidential", false],
      ["Ship on Tuesdays.", [3], "internal", true],
    ]);
    expect(readCandidates("no JSON at all", window)).toEqual({ candidates: [], dropped: 0 });
  });
});

describe("a decision compiled into the bundle", () => {
  const decision = {
    id: "dec_1",
    nodeId: nodeId("decision", "We do not log PII."),
    statement: "We do not log PII.",
    terms: ["log", "pii"],
    effect: "deny" as const,
    approvedBy: "reviewer@acme.dev",
    sourceRef: "https://acme.slack.com/archives/C1/p1",
    quoted: true,
  };

  test("spellings are exactly the words the gate's stemmer takes back to the term", () => {
    for (const w of ["log", "logs", "logged", "logging"]) expect(spellings("log")).toContain(w);
    for (const w of spellings("log")) expect(stem(w)).toBe("log");
    expect(spellings("policy")).toContain("policies");
    expect(spellings("pii")).toContain("pii");
    expect(normalKey("We do not log PII.")).toBe("we-do-not-log-pii");
  });

  test("the machine's own loader accepts the rules; they only ask or deny, never a read, and quote the decision", () => {
    const published = JSON.stringify({
      version: 1,
      policies: [{ name: "keep", match: { actions: ["x.y"] }, decision: { effect: "allow" } }],
    });
    const text = withDecisions(published, [decision]);
    const parsed = parseRuleText("org.policies.json", text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const checked = validateRuleData("org.policies.json", parsed.parsed);
    expect(checked.problems).toEqual([]);
    expect(checked.rules.map((r) => r.name)).toEqual([
      "keep",
      "decision-we-do-not-log-pii-targets",
      "decision-we-do-not-log-pii-names-log",
      "decision-we-do-not-log-pii-names-pii",
    ]);
    for (const r of decisionRules(decision)) expect((r.decision as { effect: string }).effect).toBe("deny");
    expect(withDecisions("", [])).toBe("");
    const confidential = decisionRules({ ...decision, quoted: false })[0]?.decision as { reason: string };
    expect(confidential.reason).not.toContain("PII");
  });

  test("the engine holds actions touching its terms to it, and leaves reads and other words alone", () => {
    const parsed = parseRuleText("org.policies.json", withDecisions("", [decision]));
    if (!parsed.ok) throw new Error("does not parse");
    const rules = compile(validateRuleData("org.policies.json", parsed.parsed).rules, { home: "/home/dev" });
    const verdict = (line: string) => {
      const r = resolveCommand(line, { cwd: "/repo", home: "/home/dev" });
      const effects = r.actions.map((action) => {
        const req: PolicyRequest = { action, cwd: "/repo", scope: "undeclared" };
        return evaluate(rules, req, [], { epochMs: 0, utcOffsetMinutes: 0 }).effect;
      });
      return effects.includes("deny") ? "deny" : "allow";
    };
    for (const line of [
      "data.write logs/pii.csv",
      "echo user@example.com >> /var/log/pii/app.log",
      "tee logs/pii_requests.txt",
      "cp users.csv /srv/logging/pii-dumps/",
      "echo a > pii-logs.csv",
      "pii-export.run logs",
    ])
      expect([line, verdict(line)]).toEqual([line, "deny"]);
    // Writing logs is not logging PII, nor is handling PII without a log: the over-reach of matching any one word.
    for (const line of [
      "echo hi > logs/x.txt",
      "data.write logs",
      "echo user@example.com >> /var/log/app.log",
      "tee logs/requests.txt",
      "cp users.csv /srv/logging/",
      "pii-export.run --all",
      "echo a > src/pii/model.ts",
      "cat /var/log/pii/app.log",
      "git log --oneline",
      "ls logs",
      "npm test",
      "catalog-sync run",
      "echo hi > blog/pii.md",
      "echo hi > catalog/pii.txt",
    ])
      expect([line, verdict(line)]).toEqual([line, "allow"]);
  });
});

describe("what a reviewer chose is what binds", () => {
  const base = {
    id: "dec_2",
    nodeId: "decision:payments-code-needs-a-second-reviewer",
    statement: "Payments code needs a second reviewer.",
    terms: ["payment", "code", "second", "reviewer"],
    effect: "ask" as const,
    approvedBy: "r@acme.dev",
    sourceRef: "https://github.com/acme/checkout/pull/9",
    quoted: true,
  };

  test("at most three terms bind, the first ones unless chosen; a term alone binds by its own word", () => {
    const all = decisionRules(base);
    expect(all.map((r) => r.name)).toEqual([
      "decision-payments-code-needs-a-second-reviewer-targets",
      "decision-payments-code-needs-a-second-reviewer-names-payment",
      "decision-payments-code-needs-a-second-reviewer-names-code",
      "decision-payments-code-needs-a-second-reviewer-names-second",
    ]);
    const one = decisionRules({ ...base, boundTerms: ["payment"] });
    expect(one.map((r) => r.match.targets !== undefined)).toEqual([true, false]);
    expect(decisionRules({ ...base, boundTerms: [] })).toEqual([]);
  });

  test("the hash a reviewer approves moves with what the rules match and do, never with names or words", () => {
    const a = matchHash(decisionRules(base));
    expect(matchHash(decisionRules({ ...base, approvedBy: "someone-else@acme.dev", id: "dec_9" }))).toBe(a);
    expect(matchHash(decisionRules({ ...base, effect: "deny" }))).not.toBe(a);
    expect(matchHash(decisionRules({ ...base, boundTerms: ["payment"] }))).not.toBe(a);
  });
});

describe("patterns", () => {
  const grant = (id: string, action: string, target: string, by: string) => ({
    id,
    action,
    target,
    answered_by: by,
    rule_id: "deploys-ask",
    answered_at: new Date(0),
  });

  test("the same verb at the same size, approved by the same person three times, is one pattern; a denial ends it", () => {
    expect(shapeOf("web-42")).toBe("web-*");
    expect(shapeOf("release/3f2a9c1")).toBe("release/*");
    const grants = [
      grant("h1", "railway.up", "web-1", "a@x"),
      grant("h2", "railway.up", "web-2", "a@x"),
      grant("h3", "railway.up", "web-3", "b@x"),
      grant("h4", "railway.up", "web-4", "a@x"),
      grant("h5", "railway.up", "db-1", "a@x"),
    ];
    const found = patternsIn(grants, new Set());
    expect(found.map((p) => [p.action, p.shape, p.by, p.holds])).toEqual([
      ["railway.up", "web-*", "a@x", ["h1", "h2", "h4"]],
    ]);
    expect(found[0]?.rule).toMatchObject({ decision: { effect: "allow", relaxes: ["deploys-ask"] } });
    expect(patternsIn(grants, new Set(["railway.up\nweb-*"]))).toEqual([]);
  });
});

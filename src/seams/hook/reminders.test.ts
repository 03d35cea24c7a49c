import { describe, expect, test } from "bun:test";
import type { RuleSummary } from "../../gate/types.ts";
import { claimReminders, type SessionNotice } from "./notice.ts";
import {
  actionPhrase,
  callReminder,
  matchesEverything,
  promptReminders,
  reminderText,
  subjectOf,
  targetLiteral,
} from "./reminders.ts";

const rule = (r: Partial<RuleSummary> & Pick<RuleSummary, "name" | "effect" | "actions">): RuleSummary => ({
  targets: [],
  reason: "",
  observeOnly: false,
  source: "repository",
  ...r,
});

const ENV = rule({
  name: "no-env",
  effect: "deny",
  actions: ["filesystem.read"],
  targets: ["**/.env"],
  reason: "you chose to deny this: almost no task needs the key itself, and a leaked one is somebody’s weekend",
  source: "machine",
});
const PUSH = rule({
  name: "no-force-push",
  effect: "deny",
  actions: ["git.push-force"],
  targets: ["*main*"],
  reason: "main is shared.",
  source: "team",
});
const TESTS = rule({ name: "tests-ok", effect: "allow", actions: ["npm.test"], reason: "tests are safe" });
const EVERYTHING = rule({ name: "catch-all", effect: "ask", actions: ["*"], reason: "ask about everything" });

describe("decision reminders", () => {
  test("a prompt naming .env gets the spec's words for the machine's rule", () => {
    expect(promptReminders("please tidy up .env on this box", [ENV])).toEqual([
      {
        key: "no-env",
        text: "A previous decision covers .env: it is never run, because you chose to deny this: almost no task needs the key itself, and a leaked one is somebody’s weekend (decided on this machine).",
      },
    ]);
  });

  test("a word that merely contains the literal does not count", () => {
    expect(promptReminders("set the environment up", [ENV])).toEqual([]);
    expect(promptReminders("read foo.env", [ENV])).toEqual([]);
  });

  test("a spelled-out action is found, and the words say where the decision was taken", () => {
    const [r] = promptReminders("then git   push the fix", [PUSH]);
    expect(r?.text).toBe(
      "A previous decision covers git push: it is never run, because main is shared (your team's published rules).",
    );
    expect(reminderText("npm test", TESTS)).toBe(
      "A previous decision covers npm test: it is allowed, because tests are safe (this repository's rules).",
    );
    expect(reminderText(".env", { ...ENV, decidedOn: "2026-11-02" })).toContain(
      "(decided on this machine on 2026-11-02).",
    );
  });

  test("a rule that matches everything, or one set to observe, is never said", () => {
    expect(matchesEverything(EVERYTHING)).toBe(true);
    expect(matchesEverything(rule({ name: "x", effect: "deny", actions: ["*"], targets: ["**/.env"] }))).toBe(false);
    expect(promptReminders("run * on everything with npm test", [EVERYTHING])).toEqual([]);
    expect(promptReminders("edit .env", [{ ...ENV, observeOnly: true }])).toEqual([]);
    expect(callReminder("catch-all", [EVERYTHING])).toBeUndefined();
  });

  test("strictest decisions come first", () => {
    const keys = promptReminders("npm test, then git push to main and fix .env", [TESTS, PUSH, ENV]).map((r) => r.key);
    expect(keys).toEqual(["no-force-push", "no-env", "tests-ok"]);
  });

  test("the words a rule is about", () => {
    expect(targetLiteral("**/.ssh/**")).toBe(".ssh");
    expect(targetLiteral("*main*")).toBe("main");
    expect(targetLiteral("**")).toBeUndefined();
    expect(actionPhrase("gh.pr-merge")).toBe("gh pr");
    expect(actionPhrase("filesystem.read")).toBeUndefined();
    expect(actionPhrase("mcp.*")).toBeUndefined();
    expect(subjectOf(TESTS)).toBe("npm test");
    expect(callReminder("tests-ok", [TESTS])?.text).toContain("covers npm test: it is allowed");
  });
});

describe("the reminder budget", () => {
  const empty: SessionNotice = { version: 1, said: [], calls: {} };
  const r = (key: string) => ({ key, text: key });

  test("at most two in a turn, each once a session", () => {
    const first = claimReminders(empty, "p1", [r("a"), r("b"), r("c")], true);
    expect(first.said.map((x) => x.key)).toEqual(["a", "b"]);
    const sameTurn = claimReminders(first.next, "p1", [r("c")], false);
    expect(sameTurn.said).toEqual([]);
    const nextTurn = claimReminders(first.next, "p2", [r("a"), r("c")], true);
    expect(nextTurn.said.map((x) => x.key)).toEqual(["c"]);
  });

  test("a call in the same turn shares the prompt's count", () => {
    const prompt = claimReminders(empty, "p1", [r("a")], true);
    const call = claimReminders(prompt.next, "p1", [r("b")], false);
    expect(call.said.map((x) => x.key)).toEqual(["b"]);
    expect(claimReminders(call.next, "p1", [r("c")], false).said).toEqual([]);
  });
});

describe("callReminder beside an allowed call", () => {
  const base = { effect: "allow" as const, targets: [], observeOnly: false, source: "repository" as const };
  test("names the call's own action, not the rule's first pattern", () => {
    const r = {
      ...base,
      name: "deploys-ok",
      actions: ["railway.up", "vercel.deploy"],
      reason: "staging deploys are routine",
    };
    expect(callReminder("deploys-ok", [r], "vercel.deploy")?.text).toContain("covers vercel deploy");
  });
  test("a rule listing every read says nothing about one call", () => {
    const many = Array.from({ length: 40 }, (_, i) => `tool${i}.read`);
    const r = { ...base, name: "reads-allowed", actions: many, reason: "reading changes nothing" };
    expect(callReminder("reads-allowed", [r], "tool3.read")).toBeUndefined();
  });
});

import { describe, expect, test } from "bun:test";
import type { RuleSummary } from "../../gate/types.ts";
import { BLOCK_MAX, boundaryBlock, ITEM_MAX, ruleItem } from "./opening.ts";

const rule = (r: Partial<RuleSummary> & Pick<RuleSummary, "name" | "effect" | "actions">): RuleSummary => ({
  targets: [],
  reason: "",
  observeOnly: false,
  source: "repository",
  ...r,
});

/** The baseline rules behind the example on spec page 03 (govern/in-your-session). */
const BASELINE: RuleSummary[] = [
  rule({
    name: "no-ssh-keys",
    effect: "deny",
    actions: ["filesystem.read"],
    targets: ["**/.ssh", "**/.ssh/**"],
    reason: "you chose to deny this: almost no task needs the key itself, and a leaked one is somebody’s weekend",
    source: "machine",
  }),
  rule({
    name: "no-history-rewrite",
    effect: "deny",
    actions: [
      "git.push-force",
      "git.push-f",
      "git.reset-hard",
      "git.branch-d",
      "git.clean-fd",
      "git.reset",
      "git.clean",
    ],
    reason: "you chose to deny this: it rewrites history somebody else may already have pulled",
  }),
  rule({
    name: "ask-deletes",
    effect: "ask",
    actions: ["filesystem.delete"],
    reason: "you chose to be asked about this: sometimes it really is the build directory, so a person should look",
  }),
  rule({
    name: "ask-mcp",
    effect: "ask",
    actions: ["mcp.*"],
    reason: "you chose to be asked about this: these are the calls whose consequences other people see",
  }),
  rule({
    name: "ask-hosts",
    effect: "ask",
    actions: ["http.request"],
    reason:
      "you chose to be asked about this: denying every unknown host breaks ordinary work on the first package install",
  }),
  rule({ name: "allow-reads", effect: "allow", actions: ["filesystem.read"] }),
];

// Spec page 03, "What the agent is told when a session starts", verbatim (the page shows it as one paragraph).
const SPEC_BLOCK =
  "Memnox: Memnox is watching this session in observe mode: nothing is stopped, and what it would have asked about or refused is recorded. Never run here: filesystem.read on **/.ssh, **/.ssh/** (you chose to deny this: almost no task needs the key itself, and a leaked one is somebody’s weekend); git.push-force or git.push-f or git.reset-hard or git.branch-d or git.clean-fd or git.reset or git.clean (you chose to deny this: it rewr.... A person is asked first: filesystem.delete (you chose to be asked about this: sometimes it really is the build directory, so a person should look); mcp.* (you chose to be asked about this: these are the calls whose consequences other people see); http.request (you chose to be asked about this: denying every unknown host breaks ordinary work on the first package install). Project boundary: /Users/you/code/shop. A write outside it asks first. When Memnox asks, the prompt puts the question to the person, who can say yes once or always; a refusal names what to use instead.";

describe("boundary block", () => {
  test("the baseline in observe reads exactly as the spec shows it, one line per part", () => {
    const block = boundaryBlock({ mode: "observe", rules: BASELINE, repository: "/Users/you/code/shop", canAsk: true });
    expect(block?.split("\n")).toHaveLength(5);
    expect(block?.replaceAll("\n", " ")).toBe(SPEC_BLOCK);
  });

  test("what proceeds is said by each allow rule's own reason, after what asks", () => {
    const allows = [
      rule({ name: "scripts", effect: "allow", actions: ["npm.test"], reason: "the project's own scripts" }),
      rule({ name: "loop", effect: "allow", actions: ["http.loopback"], reason: "HTTP to this machine" }),
    ];
    const block = boundaryBlock({ mode: "enforce", rules: [...BASELINE, ...allows], canAsk: true }) ?? "";
    expect(block).toContain("Proceeds without asking: the project's own scripts; HTTP to this machine.");
    expect(block.indexOf("Proceeds without asking")).toBeGreaterThan(block.indexOf("A person is asked first"));
  });

  test("a stopped machine says only that it is stopped, by whom, why and until when", () => {
    const block = boundaryBlock({
      mode: "enforce",
      rules: BASELINE,
      canAsk: true,
      stop: { until: "2026-09-24T16:00:00.000Z", by: "sam", reason: "rotating the deploy key" },
    });
    expect(block).toBe(
      'Memnox: protection on this machine is stopped until 2026-09-24T16:00:00.000Z by sam (rotating the deploy key), so nothing is checked. "memnox start" turns it back on.',
    );
  });

  test("off says nothing at all, even when stopped", () => {
    expect(boundaryBlock({ mode: "off", rules: BASELINE, canAsk: true })).toBeUndefined();
    const stop = { until: "2026-09-24T16:00:00.000Z", by: "sam" };
    expect(boundaryBlock({ mode: "off", rules: BASELINE, canAsk: true, stop })).toBeUndefined();
  });

  test("a rule set to observe on its own decides nothing and is not named", () => {
    const rules = [rule({ name: "watch", effect: "deny", actions: ["aws.s3-rm"], observeOnly: true })];
    const block = boundaryBlock({ mode: "enforce", rules, canAsk: true }) ?? "";
    expect(block).not.toContain("aws.s3-rm");
    expect(block).not.toContain("Never run here");
  });

  test("an agent that cannot ask is told a question is refused and held for a person, never how to approve it", () => {
    const block =
      boundaryBlock({
        mode: "enforce",
        rules: BASELINE,
        repository: "/r",
        canAsk: false,
        probation: { agent: "codex", until: "2026-12-08T00:00:00.000Z" },
      }) ?? "";
    expect(block).toContain("Memnox is ruling this session in enforce mode");
    expect(block).toContain("Project boundary: /r. A write outside it is refused until a person approves it.");
    expect(block).toContain(
      "Probation: codex is new here and on probation until 2026-12-08T00:00:00.000Z, so its writes, outward and destructive actions are refused until a person approves them.",
    );
    expect(block).toContain("held for a person, who answers it from their own terminal");
    expect(block).not.toMatch(/memnox (approve|deny|resume|stop)/);
  });

  test("a long rule is clipped to the item limit with an ellipsis", () => {
    const long = rule({ name: "x", effect: "deny", actions: ["a.b"], reason: "r".repeat(400) });
    expect(ruleItem(long)).toHaveLength(ITEM_MAX);
    expect(ruleItem(long).endsWith("...")).toBe(true);
  });

  test("only the first five of a kind are named and the rest counted", () => {
    const rules = Array.from({ length: 8 }, (_, i) =>
      rule({ name: `d${i}`, effect: "deny", actions: [`cli${i}.verb`] }),
    );
    const block = boundaryBlock({ mode: "enforce", rules, canAsk: true }) ?? "";
    expect(block).toContain("Never run here: cli0.verb; cli1.verb; cli2.verb; cli3.verb; cli4.verb; and 3 more.");
  });

  test("when the rules do not fit, fewer are named, and the mode and how to answer always stay", () => {
    const rules = Array.from({ length: 40 }, (_, i) =>
      rule({ name: `d${i}`, effect: i % 2 ? "deny" : "ask", actions: [`cli${i}.verb`], reason: "why ".repeat(60) }),
    );
    const block = boundaryBlock({ mode: "observe", rules, repository: "/r", canAsk: true }) ?? "";
    expect(block.length).toBeLessThanOrEqual(BLOCK_MAX);
    expect(block.startsWith("Memnox: Memnox is watching")).toBe(true);
    expect(block).toContain("When Memnox asks");
    expect(block).toMatch(/Never run here: .*and \d+ more\./);

    const huge = boundaryBlock({ mode: "observe", rules, repository: `/${"r".repeat(BLOCK_MAX)}`, canAsk: true }) ?? "";
    expect(huge.length).toBeLessThanOrEqual(BLOCK_MAX);
    expect(huge).toContain("Memnox is watching");
    expect(huge).toContain("When Memnox asks");
  });

  test("a session inside a kernel wall is told so second, and the line stays when the rules do not fit", () => {
    const wall = "Kernel wall: this session runs inside a wall the kernel holds: it cannot read credentials.";
    const block = boundaryBlock({ mode: "enforce", rules: BASELINE, canAsk: true, wall }) ?? "";
    expect(block.split("\n")[1]).toBe(wall);
    const rules = Array.from({ length: 40 }, (_, i) =>
      rule({ name: `d${i}`, effect: "deny", actions: [`cli${i}.verb`], reason: "why ".repeat(60) }),
    );
    const crowded = boundaryBlock({ mode: "enforce", rules, repository: "/r".repeat(900), canAsk: true, wall }) ?? "";
    expect(crowded.length).toBeLessThanOrEqual(BLOCK_MAX);
    expect(crowded).toContain(wall);
  });
});

// why/trace --verify against a stand-in engine, so the comparison is tested alone; argument-targets.test.ts uses the real one.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { runCommand } from "citty";
import type { Effect } from "../../src/core/effect.ts";
import type { StateFact } from "../../src/core/request.ts";
import type { ArgumentMatch } from "../../src/core/verdict.ts";
import { sha256Hex } from "../../src/ledger/canonical.ts";
import type { Reevaluate } from "../../src/ledger/reevaluate.ts";
import { compareVerdict, reproduce } from "../../src/ledger/reproduce.ts";
import type { LedgerRow } from "../../src/ledger/row.ts";
import { type Ledger, openLedger } from "../../src/ledger/store.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import type { CommandFactory } from "../../src/seams/cli/command.ts";
import { traceWith } from "../../src/seams/cli/commands/trace.ts";
import { whyWith } from "../../src/seams/cli/commands/why.ts";
import { fakeHome, testContext } from "../support/index.ts";
import { at, decision, ledgerHome, request } from "./helpers.ts";

interface TestRule {
  readonly name: string;
  readonly actions: readonly string[];
  readonly effect: Effect;
  readonly reason: string;
  readonly state?: string;
  readonly arguments?: Readonly<Record<string, string>>;
}

interface Facts {
  readonly action: string;
  readonly facts: readonly StateFact[];
  readonly argumentMatches: readonly ArgumentMatch[];
}

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

/** Most restrictive wins; a state rule holds only while its fact is in force at `atMs`. */
function evaluate(rules: readonly TestRule[], f: Facts, atMs: number) {
  const inForce = new Set(f.facts.filter((x) => Date.parse(x.expiresAt) > atMs).map((x) => `${x.kind}:${x.subject}`));
  const hit = rules.filter(
    (r) =>
      r.actions.includes(f.action) &&
      (!r.state || inForce.has(r.state)) &&
      Object.entries(r.arguments ?? {}).every(([arg, pattern]) =>
        f.argumentMatches.some((m) => m.rule === r.name && m.argument === arg && m.pattern === pattern),
      ),
  );
  const top = hit.sort((a, b) => RANK[b.effect] - RANK[a.effect])[0];
  return top
    ? { effect: top.effect, ruleId: top.name, reason: top.reason }
    : { effect: "allow" as const, reason: "no rule" };
}

/** The engine as the lead will wire it: compiled from the kept sources, at the row's own instant. */
const fromKeptRules: Reevaluate = async (row, ruleSet) => {
  const rules = ruleSet.sources.flatMap((s) => JSON.parse(s.text) as TestRule[]);
  return evaluate(rules, factsOf(row), Date.parse(row.occurredAt));
};

function factsOf(row: LedgerRow): Facts {
  const q = row.request;
  if (!q) throw new Error("no request");
  return { action: q.action, facts: q.facts, argumentMatches: q.argumentMatches };
}

const V1: TestRule[] = [
  {
    name: "no-deploy-frozen",
    actions: ["railway.up"],
    effect: "deny",
    reason: "payments is frozen",
    state: "freeze:payments",
  },
  {
    name: "no-force-main",
    actions: ["git.push-force"],
    effect: "deny",
    reason: "not onto main",
    arguments: { ref: "main*" },
  },
  { name: "push-ok", actions: ["git.push-force", "railway.up"], effect: "allow", reason: "fine" },
];

/** Decides like the gate: keep the rule set by hash, evaluate now, write the row. */
function gateDecides(ledger: Ledger, file: string, f: Facts, occurredAt: string): LedgerRow {
  const text = readFileSync(file, "utf8");
  const hash = sha256Hex(text);
  ledger.putRuleSet(hash, [{ path: file, text, hash }]);
  const v = evaluate(JSON.parse(text) as TestRule[], f, Date.parse(occurredAt));
  const { id } = ledger.append(
    decision({
      occurredAt,
      operation: f.action,
      effect: v.effect,
      enforceEffect: v.effect,
      reason: v.reason,
      ...(v.ruleId ? { ruleId: v.ruleId } : {}),
      policyHash: hash,
      request: request({ action: f.action, facts: f.facts, argumentMatches: f.argumentMatches }),
    }),
  );
  const [row] = ledger.select("SELECT * FROM events WHERE id = ?", id);
  if (!row) throw new Error("row not written");
  return row;
}

const freeze: StateFact = { kind: "freeze", subject: "payments", expiresAt: at(3_600_000), by: "moise" };

describe("a recorded verdict replays to the same answer", () => {
  test("from a freeze and from an argument match, after the rule file has since changed and the freeze expired", async () => {
    using h = ledgerHome();
    const file = h.join("rules.json");
    writeFileSync(file, JSON.stringify(V1));
    const frozen = gateDecides(h.ledger, file, { action: "railway.up", facts: [freeze], argumentMatches: [] }, at(0));
    const forced = gateDecides(
      h.ledger,
      file,
      {
        action: "git.push-force",
        facts: [],
        argumentMatches: [{ rule: "no-force-main", argument: "ref", pattern: "main*" }],
      },
      at(60_000),
    );
    expect(frozen).toMatchObject({ effect: "deny", ruleId: "no-deploy-frozen" });
    expect(forced).toMatchObject({ effect: "deny", ruleId: "no-force-main" });
    writeFileSync(file, JSON.stringify([V1[2]]));
    for (const row of [frozen, forced]) {
      const r = await reproduce(h.ledger, row, fromKeptRules);
      expect(r).toMatchObject({ reproduces: true, differences: [] });
      expect(r.replayed.ruleId).toBe(row.ruleId ?? null);
    }
  });

  test("an engine that reads today's rules, or today's clock, does not reproduce, and says what differs", async () => {
    using h = ledgerHome();
    const file = h.join("rules.json");
    writeFileSync(file, JSON.stringify(V1));
    const row = gateDecides(h.ledger, file, { action: "railway.up", facts: [freeze], argumentMatches: [] }, at(0));
    writeFileSync(file, JSON.stringify([V1[2]]));
    const todaysRules: Reevaluate = async (r) =>
      evaluate(JSON.parse(readFileSync(file, "utf8")) as TestRule[], factsOf(r), Date.parse(r.occurredAt));
    const todaysClock: Reevaluate = async (r, rs) =>
      evaluate(JSON.parse(rs.sources[0]?.text ?? "[]") as TestRule[], factsOf(r), Date.parse(at(7_200_000)));
    for (const drifted of [todaysRules, todaysClock]) {
      const r = await reproduce(h.ledger, row, drifted);
      expect(r.reproduces).toBe(false);
      expect(r.differences).toEqual([
        "effect: recorded deny, replayed allow",
        "rule: recorded no-deploy-frozen, replayed push-ok",
      ]);
    }
  });

  test("a row whose rule set was never kept cannot be replayed, and says why", async () => {
    using h = ledgerHome();
    const { id } = h.ledger.append(decision({ policyHash: "e".repeat(64) }));
    const [row] = h.ledger.select("SELECT * FROM events WHERE id = ?", id);
    if (!row) throw new Error("row not written");
    await expect(reproduce(h.ledger, row, fromKeptRules)).rejects.toThrow(/rule set eeeeeeeeeeeeeeee .* was not kept/);
  });

  test("compareVerdict compares the verdict enforce would apply, so an observe row replays too", () => {
    const row = { enforceEffect: "deny", effect: "allow", ruleId: "r", policyHash: "h" } as unknown as LedgerRow;
    expect(compareVerdict(row, { effect: "deny", ruleId: "r", reason: "x" }).reproduces).toBe(true);
    expect(compareVerdict(row, { effect: "allow", ruleId: "r", reason: "x" }).reproduces).toBe(false);
  });
});

describe("why --verify and trace --verify through the commands", () => {
  test("print the replay beside the recorded verdict; exit 1 when it does not reproduce", async () => {
    const home = fakeHome();
    using _ = home;
    const paths = memnoxPaths(home.env());
    const file = home.join("rules.json");
    writeFileSync(file, JSON.stringify(V1));
    const row = (() => {
      using ledger = openLedger(paths);
      return gateDecides(ledger, file, { action: "railway.up", facts: [freeze], argumentMatches: [] }, at(0));
    })();
    const runWith = async (factory: CommandFactory, args: string[]) => {
      const { ctx, io } = testContext(home, { args });
      const { result } = await runCommand(factory(ctx), { rawArgs: args });
      return { code: result, out: io.stdout() };
    };
    const ok = await runWith(whyWith(fromKeptRules), [row.id, "--verify", "--json"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out).verify).toMatchObject({ reproduces: true, policyHash: row.policyHash });
    const human = await runWith(traceWith(fromKeptRules), [row.id, "--verify"]);
    expect(human.out).toContain("verify  reproduces: deny by no-deploy-frozen");
    const wrong: Reevaluate = async () => ({ effect: "allow", reason: "today" });
    const bad = await runWith(whyWith(wrong), [row.id, "--verify"]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("DOES NOT reproduce");
    expect(bad.out).toContain("effect: recorded deny, replayed allow");
  });
});

// `scan --usage` and `protect --from-usage` against a real ledger written by the real gate: what proceeded is use,
// a refused attempt is not; drafts are ask rules, never deny; with no history nothing is called unused.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Action } from "../src/core/action.ts";
import { createGate } from "../src/gate/create.ts";
import { run } from "../src/seams/cli/index.ts";
import { testContext } from "./support/index.ts";
import { scanHome } from "./support/scan-machine.ts";

const home = scanHome(["claude-code", "tool-cache"]);
afterAll(() => home[Symbol.dispose]());
const NOW = Date.parse("2026-11-30T12:00:00.000Z");

async function cli(args: string[]) {
  const { ctx, io } = testContext(home, { args, now: NOW });
  const code = await run(ctx);
  return { code, out: io.stdout(), json: () => JSON.parse(io.stdout()) };
}

const tool = (server: string, name: string, cls: Action["class"]): Action => ({
  name: `mcp.${server}.${name}`,
  class: cls,
  targets: [],
  arguments: {},
});

describe("granted against used", () => {
  test("with no history, nothing is called unused and nothing is drafted", async () => {
    const u = (await cli(["scan", "--usage", "7d", "--json", "--no-probe"])).json();
    expect(u.decisions).toBe(0);
    expect(u.granted.length).toBeGreaterThan(5);
    expect(u.unused).toEqual([]);
    const p = await cli(["protect", "--from-usage", "30d"]);
    expect(p.code).toBe(0);
    expect(p.out).toContain("the ledger holds no decision in the last 30d, so nothing is called unused");
  });

  test("what proceeded is use; what was refused is not", async () => {
    const { ctx } = testContext(home, { now: NOW - 3_600_000 });
    const gate = createGate(ctx);
    const ask = { surface: "mcp" as const, cwd: home.home, canAsk: false, agent: "claude-code" };
    const read = await gate.decide({ ...ask, action: tool("crm", "read_customer", "read") });
    expect(read.effect).toBe("allow");
    await gate.recordOutcome(read.eventId ?? "", { exitCode: 0 });
    const update = await gate.decide({ ...ask, action: tool("crm", "update_customer", "write") });
    await gate.recordOutcome(update.eventId ?? "", { exitCode: 0 });
    const refused = await gate.decide({
      ...ask,
      action: tool("slack", "send_invoice", "communication"),
      refusal: "hidden",
    });
    expect(refused.effect).toBe("deny");

    const u = (await cli(["scan", "--usage", "7d", "--json", "--no-probe"])).json();
    expect(u.decisions).toBe(3);
    expect(u.used).toEqual(["mcp.crm.read_customer", "mcp.crm.update_customer"]);
    const unused = u.unusedOutside.map((g: { action: string }) => g.action);
    expect(unused).toContain("mcp.slack.send_invoice");
    expect(unused).toContain("mcp.crm.delete_customer");
    expect(unused).not.toContain("mcp.crm.update_customer");
    expect(unused).not.toContain("mcp.crm.list_customers");

    const human = await cli(["scan", "--usage", "7d", "--no-probe"]);
    expect(human.out).toMatch(/^ {2}\d+ granted {2}2 used {2}\d+ never touched$/m);
    expect(human.out).toMatch(/mcp\.slack\.send_invoice\s+~\/\.claude\.json/);
    expect(human.out).toContain("memnox protect --from-usage 7d");
  });

  test("protect --from-usage proposes ask rules and writes nothing without --yes", async () => {
    const r = await cli(["protect", "--from-usage", "30d", "--json"]);
    const out = r.json();
    expect(out.written).toBe(false);
    expect(out.drafted.decision.effect).toBe("ask");
    expect(out.drafted.match.actions).toContain("mcp.slack.send_invoice");
    expect(out.drafted.match.actions).not.toContain("mcp.crm.read_customer");
    expect(() => readFileSync(home.join(".memnox", "machine.policies.toml"))).toThrow();
  });

  test("--yes writes the draft into the machine's own rule file, and the rule then asks", async () => {
    const r = await cli(["protect", "--from-usage", "30d", "--yes"]);
    expect(r.out).toContain("written to ~/.memnox/machine.policies.toml");
    const text = readFileSync(home.join(".memnox", "machine.policies.toml"), "utf8");
    expect(text).toContain('name = "unused-30d-asked-2026-11-30"');
    expect(text).toContain('effect = "ask"');
    expect(text).not.toContain('effect = "deny"');
    const t = await cli(["explain", "slack.send_invoice", "--json"]);
    expect(t.json().tools[0].rule).toMatchObject({ effect: "ask", rule: { name: "unused-30d-asked-2026-11-30" } });
  });
});

// Help says what a flag does, checked against what it does: a flag that is on by default is shown as its `--no-`
// form with words for that form (every command, walked from the tree the CLI runs), and the probe flags are run for
// real against a stand-in MCP server that leaves a mark when it is started: `--no-probe`, bare `memnox` and `doctor`
// start nothing; `scan` and `doctor --probe` start it.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import type { ArgsDef, CommandDef } from "citty";
import { value } from "../src/seams/cli/contract.ts";
import { run } from "../src/seams/cli/index.ts";
import { COMMANDS } from "../src/seams/cli/registry.ts";
import { fakeHome, testContext } from "./support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

async function cli(args: readonly string[], env: Record<string, string> = {}) {
  const { ctx, io } = testContext(home, { args: [...args], env });
  const code = await run(ctx);
  return { code, out: io.stdout() };
}

interface Flag {
  readonly path: readonly string[];
  readonly name: string;
  readonly negative?: string;
}

/** Every boolean that is on by default, in every command and subcommand. */
async function negatedFlags(): Promise<Flag[]> {
  const { ctx } = testContext(home);
  const out: Flag[] = [];
  const walk = async (def: CommandDef, path: string[]) => {
    const args: ArgsDef = (await value(def.args)) ?? {};
    for (const [name, a] of Object.entries(args)) {
      if (a.type !== "boolean" || a.default !== true) continue;
      out.push({
        path,
        name,
        ...("negativeDescription" in a && a.negativeDescription ? { negative: a.negativeDescription } : {}),
      });
    }
    const subs = (await value(def.subCommands)) ?? {};
    for (const [n, s] of Object.entries(subs)) {
      const sub = await value(s);
      if (sub) await walk(sub, [...path, n]);
    }
  };
  for (const c of COMMANDS) await walk((await c.load())(ctx), [c.name]);
  return out;
}

describe("help says what each flag does", () => {
  test("a flag on by default is shown as --no-<flag>, with words for what --no-<flag> does", async () => {
    const flags = await negatedFlags();
    expect(flags.length).toBeGreaterThan(5);
    for (const f of flags) {
      expect({ flag: `${f.path.join(" ")} --no-${f.name}`, negative: f.negative }).toEqual({
        flag: `${f.path.join(" ")} --no-${f.name}`,
        negative: expect.any(String),
      });
      const help = await cli([...f.path, "--help"]);
      const line = help.out.split("\n").find((l) => l.trimStart().startsWith(`--no-${f.name} `));
      expect(line).toContain(f.negative ?? "");
    }
  });

  test("the probe flags do what their help says, against a server that marks when it is started", async () => {
    const mark = home.join("started");
    const server = home.join("stand-in-mcp");
    writeFileSync(server, `#!/bin/sh\ntouch ${mark}\nexit 0\n`, { mode: 0o755 });
    writeFileSync(
      home.join(".claude.json"),
      JSON.stringify({ mcpServers: { standin: { command: server, args: [] } } }),
    );
    const started = async (args: readonly string[]) => {
      rmSync(mark, { force: true });
      await cli(args);
      return existsSync(mark);
    };
    const helpLine = async (path: readonly string[], flag: string) =>
      (await cli([...path, "--help"])).out.split("\n").find((l) => l.trimStart().startsWith(flag)) ?? "";

    expect(await helpLine(["scan"], "--no-probe")).toContain("start no MCP server");
    expect(await started(["scan", "--no-probe"])).toBe(false);
    expect(await started(["scan"])).toBe(true);
    // Bare memnox on a machine nobody set up is the scan, and it starts nobody's server without being asked.
    expect(await started([])).toBe(false);
    expect(await helpLine(["doctor"], "--probe")).toContain("start each MCP server");
    expect(await started(["doctor"])).toBe(false);
    expect(await started(["doctor", "--probe"])).toBe(true);
    expect(await helpLine(["setup"], "--no-probe")).toContain("start no MCP server");
    expect(await started(["setup", "--no-probe"])).toBe(false);
  });
});

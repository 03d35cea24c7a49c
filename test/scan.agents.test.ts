// `memnox agents …` and `memnox explain <thing>`: names people give, the file behind each surface, trust on the
// record, and where a capability came from with what is possible kept apart from what the rules allow.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { openLedger } from "../src/ledger/index.ts";
import { run } from "../src/seams/cli/index.ts";
import { startProbation } from "../src/state/probation.ts";
import { testContext } from "./support/index.ts";
import { rufloRepo, scanHome } from "./support/scan-machine.ts";

const home = scanHome();
const repo = rufloRepo();
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});
const NOW = Date.parse("2026-11-30T12:00:00.000Z");

async function cli(args: string[]) {
  const { ctx, io } = testContext(home, { args, cwd: repo.path, now: NOW, env: { DOCKER_HOST: "tcp://127.0.0.1:1" } });
  const code = await run(ctx);
  return { code, out: io.stdout(), json: () => JSON.parse(io.stdout()) };
}

describe("memnox agents", () => {
  test("list reads the last scan and never scans: with none yet it says how to take one", async () => {
    await expect(cli(["agents", "list"])).rejects.toThrow(/no scan has been taken here yet/);
  });

  test("discover is the default: each agent, the product, what it reaches", async () => {
    const r = await cli(["agents", "--no-probe"]);
    expect(r.out).toMatch(/^claude-code\s+Claude Code\s+shell, 4 MCP server\(s\), reaches \d+ credential\(s\)$/m);
    expect(r.out).toMatch(/^gemini-cli\s+Gemini CLI\s+no shell, 1 MCP server\(s\), reaches 0 credential\(s\)$/m);
    expect(existsSync(home.join(".memnox", "scan.json"))).toBe(true);
  });

  test("name: what every screen prints from then on; the id stays, and commands answer to either", async () => {
    const r = await cli(["agents", "name", "claude-code", "laptop claude"]);
    expect(r.out).toContain("agent claude-code is now called laptop claude");
    const list = (await cli(["agents", "list", "--json"])).json();
    expect(list.agents.find((a: { id: string }) => a.id === "claude-code").name).toBe("laptop claude");
    const st = await cli(["agents", "status", "laptop claude"]);
    expect(st.out).toMatch(/^laptop claude \(claude-code\): Claude Code$/m);
    const scan = await cli(["scan", "--no-probe"]);
    expect(scan.out).toMatch(/^AI AGENTS\s+laptop claude, /);
    const status = await cli(["status"]);
    expect(status.out).toMatch(/│ agents .*laptop claude/);
    expect(status.out).not.toContain("Claude Code");
    const path = await cli(["explain", "~/.aws/credentials", "--no-probe"]);
    expect(path.out).toContain("reachable by laptop claude (its shell, ");
    expect((await cli(["agents", "name", "laptop claude", "--clear"])).out).toContain("has its detected name back");
    expect((await cli(["agents", "name", "claude-code"])).out).toBe("claude-code is called claude-code\n");
  });

  test("status: the file that proved each surface", async () => {
    const r = await cli(["agents", "status", "codex"]);
    expect(r.out).toContain(`found by     ~/.codex/config.toml (Codex MCP servers)`);
    expect(r.out).toContain("shell        yes: Codex runs commands through its shell tool (~/.codex/config.toml)");
    expect(r.out).toContain(
      "hook         memnox hook in ~/.codex/hooks.json, not active until run `codex`, type /hooks and trust memnox's hooks",
    );
    expect(r.out).toContain("mcp          tracker: 2 tools, 1 write-capable (~/.codex/config.toml)");
    expect(r.out).toMatch(/reaches {6}~\/\.aws\/credentials cloud, through shell/);
    const oc = await cli(["agents", "status", "openclaw"]);
    expect(oc.out).toContain("shell        no: its own settings take exec away (~/.openclaw/openclaw.json)");
    expect(oc.out).toContain("federated    works with agents on other machines; this scan sees only here");
  });

  test("trust: ends probation now, on the record; an agent not on probation is named as such", async () => {
    await expect(cli(["agents", "trust", "cursor"])).rejects.toThrow(/agent `cursor` is not on probation/);
    startProbation(home.join(".memnox", "probation.json"), "agent", "cursor", NOW - 86_400_000);
    const r = await cli(["agents", "trust", "cursor", "--json"]);
    expect(r.json()).toMatchObject({ kind: "agent", name: "cursor", trustedAt: "2026-11-30T12:00:00.000Z" });
    using ledger = openLedger({ db: home.join(".memnox", "memnox.db") });
    const ops = ledger.select("SELECT * FROM events ORDER BY seq").map((row) => `${row.kind}:${row.operation}`);
    expect(ops).toEqual(["state:agents.name", "state:agents.name", "state:agents.trust"]);
  });
});

describe("memnox explain", () => {
  test("a CLI: the credential behind it and what it is linked to, beside the verb table", async () => {
    const r = (await cli(["explain", "gcloud", "--json"])).json();
    expect(r.credentials[0]).toMatchObject({ kind: "cloud", label: "gcloud credentials" });
    expect(r.projects).toEqual(["project shop-prod (configuration default)"]);
    expect(r.verbs.length).toBeGreaterThan(5);
    const kube = await cli(["explain", "kubectl"]);
    expect(kube.out).toContain("credential  ~/.kube/config (cloud)");
    expect(kube.out).toContain("linked to   context shop-prod");
  });

  test("a tool: its server, the file that granted it, its class and the rule in force", async () => {
    const r = await cli(["explain", "crm.delete_customer"]);
    expect(r.out).toContain("crm.delete_customer: a tool of MCP server crm");
    expect(r.out).toContain("class        destructive (by its name)");
    expect(r.out).toContain("granted by   ~/.claude.json, not through memnox");
    expect(r.out).toContain("rule         allow (no rule matches: ungoverned)");
  });

  test("a server: its tools split by what they do, who reaches it, the band", async () => {
    const r = await cli(["explain", "tracker"]);
    expect(r.out).toContain("band        medium: 1 read, 1 write");
    expect(r.out).toContain("hidden      2 tool(s) by the host's own filter, not counted");
  });

  test("an agent (a harness): roles, runtimes, hooks and federation", async () => {
    const r = await cli(["explain", "ruflo"]);
    expect(r.out).toContain("roles        architect, coder, planner, reviewer, tester");
    expect(r.out).toContain("hook files   2");
  });

  test("a path and a question: what is possible, and separately what the rules allow", async () => {
    const before = await cli(["explain", `can hermes read ${home.join(".npmrc")}`]);
    expect(before.out).toContain("possible  yes: Hermes runs commands through terminal (~/.hermes/config.yaml)");
    expect(before.out).toContain("rules     allow (no rule matches: ungoverned)");
    await cli(["protect", "--yes"]);
    const after = await cli(["explain", `can hermes read ${home.join(".npmrc")}`, "--json"]);
    expect(after.json()).toMatchObject({ possible: true, rule: { effect: "deny" }, mode: "observe" });
    const gem = (await cli(["explain", `can gemini-cli read ${home.join(".npmrc")}`, "--json"])).json();
    expect(gem.possible).toBe(false);
    const p = await cli(["explain", home.join(".aws", "credentials")]);
    expect(p.out).toContain("~/.aws/credentials: AWS credentials (cloud, sha256:");
    expect(p.out).toContain("claude-desktop (mcp:files, ~/.config/Claude/claude_desktop_config.json)");
    expect(p.out).toMatch(/read {9}deny \(cloud-credentials-not-read/);
  });

  test("something that is none of these is said to be none of them", async () => {
    await expect(cli(["explain", "frobnicator"])).rejects.toThrow(/nothing called `frobnicator` here/);
  });
});
